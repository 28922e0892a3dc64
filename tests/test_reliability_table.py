"""The table's set-up soaked (issue 38): a server for two phones, a spectator, the table's commands
and terminal UI on one database file, the server killed with SIGKILL at random moments
(tests/table_soak.py). On c2086ea the first command to close the file deleted the server's
write-ahead log under it: 30 rounds lost 10 acknowledged writes and acknowledged 32 seqs twice."""

from __future__ import annotations

import os

import pytest
from table_soak import soak

ROUNDS = int(os.environ.get("KTLOG_SOAK_ROUNDS", "200"))


@pytest.mark.slow
def test_no_acknowledged_write_is_lost_at_a_table_of_phones_commands_and_a_tui(tmp_path, figures):
    soaked = soak(tmp_path, ROUNDS, seed=38, say=lambda line: None)
    for name in ("rounds", "kills", "kills_in_flight", "commands", "tui_sessions", "refused"):
        figures[f"table soak: {name.replace('_', ' ')}"] += getattr(soaked, name)
    figures["table soak: writes acknowledged"] += len(soaked.acknowledged)
    figures["table soak: acknowledged writes lost"] += len(soaked.lost)
    assert soaked.problems == []
    assert soaked.unlinked == [], "the server's write-ahead log was deleted under it"
    assert soaked.stale_logs == []
    assert soaked.lost == [] and soaked.twice == []
    assert soaked.kills >= ROUNDS // 20 and soaked.tui_sessions >= ROUNDS // 10
    assert len(soaked.acknowledged) >= ROUNDS, "most writes should be acknowledged"
    assert soaked.seat_seq == soaked.head == soaked.streamed, "after the last restart the seat and a new stream show the log's head"
