"""ktlog: Kill Team matches as an append-only event log, replayed and scored by a pure reducer."""

__version__ = "0.1.0"
