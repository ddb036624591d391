"""linkkit.io's chunked decoding: whatever the chunk size, the text of a one-shot ``surrogateescape`` decode, and
the count and first line and column of the bytes that did not decode (PEP 383)."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linkkit import io as linkkit_io
from linkkit.errors import InputError
from linkkit.io import ERRORS, UNDECODED, Encoding, Input, Undecodable, decoded_chunks

# UTF-8 pieces: ASCII, newlines, two- three- and four-byte characters, and bytes no UTF-8 holds alone (a lone
# continuation byte, a lead byte cut short, an overlong form, an encoded surrogate).
PIECES = [b"a", b"http://x.example/ ", b"\n", "é".encode(), "行".encode(), "😀".encode(), b"\x80", b"\xe8\x80",
          b"\xc0\xaf", b"\xed\xa0\x80", b"\xff"]


def _decoded(data: bytes, codec: str, chunk_size: int, monkeypatch: pytest.MonkeyPatch) -> tuple[str, Undecodable]:
    monkeypatch.setattr(linkkit_io, "DECODE_SIZE", chunk_size)
    undecodable = Undecodable()
    source = Input("t.txt", None)
    stream = io.BytesIO(data)
    head = stream.read(chunk_size)
    text = "".join(decoded_chunks(source, Encoding(b"", codec), head, stream, undecodable))
    return text, undecodable


def _expected(data: bytes, codec: str) -> tuple[str, int, tuple[int, int]]:
    text = data.decode(codec, ERRORS)
    runs = [run.span() for run in UNDECODED.finditer(text)]
    if not runs:
        return text, 0, (0, 0)
    at = runs[0][0]
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    return text, sum(end - start for start, end in runs), (line, column)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40), st.integers(1, 9))
def test_chunks_decode_as_the_whole_and_count_what_did_not_decode(
    pieces: list[bytes], chunk_size: int
) -> None:
    data = b"".join(pieces)
    with pytest.MonkeyPatch.context() as monkeypatch:
        text, undecodable = _decoded(data, "utf-8", chunk_size, monkeypatch)
    expected, count, place = _expected(data, "utf-8")
    assert text == expected
    assert undecodable.count == count
    if count:
        assert (undecodable.line, undecodable.column) == place


@pytest.mark.parametrize(
    ("data", "codec", "count", "place"),
    [
        # a character cut by a chunk boundary, then a bad byte chunks later: strict decoding hands over to keeping
        ("é行\n".encode() + b"ok \xff!", "utf-8", 1, (2, 4)),
        # UTF-16 with a surrogate pair cut by chunk boundaries: nothing undecodable
        ("a\nb😀".encode("utf-16-le"), "utf-16-le", 0, (0, 0)),
        # windows-1252: a byte it leaves undefined (0x81) is kept; its decoder holds no bytes
        (b"caf\xe9 \x81 \x92", "cp1252", 1, (1, 6)),
    ],
)
def test_a_byte_that_does_not_decode_is_kept_and_placed(
    data: bytes, codec: str, count: int, place: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    for chunk_size in (1, 2, 3, len(data)):
        text, undecodable = _decoded(data, codec, chunk_size, monkeypatch)
        assert text == data.decode(codec, ERRORS)
        assert (undecodable.count, (undecodable.line, undecodable.column)) == (count, place)


def test_utf16_of_odd_length_is_an_error_naming_the_offset(monkeypatch: pytest.MonkeyPatch) -> None:
    data = "ab".encode("utf-16-le") + b"c"
    with pytest.raises(InputError, match=r"t\.txt: cannot decode byte 4 as utf-16-le"):
        _decoded(data, "utf-16-le", 2, monkeypatch)


@pytest.mark.parametrize("byte", range(256))
def test_html_starts_after_any_latin_1_space_and_after_nothing_else(byte: int) -> None:
    """An input starts as HTML after whitespace, its bytes read as Latin-1 (str.isspace, what the pattern's \\s
    takes): the test of the first byte that is not a space gives the pattern's answer for every byte."""
    assert linkkit_io.starts_as_html(bytes([byte]) + b"<html>") is chr(byte).isspace()
    assert linkkit_io.starts_as_html(bytes([byte]) + b"<!-- a -->\n<!DOCTYPE html>") is chr(byte).isspace()
