"""The board drawn: as SVG (well-formed, every text escaped, orders, wounds, trails and shot
lines) and as a character map that fits a terminal of 80x24 and of 120x40 with its key."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from ktlog.board.geometry import Placed
from ktlog.files.layouts import load_layout, shipped
from ktlog.text.board_map import board_key, board_map, letters
from ktlog.text.board_svg import ShotLine, Trail, board_svg

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = '<script>alert("x")</script>&'


def operatives() -> list[Placed]:
    return [
        Placed("sergeant", "Alice", 8, 18.5, base_mm=32, order="engage", wounds=8, max_wounds=10),
        Placed(HOSTILE, "Alice", 4.5, 8.5, z=3, base_mm=28, order="engage", wounds=3, max_wounds=8),
        Placed("warrior-1", "Bob", 16, 2, base_mm=32),
        Placed("warrior-2\x1b[31m", "Bob", 22, 10.5, base_mm=40, order="engage", wounds=5, max_wounds=10),
    ]


@pytest.mark.parametrize("name", ["volkus-like", "gallowdark-like"])
def test_the_svg_is_well_formed_and_draws_every_part_marker_and_operative(name):
    layout = load_layout(shipped()[name])
    svg = board_svg(layout, operatives(), trails=[Trail("sergeant", ((10, 21), (8, 18.5)))], shots=[ShotLine(HOSTILE, "warrior-2\x1b[31m")])
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    parts = sum(len(f.parts) for f in layout.terrain)
    assert len(root.findall(f"{SVG}polygon")) == parts + len(layout.drop_zones)
    operative_groups = root.findall(f"{SVG}g")
    assert len(operative_groups) == 4
    assert len(root.findall(f"{SVG}polyline")) == 1 and len(root.findall(f"{SVG}line")) == 1
    markers = [c for c in root.findall(f"{SVG}circle") if c.get("fill") == "#f4d03f"]
    assert len(markers) == len(layout.objectives)
    assert "illustrative" in svg


def test_names_are_escaped_and_orders_and_wounds_shown():
    svg = board_svg(load_layout(shipped()["volkus-like"]), operatives())
    assert "<script>" not in svg and "&lt;script&gt;" in svg and "&amp;" in svg
    assert "\x1b" not in svg and "warrior-2\\u001b[31m" in svg  # XML cannot hold the escape character: shown
    sergeant = next(g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.find(f"{SVG}title").text.startswith("sergeant"))
    circle = sergeant.find(f"{SVG}circle")
    assert circle.get("stroke-dasharray") is None  # Engage: a solid ring
    assert float(circle.get("r")) == pytest.approx(32 / 25.4 / 2 * 24, abs=0.05)  # its base, 32mm across
    assert [t.text for t in sergeant.findall(f"{SVG}text")] == ["sergeant", "8/10"]
    warrior = next(g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.find(f"{SVG}title").text.startswith("warrior-1"))
    assert warrior.find(f"{SVG}circle").get("stroke-dasharray") == "4 3"  # Conceal: dashed


@pytest.mark.parametrize(("cols", "rows"), [(80, 24), (120, 40)])
@pytest.mark.parametrize("name", ["volkus-like", "gallowdark-like"])
def test_the_character_map_and_its_key_fit_the_terminal(name, cols, rows):
    layout = load_layout(shipped()[name])
    ops = operatives()
    lines = board_map(layout, ops, cols, rows - 6) + board_key(ops, cols)
    assert len(lines) <= rows and all(len(line) <= cols for line in lines)
    text = "\n".join(lines)
    assert "\x1b" not in text and "\\u001b" in text  # a name's control character shown, not sent
    assert all(letter in text for letter in letters(ops).values())
    assert "▒" in text or "█" in text


def test_each_player_has_its_own_letters_and_terrain_has_its_glyph():
    layout = load_layout(shipped()["volkus-like"])
    ops = operatives()
    assert letters(ops) == {"sergeant": "a", HOSTILE: "b", "warrior-1": "A", "warrior-2\x1b[31m": "B"}
    lines = board_map(layout, ops, 120, 34)
    # the sergeant at (8, 18.5): its cell holds its letter; the objective "centre" at (15, 11) its mark
    width, height = len(lines[0]), len(lines)
    assert lines[int(18.5 / 22 * height)][int(8 / 30 * width)] == "a"
    assert lines[int(11 / 22 * height)][int(15 / 30 * width)] == "◎"
    assert "+" in "".join(lines)  # the strongholds' doors
