"""Search players: strategies that imagine the hidden cards and play each candidate action on
to the end of the deal on copies (``pimc``), or that see the hidden cards (``oracle``, a
ceiling for measurement only). They may drive the engine's moves on their copies; the game
itself still only receives their proposals."""
