"""The board: a killzone as data (`layout`) and the rules' geometry on it (`geometry`, `movement`),
pure and without the event vocabulary, so events, state, rules and faces can all build on it
(docs/the-board.md)."""
