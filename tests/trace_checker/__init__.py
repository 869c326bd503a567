"""Independent referee for Hand and Foot deal traces (see checker.py)."""

from .checker import TraceChecker, Violation, check_file, check_trace, run_file
from .checks import CHECKS
from .profiles import PROFILES, STANDARD, Profile

__all__ = [
    "CHECKS",
    "PROFILES",
    "STANDARD",
    "Profile",
    "TraceChecker",
    "Violation",
    "check_file",
    "check_trace",
    "run_file",
]
