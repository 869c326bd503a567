"""Strategies that peek at hidden cards, for tests/test_no_cheating.py to catch: greedy, with
one hook that reads what its seat cannot see."""
