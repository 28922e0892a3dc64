"""The application layer: what a game allows next, recording and replaying a game, building one
in code, and verifying stored games. Above the rules and the storage; below the commands and the TUI."""
