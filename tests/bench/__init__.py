"""The benchmarks behind ``make bench`` and its siblings: measurements, not tests (pytest
collects none of them), kept out of the installed package so a user's install carries only
what plays and analyses."""
