"""Analysis of simulated runs, in three layers, each importing only those below it:
``reports`` (report kinds and the report machinery) > ``experiments`` (what plays games) >
``statistics`` (estimates with their intervals).
Its memory benchmark (``make bench-analysis``) lives with the others in ``tests/bench``."""
