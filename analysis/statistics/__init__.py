"""Statistics: estimates with their uncertainty, read from run folders.

Intervals (Wilson, clustered, t, order statistics, Holm), the paired design of every game
shape, the sequential probability ratio test, Bradley-Terry ratings and the per-situation
estimates of branched positions. Nothing here plays a game or writes a report: this layer
imports neither ``analysis.experiments`` nor ``analysis.reports`` (pyproject.toml's contracts).
"""
