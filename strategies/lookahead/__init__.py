"""What the players that look ahead share: the search (``strategies.search``) and the learned
player (``strategies.learned``) both gather the sensible candidates of a decision
(``candidates``), play each on a copy of the position (``playing``: the decision's world keys,
the trace and random-stream bracket), ask a base policy (``heuristics``) and read a position
as a vector of what the seat may know (``features``, its slots named in ``schema``) scored by a
fitted model (``value``). Keeping these here, once, is what lets the two players agree (the
learned player scores exactly the positions its training rows were recorded at) while neither
imports the other (an import contract in pyproject.toml says so).

This package's ``__init__`` imports nothing: reading a model file's schema loads no compiler.
"""
