"""Preliminary Ops (KT24)."""
