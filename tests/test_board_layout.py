"""Layout files (docs/the-board.md): the shipped illustrative layouts, the JSON Schema, the
canonical bytes and hash, and every input checked at the boundary with the field named."""

from __future__ import annotations

import json
import os

import jsonschema
import pytest

from ktlog.board.layout import BOARD_DEPTH, BOARD_WIDTH, canonical, layout_hash
from ktlog.data import SCHEMAS
from ktlog.files.layouts import LAYOUT_LIMIT, LayoutError, check_layout, layout_from_text, load_layout, shipped

MINIMAL = """
name = "Kitchen table"
[[terrain]]
name = "Crate"
parts = [{ name = "crate", traits = ["light"], height = 1, rect = { x = 10, y = 10, width = 2, depth = 1 } }]
"""


def test_the_shipped_layouts_are_marked_illustrative_and_read_clean():
    layouts = shipped()
    assert set(layouts) == {"volkus-like", "gallowdark-like"}
    for path in layouts.values():
        layout = load_layout(path)
        assert layout.illustrative and "illustrative" in layout.name.lower()
        assert "ILLUSTRATIVE" in path.read_text().splitlines()[0] and "not a Games Workshop map" in path.read_text()
        assert len(layout.drop_zones) == 2 and len(layout.objectives) == 3
    volkus, gallowdark = load_layout(layouts["volkus-like"]), load_layout(layouts["gallowdark-like"])
    assert (volkus.width, volkus.depth) == (BOARD_WIDTH, BOARD_DEPTH) == (30, 22)  # pg 56
    assert (round(gallowdark.width * 25.4), round(gallowdark.depth * 25.4)) == (606, 703)  # pg 66
    assert sum(len(f.parts) for f in volkus.terrain) >= 25
    assert any("wall" in p.traits for f in gallowdark.terrain for p in f.parts)
    assert any("hatchway" in p.traits for f in gallowdark.terrain for p in f.parts)


def test_the_layout_schema_is_generated_and_validates_the_shipped_layouts():
    schema = json.loads((SCHEMAS / "layout.json").read_text())
    assert schema["title"] == "Layout file"
    for path in shipped().values():
        jsonschema.validate(json.loads(canonical(load_layout(path))), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"name": "x", "terrain": [{"name": "f", "parts": [{"name": "p", "traits": ["sticky"], "height": 1}]}]}, schema)


def test_canonical_bytes_and_hash_ignore_comments_spacing_and_3_or_3_point_0():
    layout, problems = layout_from_text(MINIMAL)
    assert layout is not None and not problems
    again, _ = layout_from_text("# a comment\n" + MINIMAL.replace("height = 1,", "height = 1.0 ,").replace("x = 10,", "x = 10.0,"))
    assert again is not None
    assert canonical(layout) == canonical(again)
    assert layout_hash(layout) == layout_hash(again) and len(layout_hash(layout)) == 64
    moved, _ = layout_from_text(MINIMAL.replace("x = 10,", "x = 11,"))
    assert moved is not None and layout_hash(moved) != layout_hash(layout)
    assert canonical(layout).startswith(b'{"name":"Kitchen table","width":30.0,"depth":22.0')


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("height = 1,", "height = 0,"), "field terrain[0].parts[0].height: 0.0 is not a height"),
        (("height = 1,", 'height = "tall",'), "field terrain[0].parts[0].height: Expected a number, got text"),
        (("height = 1,", "height = nan,"), "field terrain[0].parts[0].height: nan is not a height"),
        (("x = 10,", "x = 29.5,"), "is off the 30 x 22 board"),
        (("width = 2,", "width = -2,"), "field terrain[0].parts[0].rect: width and depth must be more than 0"),
        (
            ('traits = ["light"]', 'traits = ["sticky"]'),
            "field terrain[0].parts[0].traits[0]: 'sticky' is not a terrain type; give one of light, heavy, vantage",
        ),
        (('traits = ["light"]', "traits = []"), "field terrain[0].parts[0].traits: give the part's terrain types"),
        (('name = "Crate"', 'name = "Cr\\u0007ate"'), "field terrain[0].name: the name holds the control character U+0007"),
        (('name = "Kitchen table"', 'name = ""'), "field name: the name is empty"),
        (('name = "Kitchen table"', "name = 3"), "field name: Expected text, got a whole number"),
        (("rect = { x = 10, y = 10, width = 2, depth = 1 }", "polygon = [[1, 1], [5, 1], [1, 4], [3, 5]]"), "its edges cross"),
        (("rect = { x = 10, y = 10, width = 2, depth = 1 }", "polygon = [[1, 1], [2, 2], [3, 3]]"), "its area is under 0.01 square inches"),
        ((", rect = { x = 10, y = 10, width = 2, depth = 1 }", ""), "give its footprint as a rect"),
        (("height = 1,", "height = 1, colour = 3,"), "unknown field `colour`"),
        (('name = "Kitchen table"', 'name = "Kitchen table"\nwidth = 1000'), "field width: 1000.0 is not a board size"),
    ],
)
def test_a_layout_problem_names_its_field_and_what_to_do(change, message):
    layout, problems = layout_from_text(MINIMAL.replace(*change))
    assert layout is None
    assert any(message in p for p in problems), problems


def test_names_used_twice_and_markers_off_the_board_are_refused():
    text = MINIMAL + '\n[[terrain]]\nname = "Crate"\nparts = [{ name = "c", traits = ["heavy"], height = 2, rect = { x = 1, y = 1, width = 1, depth = 1 } }]\n'
    text += '[[objectives]]\nname = "1"\nx = 0.2\ny = 11\n'
    _, problems = layout_from_text(text)
    assert "field terrain: 'Crate' named twice; give each a name of its own" in problems
    assert any(p.startswith("field objectives[0]: the marker at (0.2, 11.0) is not wholly on the 30 x 22 board") for p in problems)


def test_too_many_parts_are_refused_before_any_geometry():
    parts = ", ".join(f'{{ name = "p{i}", traits = ["light"], height = 1, rect = {{ x = 1, y = 1, width = 1, depth = 1 }} }}' for i in range(31))
    _, problems = layout_from_text(f'name = "x"\n[[terrain]]\nname = "heap"\nparts = [{parts}]\n')
    assert problems == ["field terrain[0].parts: 31 parts; at most 30 in one feature"]


def test_only_regular_files_within_the_limit_are_read(tmp_path):
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (LAYOUT_LIMIT + 1))
    assert "larger than 1 MB" in check_layout(big)[1][0]
    assert check_layout(tmp_path)[1] == [f"cannot read the layout file: {tmp_path} is a folder, not a regular file; give the path of a layout file"]
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    assert "is a pipe, not a regular file" in check_layout(fifo)[1][0]
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe")
    assert check_layout(binary)[1] == [f"cannot read the layout file: {binary} is not UTF-8 text; save a layout file as UTF-8"]
    bad = tmp_path / "bad.toml"
    bad.write_text("name = \n")
    with pytest.raises(LayoutError, match=r"bad.toml: not valid TOML: .*fix that line of the layout file"):
        load_layout(bad)
    assert "no such file" in check_layout(tmp_path / "missing.toml")[1][0]
