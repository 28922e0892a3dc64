"""The Textual terminal UI (`ktlog`, `ktlog record`, `ktlog replay`).

Textual draws at most `TEXTUAL_FPS` frames a second (60 by default), and a key that opens a
dialog takes two to five frames to draw (a new widget is sized in one frame, drawn in the next):
at 60 that wait is most of a key's time. ktlog asks for 240 unless the user set TEXTUAL_FPS
(benchmarks/tui_bench.py: every recording key 33 -> 14 ms median; an idle screen still draws
nothing). Set before any Textual module is imported: Textual reads it once, at import.
"""

import os

os.environ.setdefault("TEXTUAL_FPS", "240")
