"""Plain-Python schemas shared by every layer: cards, the rule knobs and profiles, the per-deal
record. Importing them loads no compiler."""
