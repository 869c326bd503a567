"""The compiled kernels: the game record and its moves, legality, scoring, and the decision
flow of a deal (docs/design.md). Nothing here imports a strategy, the runner or the CLI."""
