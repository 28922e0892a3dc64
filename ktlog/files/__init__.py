"""Files: the game-log format (JSON Lines, one event a line), roster files, and the JSON Schemas."""
