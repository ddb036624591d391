"""Every found link is shaped like :class:`re.Match` (issue 3: "Reference behaves like re.Match"): each method and
attribute a pattern without sub-groups gives, compared with a real ``re.Match`` of the same characters."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

import linkkit
from linkkit import html, mail

TEXT = 'Yes, Jim, see "http://www.w3.org/Addressing/" or <URL:ftp://ds.internic.\n net/rfc/>, www.example.org.'
PAGE = '<p><a href="/a?x=1&amp;y=2">a</a> <img srcset="b.png 1x, c.png 2x"></p>'
MESSAGE = (b"From: a@example.org\r\nContent-Type: text/plain\r\n\r\nsee <http://a.example/b> and "
           b"(https://c.example/d).\r\n")


def _found() -> Iterator[tuple[str, object]]:
    for reference in linkkit.finditer(TEXT):
        yield "finditer", reference
    yield from (("html", link) for link in html.links(PAGE, base_url="http://h.example/"))
    yield from (("mail", link) for link in mail.links(MESSAGE))


FOUND = list(_found())


def _match_of(string: str, span: tuple[int, int]) -> re.Match[str]:
    """The ``re.Match`` a pattern without sub-groups gives for exactly *span* of *string*, scanned whole."""
    pattern = re.compile(re.escape(string[span[0] : span[1]]))
    return next(match for match in pattern.finditer(string) if match.span() == span)


def test_the_kinds_of_link_are_all_here() -> None:
    assert sorted({kind for kind, _ in FOUND}) == ["finditer", "html", "mail"]
    assert len(FOUND) == 3 + 3 + 2


@pytest.mark.parametrize("reference", [ref for kind, ref in FOUND if kind == "finditer"], ids=repr)
def test_a_reference_answers_as_the_match_of_its_span(reference: linkkit.Reference) -> None:
    match = _match_of(TEXT, reference.span())
    assert reference.string is match.string
    for name in ("span", "start", "end", "group", "groups", "groupdict"):
        assert getattr(reference, name)() == getattr(match, name)(), name
    for name in ("pos", "endpos", "lastindex", "lastgroup", "regs"):
        assert getattr(reference, name) == getattr(match, name), name
    assert reference.group(0) == reference[0] == match[0]
    assert reference.group(0, 0) == match.group(0, 0)
    assert (reference.span(0), reference.start(0), reference.end(0)) == (match.span(0), match.start(0), match.end(0))


@pytest.mark.parametrize(("kind", "link"), FOUND, ids=[f"{kind}-{index}" for index, (kind, _) in enumerate(FOUND)])
def test_every_link_has_group_zero_alone(kind: str, link: linkkit.link.GroupZero) -> None:
    match = re.fullmatch(re.escape(link.raw), link.raw)
    assert match is not None
    assert link.group() == link.group(0) == link[0] == link.raw == match.group()
    assert link.group(0, 0, 0) == match.group(0, 0, 0)
    assert (link.groups(), link.groupdict(), link.lastindex, link.lastgroup) == (
        match.groups(), match.groupdict(), match.lastindex, match.lastgroup)
    assert link.regs == (link.span(),)
    for group in (1, -1, "uri"):
        with pytest.raises(IndexError):
            match.group(group)
        with pytest.raises(IndexError):
            link.group(group)  # type: ignore[call-overload]
        with pytest.raises(IndexError):
            link.group(0, group)  # type: ignore[call-overload]


@pytest.mark.parametrize(("kind", "link"), FOUND, ids=[f"{kind}-{index}" for index, (kind, _) in enumerate(FOUND)])
def test_a_link_is_no_sequence_as_a_match_is_none(kind: str, link: linkkit.link.GroupZero) -> None:
    """``link[0]`` is group 0, not an item: iterating a link is a TypeError, as iterating a re.Match is (Python's
    old protocol iterated it through __getitem__: list(ref) gave [ref.raw], and "x" in ref searched it)."""
    match = re.fullmatch(re.escape(link.raw), link.raw)
    assert match is not None
    for found in (match, link):
        with pytest.raises(TypeError, match="not iterable"):
            iter(found)
        with pytest.raises(TypeError):
            _ = link.raw in found  # type: ignore[operator]


def test_a_streamed_reference_scanned_from_its_offset() -> None:
    """A stream's reference holds only its own delimited text (``string``), from ``offset``: the scan of that
    text began there (``pos``) and ends just past it (``endpos``), in the stream's absolute offsets."""
    import io

    streamed = list(linkkit.finditer_stream(io.StringIO(TEXT)))
    assert streamed == list(linkkit.finditer(TEXT))
    for reference in streamed:
        assert (reference.pos, reference.endpos) == reference.outer_span() == (
            reference.offset, reference.offset + len(reference.string))


