"""Reports: turning runs into answers, tables, figures and report folders.

The machinery (``content``: what a report shows; ``build``: build and rebuild; ``writer``:
the folder; ``kinds``: the one table of report kinds) and one module per report kind, named
after its command. Nothing here imports compiled code (pyproject.toml's contracts), so
``handfoot report NAME`` rebuilds a report without loading numba.
"""
