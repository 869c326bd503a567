"""Statistics and summaries over simulated deal records."""
