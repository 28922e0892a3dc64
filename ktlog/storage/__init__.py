"""Storage: the SQLite file, the event store, the projections and the schema catalog."""
