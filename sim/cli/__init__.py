"""The ``handfoot`` command line: one click group, one error type, shared options."""

from sim.cli.main import main

__all__ = ["main"]