# One reference of each shape a Reference holds: wrapped after a hyphen (alternatives), abbreviated, an e-mail, a URN,
# defanged (refang=True), cut at max_length (truncated), and each again from a stream (its own string and offset).
SHAPES_TEXT = ("see <http://a.example/x-\n y>, www.b.example, me@c.example, urn:ex:a, hxxp://evil[.]example/ and "
               "http://d.example/" + "p" * 40)


def _shapes() -> list[linkkit.Reference]:
    import io

    found = [*linkkit.finditer(SHAPES_TEXT, emails=True), *linkkit.finditer(SHAPES_TEXT, refang=True),
             *linkkit.finditer(SHAPES_TEXT, max_length=30)]
    found += linkkit.finditer_stream(io.StringIO(SHAPES_TEXT), chunk_size=16, emails=True)
    return found


SHAPES = _shapes()
PUBLIC = ("string", "offset", "pos", "endpos", "raw", "uri", "unwrapped", "delimiter", "kind", "alternatives",
          "truncated", "outer_start", "outer_end", "where", "base")


def _answers(reference: linkkit.Reference) -> tuple[object, ...]:
    """Everything a Reference answers, its methods' results included."""
    return (*(getattr(reference, name) for name in PUBLIC), reference.span(), reference.outer_span(),
            reference.group(), reference.regs, repr(reference))


def test_the_shapes_are_all_here() -> None:
    assert {reference.kind for reference in SHAPES} == {"uri", "urn", "abbreviated", "email"}
    assert any(reference.alternatives for reference in SHAPES) and any(reference.truncated for reference in SHAPES)
    assert any(reference.offset for reference in SHAPES) and any(reference.uri != reference.raw for reference in SHAPES)


@pytest.mark.parametrize("reference", SHAPES, ids=repr)
def test_a_reference_is_a_value_that_pickles_and_copies(reference: linkkit.Reference) -> None:
    """A batch sends references across processes (re.Match does not pickle): each comes back answering the same,
    equal and with the same hash; copies are equal values too."""
    import copy
    import pickle

    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(reference, protocol))
        assert type(again) is linkkit.Reference and _answers(again) == _answers(reference), protocol
        assert again == reference and hash(again) == hash(reference)
    for copied in (copy.copy(reference), copy.deepcopy(reference)):
        assert copied == reference and _answers(copied) == _answers(reference)


@pytest.mark.parametrize("name", [*PUBLIC, "flags", "other"])
def test_a_reference_cannot_be_changed(name: str) -> None:
    reference = SHAPES[0]
    with pytest.raises(AttributeError, match="immutable"):
        setattr(reference, name, "x")
    with pytest.raises(AttributeError, match="immutable"):
        delattr(reference, name)
    assert not hasattr(reference, "__dict__")


def test_where_the_api_differs_from_re_on_purpose() -> None:
    """The differences the README lists: no pattern, so no pos, endpos or flags; a negative count refused (re.sub
    replaces nothing); a string repl written as it is (re.sub would expand \\g<0>); no .re nor .expand()."""
    text = "see http://a.example/b and http://c.example/"
    assert re.sub(r"http\S+", "X", text, count=-1) == text
    with pytest.raises(ValueError, match="count must be at least 0"):
        linkkit.sub("X", text, count=-1)
    assert re.sub(r"http\S+", r"<\g<0>>", text) == "see <http://a.example/b> and <http://c.example/>"
    assert linkkit.sub(r"<\g<0>>", text) == r"see <\g<0>> and <\g<0>>"
    assert linkkit.sub(lambda ref: f"<{ref.uri}>", text) == "see <http://a.example/b> and <http://c.example/>"
    for options in ({"pos": 4}, {"endpos": 10}, {"flags": re.I}):
        with pytest.raises(TypeError):
            linkkit.findall(text, **options)  # type: ignore[arg-type]
    reference = next(linkkit.finditer(text))
    assert not hasattr(reference, "re") and not hasattr(reference, "expand")
