"""Independent referee for Hand and Foot deal traces (see checker.py)."""

from .checker import TraceChecker, Violation, check_file, check_trace, run_file
from .profiles import PROFILES, STANDARD, Profile

__all__ = [
    "PROFILES",
    "STANDARD",
    "Profile",
    "TraceChecker",
    "Violation",
    "check_file",
    "check_trace",
    "run_file",
]
