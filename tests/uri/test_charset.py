"""The character classes of RFC 3986 section 2, checked through what linkkit decides with them: which characters
percent-encoding keeps, which triplets normalization decodes, and where validation accepts a character. One row per
character in tests/fixtures/uri/charset.txt."""

from __future__ import annotations

import re
from types import ModuleType
from typing import NamedTuple

import pytest
import regex
from fixtures_loader import load_table

import linkkit
from linkkit.uri import charset
from linkkit.uri.percent import percent_encode


class Row(NamedTuple):
    char: str
    percent_encode: str
    normalize: str
    query: str
    path: str
    after_host: str
    userinfo: str


def _char(text: str) -> str:
    return re.sub(r"\\u([0-9A-F]{4})", lambda m: chr(int(m.group(1), 16)), text)


ROWS = [Row(_char(row[0]), *row[1:]) for row in load_table("uri/charset.txt")]
IDS = [f"U+{ord(row.char):04X}" for row in ROWS]

# Where each validity column puts the character, and the rule the whole string is checked against.
CONTEXTS = {
    "query": ("?a{}", "relative-ref"),
    "path": ("a/b{}", "relative-ref"),
    "after_host": ("http://h{}", "URI"),
    "userinfo": ("http://u{}x@h", "URI"),
}


def test_the_table_covers_every_unreserved_and_reserved_class() -> None:
    chars = {row.char for row in ROWS}
    assert set(":/?#[]@!$&'()*+,;=") <= chars
    assert {"a", "Z", "0", "9", "-", ".", "_", "~"} <= chars


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_percent_encoding_keeps_exactly_the_unreserved_characters(row: Row) -> None:
    # RFC 3986 2.1, 2.3: unreserved characters need no encoding; everything else is encoded as data
    assert ("kept" if percent_encode(row.char) == row.char else "encoded") == row.percent_encode


@pytest.mark.parametrize("row", [row for row in ROWS if row.normalize != "-"], ids=lambda row: f"U+{ord(row.char):04X}")
def test_normalization_decodes_exactly_the_triplets_of_unreserved_characters(row: Row) -> None:
    # RFC 3986 6.2.2.2: a pct-encoded unreserved character is decoded; a reserved one keeps its meaning encoded
    triplet = f"%{ord(row.char):02X}"
    expected = row.char if row.normalize == "decoded" else triplet
    assert linkkit.normalize(f"http://h/x{triplet.lower()}y") == f"http://h/x{expected}y"


@pytest.mark.parametrize("context", sorted(CONTEXTS))
@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_validation_accepts_a_character_only_where_its_class_is_allowed(row: Row, context: str) -> None:
    template, rule = CONTEXTS[context]
    text = template.format(row.char)
    assert ("valid" if linkkit.is_valid(text, rule=rule) else "invalid") == getattr(row, context), text
    # validate() agrees with is_valid() (the diagnosis and the fast path share the classes)
    assert (linkkit.validate(text, rule=rule) == ()) == linkkit.is_valid(text, rule=rule)


@pytest.mark.parametrize("name", ["ALPHA", "DIGIT", "HEXDIG", "UNRESERVED", "SCHEME_CHARS", "PCHAR", "URI_CHARS"])
@pytest.mark.parametrize("engine", [re, regex])
@pytest.mark.parametrize("caseless", [False, True])
def test_a_class_written_with_ranges_holds_the_characters_it_would_enumerate(
    name: str, engine: ModuleType, caseless: bool
) -> None:
    chars = getattr(charset, name)
    flags = engine.IGNORECASE if caseless else 0
    ranged = engine.compile(charset.char_class(chars), flags)
    enumerated = engine.compile("[" + "".join(re.escape(c) for c in chars) + "]", flags)
    complement = engine.compile(charset.complement_class(chars), flags)
    inside = {c for c in map(chr, range(0x3000)) if enumerated.fullmatch(c)}  # with caseless: "K" (U+212A)...
    assert {c for c in map(chr, range(0x3000)) if ranged.fullmatch(c)} == inside
    assert {c for c in map(chr, range(0x3000)) if not complement.fullmatch(c)} == inside
