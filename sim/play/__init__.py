"""Playing games: the compiled loop that asks each seat's strategy and lets the engine apply
its proposals, and the Python entry points in front of it."""
