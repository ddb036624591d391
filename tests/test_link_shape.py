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


def test_a_streamed_reference_scanned_from_its_offset() -> None:
    """A stream's reference holds only its own delimited text (``string``), from ``offset``: the scan of that
    text began there (``pos``) and ends just past it (``endpos``), in the stream's absolute offsets."""
    import io

    streamed = list(linkkit.finditer_stream(io.StringIO(TEXT)))
    assert streamed == list(linkkit.finditer(TEXT))
    for reference in streamed:
        assert (reference.pos, reference.endpos) == reference.outer_span() == (
            reference.offset, reference.offset + len(reference.string))
