"""``learned``: a fast strong player that scores each sensible candidate by a value model
fitted on simulated positions (``handfoot learn``)."""
