"""Experiments: what plays games for a question.

The pairings of a comparison and the run folders behind them, the play loops that grow runs
until an interval is narrow enough or a sequential test decides, the tuning race, the
branched positions of holding a wild, and the analysis of one position. Modules here may drive
the compiled engine; the ones a report reads (``pairings``, ``tune_study``,
``holding_cache``) do not, so rebuilding a report never loads it.
"""
