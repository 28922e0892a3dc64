"""A killzone as data (pg 56-61): the board, its terrain features made of parts with heights and
types, the drop zones and the objective markers. A layout file (TOML, `ktlog.files.layouts`)
is read into these structs; `canonical` gives the bytes a game can carry in its creation and
hash chain, the same for any file that says the same thing.

Coordinates are inches from the board's top-left corner as its map is drawn: x to the right,
y downwards. Heights are inches above the killzone floor (pg 52)."""

from __future__ import annotations

import hashlib
from typing import Annotated, Literal

import msgspec

BOARD_WIDTH = 30.0
BOARD_DEPTH = 22.0
"""Unless otherwise specified, a killzone game board is 30" x 22" (pg 56)."""
MARKER_DIAMETER = 40 / 25.4
"""Objective markers are 40mm in diameter (pg 52), in inches."""

Trait = Literal["light", "heavy", "vantage", "insignificant", "exposed", "accessible", "blocking", "wall", "door", "hatchway"]
"""A part's terrain types (pg 58-61; Wall and hatchway, Gallowdark pg 66-69; a door, Volkus pg 62-65).
"door" and "hatchway" name what the part is, for the killzone actions (Door Fight, Operate Hatch);
a hatchway's types follow its status (closed: Heavy and Wall; open: Accessible, Insignificant and
Exposed, pg 69)."""
Killzone = Literal["open", "volkus", "gallowdark", "bheta-decima"]
"""Which killzone's own rules apply: "open" is one of your own creation (pg 56)."""

Inches = Annotated[float, msgspec.Meta(description="inches")]


class Rect(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A rectangle: its top-left corner, its size, turned by `angle` degrees clockwise about its centre."""

    x: Inches
    y: Inches
    width: Inches
    depth: Inches
    angle: Annotated[float, msgspec.Meta(description="degrees clockwise about its centre")] = 0.0


Point = tuple[float, float]


class Part(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One part of a terrain feature (pg 58: a feature is composed of parts, each of one or more
    types): its footprint (a `rect` or a `polygon`), from `bottom` up to `height`."""

    name: str
    traits: Annotated[list[Trait], msgspec.Meta(description='its terrain types, e.g. ["heavy"] or ["vantage"] (Vantage is also Light, pg 60)')]
    height: Annotated[float, msgspec.Meta(description="the top of the part, inches above the killzone floor")]
    bottom: Annotated[float, msgspec.Meta(description="where the part starts: 0 on the floor; a gantry's floor, say, starts higher")] = 0.0
    rect: Rect | None = None
    polygon: Annotated[list[Point] | None, msgspec.Meta(description="corners in order, [[x, y], ...]")] = None


class Feature(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A terrain feature: its parts are connected (Vantage's third rule, pg 60)."""

    name: str
    parts: list[Part]


class DropZone(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A drop zone (pg 108): operatives are set up wholly within it (pg 110)."""

    name: str
    rect: Rect | None = None
    polygon: list[Point] | None = None


class Objective(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An objective marker's centre (40mm across, on the killzone floor, pg 52 and 110)."""

    name: str
    x: Inches
    y: Inches


class Layout(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A killzone: the board, its terrain, drop zones and objective markers (docs/the-board.md)."""

    name: str
    width: Inches = BOARD_WIDTH
    depth: Inches = BOARD_DEPTH
    killzone: Killzone = "open"
    illustrative: Annotated[bool, msgspec.Meta(description="an example shipped with ktlog, not any published map")] = False
    note: str | None = None
    drop_zones: list[DropZone] = []
    objectives: list[Objective] = []
    terrain: list[Feature] = []


_ENCODER = msgspec.json.Encoder(order="deterministic")


def canonical(layout: Layout) -> bytes:
    """The layout's canonical bytes: compact JSON, every field in its order and every number a
    float, so two files that say the same thing (comments, spacing, 3 or 3.0) give the same bytes."""
    return _ENCODER.encode(layout)


def layout_hash(layout: Layout) -> str:
    """The SHA-256 of the canonical bytes, hex: what a game's creation can carry."""
    return hashlib.sha256(canonical(layout)).hexdigest()
