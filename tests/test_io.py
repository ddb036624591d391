"""linkkit.io's chunked decoding: whatever the chunk size, the text of a one-shot ``surrogateescape`` decode, and
the count and first line and column of the bytes that did not decode (PEP 383)."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linkkit import io as linkkit_io
from linkkit import whatwg
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
        # the same read as the Encoding Standard reads windows-1252 (linkkit.whatwg): 0x81 is U+0081
        (b"caf\xe9 \x81 \x92", "whatwg-cp1252", 0, (0, 0)),
        # windows-874's 0xDB is undefined in the standard's index too
        (b"a\n\xa1 \xdb", "whatwg-cp874", 1, (2, 3)),
    ],
)
def test_a_byte_that_does_not_decode_is_kept_and_placed(
    data: bytes, codec: str, count: int, place: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    for chunk_size in (1, 2, 3, len(data)):
        text, undecodable = _decoded(data, codec, chunk_size, monkeypatch)
        assert text == data.decode(codec, ERRORS)
        assert (undecodable.count, (undecodable.line, undecodable.column)) == (count, place)


@pytest.mark.parametrize(
    ("label", "codec"),
    [("windows-1252", "whatwg-cp1252"), ("CP1250", "whatwg-cp1250"), ("windows-874", "whatwg-cp874"),
     ("latin-1", "iso8859-1"), ("utf-8-sig", "utf-8"), ("UTF-16", "utf-16-le")],
)
def test_a_label_names_the_codec_a_text_is_read_with(label: str, codec: str) -> None:
    assert linkkit_io.text_codec(Input("t.txt", None), label) == codec


@pytest.mark.parametrize("codec", sorted(whatwg.WINDOWS))
def test_a_windows_codec_reads_as_the_encoding_standard_and_writes_each_byte_back(codec: str) -> None:
    """The Encoding Standard's index of each windows-* encoding: Python's codec, but the bytes 0x80-0x9F it leaves
    undefined are the C1 controls of the same number; every byte the index defines is written back as itself."""
    for byte in range(256):
        data = bytes([byte])
        try:
            python = data.decode(codec)
        except UnicodeDecodeError:
            python = None
        try:
            ours = data.decode(whatwg.codec_name(codec))
        except UnicodeDecodeError:
            ours = None
        assert ours == (python if python is not None or not 0x80 <= byte < 0xA0 else chr(byte))
        if ours is not None:
            assert ours.encode(whatwg.codec_name(codec)) == data


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


@pytest.mark.parametrize(
    ("name", "temporary"),
    [
        (linkkit_io.temporary_path(Path("site/a.html"), 4242).name, True),
        (".a.html.linkkit-tmp-7", True),
        ("a.html", False),
        (".a.html", False),
        (".a.html.linkkit-tmp-", False),  # no process id
        (".a.html.linkkit-tmp-12x", False),
        (".a.html.linkkit-tmp-\u00b2", False),  # a digit, but no ASCII one: no process id
        ("a.html.linkkit-tmp-12", False),  # no leading dot: not a name temporary_path gives
        (".linkkit-tmp-12", False),  # no file's name before the mark
    ],
)
def test_a_temporary_file_is_told_by_its_name(name: str, temporary: bool) -> None:
    assert linkkit_io.is_temporary(name) is temporary


@pytest.mark.parametrize(
    ("message", "written"),
    [
        ("linkkit: error: caf\udce9.txt: No such file or directory\n",  # a name that is not UTF-8 (PEP 383)
         b"linkkit: error: caf\xe9.txt: No such file or directory\n"),
        ("linkkit: a.txt: warning: \u00e9\n", "linkkit: a.txt: warning: \u00e9\n".encode()),
        ("lone \ud800\n", b"lone \\ud800\n"),  # a surrogate no name holds: as the stream writes it
    ],
)
def test_a_message_writes_the_bytes_of_a_name_that_did_not_decode_as_themselves(message: str, written: bytes) -> None:
    """As grep writes such a name: neither an escape nor a replacement character (the bytes a TSV row holds)."""
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="utf-8", errors="backslashreplace")
    linkkit_io.Messages(stream).write("first\n")
    linkkit_io.Messages(stream).write(message)
    assert raw.getvalue() == b"first\n" + written


def test_a_run_ended_as_the_temporary_file_is_made_leaves_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A signal raised right after the open that makes the temporary file returns (a run ended by SIGTERM) removes
    it as any other end does: the next run of -r would read it as an input."""
    path = tmp_path / "a.html"
    path.write_bytes(b"<a href=x>")
    opened = os.open

    def open_then_ended(*arguments: object) -> int:
        opened(*arguments)  # type: ignore[arg-type]
        raise KeyboardInterrupt

    monkeypatch.setattr(linkkit_io.os, "open", open_then_ended)
    with pytest.raises(KeyboardInterrupt), linkkit_io.replacing(path, False) as target:
        target.output.write(b"<a href=y>")
    monkeypatch.undo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.html"]
    assert path.read_bytes() == b"<a href=x>"
