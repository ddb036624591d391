"""Invariants of the plain-text scanner, for any text: it never raises, spans point into the text, an identity
rewrite is byte-identical, and a stream read in chunks of any size finds what the whole text finds."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import linkkit
from linkkit.text import scan
from linkkit.text.scan import _URN_LOOKAHEAD
from linkkit.text.stream import finditer_stream
from linkkit.uri.urn import URNError, parse_urn

# Pieces that make the scanner's decisions: triggers, delimiters, wraps, prose punctuation, IRI letters.
PIECES = [
    "http://", "HTTP:", "ftp:", "urn:isbn:", "urn:example:", "mailto:", "foo://", "www.", "ftp.", "URL:", "url: ",
    "<", ">", "(", ")", "[", "]", "](", '"', "'", "「", "」", "（", "）", "。", "，", "-", "-\n", "\n", "\r\n", " ",
    "\t", ".", ",", ":", "?", "!", ";", "@", "a", "b.c", "example.org", "/", "#", "%", "&amp;", "é", "中", "\u00a0",
    "10:30", "e.g.", "x@y.z", "a@", "b" * 30, "-\n  ", "<URL:\n", ".com", "\n> ", "> > ",
    "·", "・", "😀", "\u200b", "\u200f",
]
texts = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=3)), max_size=60).map("".join)
options = st.fixed_dictionaries({"abbreviated": st.booleans(), "emails": st.booleans()})


@given(st.text(alphabet=st.characters(blacklist_categories=())), options)
def test_the_scanner_never_raises_on_any_text(text: str, opts: dict[str, bool]) -> None:
    for ref in linkkit.finditer(text, **opts):
        assert isinstance(ref.uri, str) and ref.kind in ("uri", "urn", "abbreviated", "email")


@given(texts, options)
def test_spans_lie_inside_the_text_and_hold_the_raw_reference(text: str, opts: dict[str, bool]) -> None:
    previous_end = 0
    for ref in linkkit.finditer(text, **opts):
        outer_start, outer_end = ref.outer_span()
        assert 0 <= outer_start <= ref.start() < ref.end() <= outer_end <= len(text)
        assert ref.start() >= previous_end
        assert text[ref.start() : ref.end()] == ref.raw == ref.group()
        assert ref.uri and not any(char.isspace() for char in ref.uri)
        previous_end = ref.end()


@given(texts, options)
def test_identity_sub_returns_the_input(text: str, opts: dict[str, bool]) -> None:
    assert linkkit.sub(lambda ref: ref.raw, text, **opts) == text


@given(texts, options)
def test_sub_changes_only_the_spans(text: str, opts: dict[str, bool]) -> None:
    spans = [ref.span() for ref in linkkit.finditer(text, **opts)]
    rewritten, count = linkkit.subn("\x00", text, **opts)
    assert count == len(spans)
    gaps = zip([(0, 0), *spans], [*spans, (len(text), 0)], strict=True)
    kept = "".join(text[end:start] for (_, end), (start, _) in gaps)
    assert rewritten.replace("\x00", "") == kept.replace("\x00", "")


@given(texts, options, st.lists(st.integers(min_value=1, max_value=40), min_size=1, max_size=8))
def test_a_stream_in_chunks_finds_what_the_whole_text_finds(
    text: str, opts: dict[str, bool], sizes: list[int]
) -> None:
    chunks, index = [], 0
    while index < len(text):
        size = sizes[len(chunks) % len(sizes)]
        chunks.append(text[index : index + size])
        index += size
    streamed = list(finditer_stream(chunks, chunk_size=sizes[0], **opts))
    assert streamed == list(linkkit.finditer(text, **opts))
    assert all(text[ref.start() : ref.end()] == ref.raw for ref in streamed)
    # each streamed reference holds its own delimited text, whichever rule built it
    assert all(ref.string == text[slice(*ref.outer_span())] and ref.offset == ref.outer_start for ref in streamed)


# The scanner rejects a long "urn:" candidate by its first characters (linkkit.scanner._scheme_rejected_early) on
# this property of parse_urn: it reads left to right, deciding at a position from at most two characters after it.
@given(
    st.text(alphabet="urn:ab%2F?+=#/[-x", max_size=20).map("urn:".__add__),
    st.text(alphabet="urn:ab%2F?+=#/[-x", max_size=6),
)
def test_a_urn_error_before_the_lookahead_stays_whatever_follows(beginning: str, rest: str) -> None:
    try:
        parse_urn(beginning)
    except URNError as error:
        if error.position <= len(beginning) - 1 - _URN_LOOKAHEAD:
            try:
                parse_urn(beginning + rest)
            except URNError as longer:
                assert longer.position == error.position
            else:
                raise AssertionError(f"{beginning + rest!r} parses, {beginning!r} failed at {error.position}")


# Long runs where one "urn:" follows another: the scanner judges the inner ones by the first one's run
# (scan._URNRun); forcing every candidate through the whole walk and is_urn must find exactly the same.
_URN_BODY = ["c/", "/urn:ab:c", "/urn:cd:", "x", "1", ".", "(c)", "(", "%41", "é", ","]
_URN_SPOILERS = ["?+", "?=", "#", "urn:ab:", "?", "[", "]", ")", "%4", "-", "<", ">", " ", "-\n", "的", ").", "/"]
_URN_PIECES = st.tuples(st.integers(0, 99), st.sampled_from(_URN_BODY), st.sampled_from(_URN_SPOILERS)).map(
    lambda piece: piece[1] if piece[0] < 96 else piece[2]  # mostly a valid NSS, now and then what spoils one
)


@given(st.lists(_URN_PIECES, min_size=100, max_size=300).map(lambda pieces: "urn:ab:" + "".join(pieces)))
def test_the_urn_run_memo_never_changes_what_is_found(text: str) -> None:
    found = [(r.span(), r.uri, r.kind) for r in linkkit.finditer(text)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(scan._URNRun, "fits", staticmethod(lambda text, extent: False))
        slow = [(r.span(), r.uri, r.kind) for r in linkkit.finditer(text)]
    assert found == slow


# The hot path's own edges besides PIECES, drawn as often as all of PIECES: the schemes it takes and those it leaves,
# what may delimit its references, runs around the window's length.
_HOT_PIECES = [
    "http://", "https://a.example/", "Http://", "file:///", "news:", "x+y://", "urn:a:", "1.http://", "e.g.http://",
    "irc6://", "URL:", "URL: ", "<", "<URL:", "< https://a.example/>", ">", "](", ")", "(a)", "[b]", '"', "'", "“",
    "”", "（", "< ", "<\n", "'https://a.example/x'", "“https://a.example/”", "a" * 120, "/" * 70, "...", "**", ",",
    "-", "&", "=", "~", "_", " ", "\n", "é", "Note:", "Re:x", "<mailto: ", "urn: ", ": ", " :", "\n:", ":/ /",
    "\u200e", "\u2066",  # a bidirectional control, perhaps between an opener and the reference
]
_hot_texts = st.lists(st.one_of(st.sampled_from(_HOT_PIECES), st.sampled_from(PIECES)), max_size=40).map("".join)
_max_lengths = st.sampled_from([1, 9, 40, 187, 1 << 20])


def _seen(refs: Iterable[linkkit.Reference]) -> list[tuple[object, ...]]:
    return [(r.span(), r.outer_span(), r.delimiter, r.kind, r.uri, r.alternatives, r.truncated) for r in refs]


@settings(max_examples=400)
@given(_hot_texts, st.booleans(), st.booleans(), _max_lengths)
@example("i.e.mailto:a@b.example", True, False, 1 << 20)  # the hot path's refusal of prose ("Note:x") leaves these
@example("<ht\n tp:x>", True, False, 1 << 20)
@example("1abc:x Note://a.example/ -mailto:a@b.example", True, False, 1 << 20)
@example("<http\n://a.example/> <x-app: //b> <x-app:/ /c> Note: //d", True, False, 1 << 20)  # whitespace around ":"
@example("(\u200ehttps://a.example/) x", True, False, 1 << 20)  # an opener before a bidirectional control
def test_the_hot_path_decides_as_the_general_path(text: str, abbreviated: bool, emails: bool, max_length: int) -> None:
    found = _seen(linkkit.finditer(text, abbreviated=abbreviated, emails=emails, max_length=max_length))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(scan, "_plain_uri", lambda *_: None)
        general = _seen(linkkit.finditer(text, abbreviated=abbreviated, emails=emails, max_length=max_length))
    assert found == general


# The "www." and "ftp." hot path's own edges: hosts of two and three labels in either case, labels around 63
# characters, hyphens at a label's edges, what may come before the trigger, and what may end the host.
_ABBREVIATED_PIECES = [
    "www.", "ftp.", "WWW.", "Ftp.", "wWw.", "www.a.example", "ftp.b.example/x", "www.a", ".b", ".c-d", "-", "-e.",
    "a" * 62, "b" * 63, "c" * 64, ":80", "/", "?q", "#f", "x.", "_", "@", "1", ". ", ", ", "!", "*", "'", ":", "(",
    ")", "]", "<", "URL:", "URL: ", "](", '"', "é", "\n", " ", "http://", "-\n",
]
_abbreviated_texts = st.lists(st.sampled_from(_ABBREVIATED_PIECES), max_size=16).map("".join)


@settings(max_examples=1000)
@given(_abbreviated_texts, st.booleans(), _max_lengths)
@example("URL:www.a.example", False, 1 << 20)
@example("< www.a.example>", False, 1 << 20)
@example("www." + "c" * 64 + ".b.example", False, 1 << 20)
@example("(www.a.example)", False, 9)
@example("www.a.example./x <www.b.example.> www.c.example.", False, 1 << 20)  # a root "." (RFC 1034 3.1)
def test_the_abbreviated_hot_path_decides_as_the_general_path(text: str, emails: bool, max_length: int) -> None:
    found = _seen(linkkit.finditer(text, emails=emails, max_length=max_length))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(scan, "_plain_abbreviated", lambda *_: None)
        general = _seen(linkkit.finditer(text, emails=emails, max_length=max_length))
    assert found == general
