"""Text: the notation of events and dice, and describing events, states and results."""
