"""Runs: playing many games in chunks (``runner``), keeping them in run folders (``storage``,
with mergeable per-chunk ``aggregate``s), and traces (``trace``).

Only ``runner`` and ``trace`` load the compiled engine; reading a run does not.
"""
