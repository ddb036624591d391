"""The output lines written straight from links (plain, jsonl) are byte for byte the lines of their records: the
one schema is record()'s, whatever the strings hold (quotation marks, backslashes, control characters, lone
surrogates, non-ASCII)."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import linkkit
from linkkit.batch.formats import LINE, json_line, json_lines, link_lines
from linkkit.html import Link
from linkkit.link import record

# Characters each escaping rule is about: JSON's escapes, DEL and C1 (not escaped), undecodable bytes as PEP 383
# surrogates, another lone surrogate, non-ASCII, the line separators plain output percent-encodes.
ODD = '"\\\x00\x01\n\r\t\x1f\x7f\x85\udc80\udcff\ud800\u00e9\u20ac\u2028\U0001f600'
PLAIN = "a/:. "
odd_text = st.one_of(
    st.sampled_from(ODD).flatmap(lambda odd: st.text(alphabet=PLAIN + odd, max_size=12)),  # one rule at a time
    st.text(alphabet=PLAIN + ODD, max_size=12),
    st.text(alphabet=st.characters(codec=None, categories=None), max_size=12),  # surrogates included
)
plain_text = st.text(alphabet=PLAIN + "\u00e9\u20ac", max_size=12)
number = st.one_of(st.integers(min_value=0, max_value=10**12), st.none())
extras = st.dictionaries(st.sampled_from(["offset", "message", "record_id", "target_uri", "odd\"key"]),
                         st.one_of(odd_text, number), max_size=4)
# The strings of a line: the input's name, and the link's tag and attribute (its where), raw, uri and base.
FIELDS = ("input", "tag", "attr", "raw", "uri", "base")


@st.composite
def fields(draw: st.DrawFn, odd: frozenset[str]) -> dict[str, Any]:
    """The strings of a line, those named in *odd* drawn from odd text and the others plain: one odd string among
    plain ones is what takes the direct way, or not, on its own account."""
    values: dict[str, Any] = {name: draw(odd_text if name in odd else plain_text) for name in FIELDS}
    for name in ("attr", "base"):
        if draw(st.booleans()):
            values[name] = None
    start = draw(st.integers(min_value=0, max_value=10**9))
    values["span"] = (start, start + draw(st.integers(min_value=0, max_value=10**6)))
    return values


odd_fields = st.one_of(st.sampled_from(FIELDS).map(lambda name: frozenset({name})), st.just(frozenset(FIELDS)))


# The link attributes a finder adds to its records after the extra fields (an HTML link's tag and attr).
attributes = st.sampled_from([(), ("tag",), ("tag", "attr"), ("attr", "tag")])


@given(odd_fields.flatmap(fields), st.sampled_from(["character", "byte"]), extras, number, number, attributes)
def test_a_json_line_written_from_the_link_is_its_records_line(
    values: dict[str, Any], unit: Any, extra: dict[str, Any], line: int | None, column: int | None,
    attributes: tuple[str, ...],
) -> None:
    link = _link(values)
    own = {name: getattr(link, name) for name in attributes}
    expected = json_line(record(link, input=values["input"], line=line, column=column, unit=unit, **extra, **own))
    assert json_lines(values["input"], unit, extra, attributes)(link, line, column) == expected


def _link(values: dict[str, Any]) -> Link:
    return Link(values["tag"], values["attr"], values["raw"], values["uri"], values["span"], values["base"])


@pytest.mark.parametrize("odd", list(ODD))
@pytest.mark.parametrize("name", FIELDS)
def test_each_odd_character_in_each_string_gives_the_records_json_line(name: str, odd: str) -> None:
    values: dict[str, Any] = {"input": "in.html", "tag": "a", "attr": "href", "raw": "x", "uri": "http://e/x",
                              "base": "http://e/", "span": (3, 4)}
    values[name] = f"a{odd}b{odd}"
    link = _link(values)
    expected = json_line(record(link, input=values["input"], line=2, column=7, unit="byte", offset=9))
    assert json_lines(values["input"], "byte", {"offset": 9})(link, 2, 7) == expected


@given(odd_fields.flatmap(fields))
def test_a_plain_line_written_from_the_link_is_its_records_line(values: dict[str, Any]) -> None:
    link = _link(values)
    write = link_lines("plain", values["input"], "byte", {})
    assert write is not None
    assert write(link, None, None) == LINE["plain"](record(link, input=values["input"]))


@given(st.text(alphabet=ODD + "<>()[].www.example.org http://x", max_size=80))
def test_the_json_lines_of_text_references_are_their_records_lines(text: str) -> None:
    write = json_lines("notes.txt", "character", {"offset": 3})
    for ref in linkkit.finditer(text):
        expected = json_line(record(ref, input="notes.txt", line=1, column=ref.start() + 1, offset=3))
        assert write(ref, 1, ref.start() + 1) == expected


def test_extra_fields_that_would_replace_the_records_own_are_refused_as_record_refuses_them() -> None:
    link = Link("a", "href", "x", "http://e.example/x", (0, 1), None)
    write = json_lines("page.html", "byte", {"uri": "other"})
    with pytest.raises(ValueError, match="uri"):
        write(link, 1, 1)


def test_every_character_a_plain_line_percent_encodes_is_unprintable() -> None:
    # plain_line returns a printable URI as it is, without its search: sound only while this holds
    from linkkit.batch.formats import _LINE_BREAKING

    encoded = [chr(code) for code in range(sys.maxunicode + 1) if _LINE_BREAKING.match(chr(code))]
    assert len(encoded) == 0x20 + 0x21 + 2  # C0, DEL and C1, the line and paragraph separators
    assert not any(character.isprintable() for character in encoded)
