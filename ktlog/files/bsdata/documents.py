"""A roster or catalogue file -> its XML element tree, read safely.

BattleScribe files are XML (`.ros`, `.cat`, `.gst`), or the same XML zipped (`.rosz`, `.catz`,
`.gstz`); New Recruit exports the same tree as JSON (`{"roster": {"forces": [...]}}`), which is
turned into elements here so one reader serves both. XML is parsed with defusedxml: a file that
declares entities (an external entity, a "billion laughs" expansion) is refused. Tags come
without their namespace (`roster`, `selection`, `profile` ...).
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from xml.etree.ElementTree import Element, ParseError, SubElement

import defusedxml
import defusedxml.ElementTree

from ...errors import KtlogError, RosterError
from ..inputs import ROSTER_LIMIT, read_limited

MAX_BYTES = ROSTER_LIMIT
"""The largest file, or zip member, read (20 MB)."""

_ZIPPED = {".rosz": ".ros", ".catz": ".cat", ".gstz": ".gst"}
_EXPORT = "export it again from BattleScribe or New Recruit"


def read_document(path: Path) -> Element:
    """The file's top element (`roster`, `catalogue` or `gameSystem`), namespaces removed."""
    data = _read_bytes(path)
    if path.suffix.lower() == ".json":
        return _from_json(data, path)
    root = _from_xml(data, path)
    for element in root.iter():
        if element.tag.startswith("{"):
            element.tag = element.tag.partition("}")[2]
    return root


def _read_bytes(path: Path) -> bytes:
    """The file's bytes (a zip's one BattleScribe file unzipped): only a regular file, within MAX_BYTES."""
    try:
        data = read_limited(path, "a roster or catalogue", MAX_BYTES)
    except KtlogError as exc:
        raise RosterError(str(exc)) from exc
    except OSError as exc:
        raise RosterError(f"{path}: cannot read it: {exc.strerror}") from exc
    if path.suffix.lower() in _ZIPPED or data[:4] == b"PK\x03\x04":
        return _unzip(data, path)
    return data


def _unzip(data: bytes, path: Path) -> bytes:
    """The one BattleScribe file inside a zip (`.rosz` holds a `.ros`, and so on)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as exc:
        raise RosterError(f"{path}: not a zip file, though a {path.suffix} file is a zipped BattleScribe file; {_EXPORT}") from exc
    with archive:
        members = [m for m in archive.infolist() if Path(m.filename).suffix.lower() in (".ros", ".cat", ".gst") and not m.is_dir()]
        if len(members) != 1:
            held = ", ".join(m.filename for m in archive.infolist()) or "nothing"
            raise RosterError(f"{path}: not a BattleScribe zip: it should hold one .ros, .cat or .gst file, and it holds {held}")
        member = members[0]
        if member.file_size > MAX_BYTES:
            raise RosterError(f"{path}: {member.filename} unzips to {member.file_size / 2**20:.1f} MB, over the {MAX_BYTES // 2**20} MB limit")
        try:
            with archive.open(member) as f:
                content = f.read(MAX_BYTES + 1)
        except (zipfile.BadZipFile, OSError, RuntimeError) as exc:  # RuntimeError: an encrypted member
            raise RosterError(f"{path}: cannot unzip {member.filename}: {exc}; {_EXPORT}") from exc
    if len(content) > MAX_BYTES:
        raise RosterError(f"{path}: {member.filename} unzips to more than the {MAX_BYTES // 2**20} MB limit")
    return content


def _from_xml(data: bytes, path: Path) -> Element:
    try:
        return defusedxml.ElementTree.fromstring(data)
    except defusedxml.DefusedXmlException as exc:
        raise RosterError(
            f"{path}: refused: the XML declares entities or external references ({exc}), which a BattleScribe file never does; {_EXPORT}"
        ) from exc
    except ParseError as exc:
        raise RosterError(f"{path}: not a BattleScribe XML file ({exc}); {_EXPORT}") from exc


def _from_json(data: bytes, path: Path) -> Element:
    try:
        document = json.loads(data)
    except UnicodeDecodeError as exc:
        raise RosterError(f"{path}: not a JSON file (it is not UTF-8 text); {_EXPORT}") from exc
    except json.JSONDecodeError as exc:
        raise RosterError(f"{path}: not a JSON file (line {exc.lineno}, column {exc.colno}: {exc.msg}); {_EXPORT}") from exc
    except RecursionError as exc:
        raise RosterError(f"{path}: the JSON is nested too deeply to be a roster export") from exc
    if not isinstance(document, dict) or not isinstance(document.get("roster"), dict):
        raise RosterError(f'{path}: not a New Recruit roster export: it has no "roster" object at the top; {_EXPORT} as JSON')
    return _element("roster", document["roster"])


def _element(tag: str, value: dict) -> Element:
    """A JSON object as the element BattleScribe XML has: scalars are attributes, `$text` the
    text, a list `selections` an element `selections` holding `selection` elements."""
    element = Element(tag)
    for key, item in value.items():
        if key in ("$text", "#text", "_text"):
            element.text = str(item)
        elif isinstance(item, list):
            group = SubElement(element, key)
            single = key[:-3] + "y" if key.endswith("ies") else key.removesuffix("s")
            group.extend(_element(single, child) for child in item if isinstance(child, dict))
        elif isinstance(item, dict):
            element.append(_element(key, item))
        elif isinstance(item, bool):
            element.set(key, "true" if item else "false")
        elif item is not None:
            element.set(key, str(item))
    return element
