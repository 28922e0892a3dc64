"""Kill Team 2021, with its dataslates."""
