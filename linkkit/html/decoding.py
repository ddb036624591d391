"""Bytes in a legacy or multi-byte encoding decoded to text, with the input offset of each character: what lets
the tokenizer and the rewriter work on text and still point into the original bytes; and text encoded back."""

from __future__ import annotations

import codecs
import functools
import itertools

from .. import whatwg

_CHUNK = 4096


# The windows-* encodings as the Encoding Standard defines them (its index of each, which HTML's decoder uses):
# windows-1252's 0x81, 0x8D, 0x8F, 0x90 and 0x9D, windows-1251's 0x98 and the like, undefined in Python's codecs, are
# C1 controls. So a URL holding one (the 81 of a UTF-8 "Á", C3 81, in a page labelled iso-8859-1; the 98 of a
# UTF-8 "И", D0 98, in one labelled windows-1251) reads and is written back as that byte, not as U+FFFD.
WHATWG_TABLES = {codec: whatwg.table(codec) for codec in sorted(whatwg.WINDOWS)}
WINDOWS_1252 = WHATWG_TABLES["cp1252"]
_WHATWG_ENCODINGS = {codec: codecs.charmap_build(table) for codec, table in WHATWG_TABLES.items()}


# Shift_JIS as the Encoding Standard reads it (its index jis0208): Python's shift_jis (JIS X 0208, whose row 1 has
# U+301C WAVE DASH at 81 60), and the NEC and IBM extensions and the user-defined area only Python's cp932 reads
# (① is 87 40, 髙 FB FC). It is read as cp932 but for the six row-1 pairs where cp932 is not JIS, and the four
# single bytes the standard leaves undefined (A0, FD-FF, private-use characters in cp932), so that a URL holding ①
# is written back as its bytes, not as U+FFFD.
_SHIFT_JIS_ROW_1 = {pair: pair.decode("shift_jis") for pair in
                    (b"\x81\x60", b"\x81\x61", b"\x81\x7c", b"\x81\x91", b"\x81\x92", b"\x81\xca")}
_CP932_ONLY = frozenset(pair.decode("cp932") for pair in _SHIFT_JIS_ROW_1) | frozenset("\uf8f0\uf8f1\uf8f2\uf8f3")


# The codecs :func:`encoded` writes otherwise than Python's codec of that name.
OWN_CODECS = frozenset({*WHATWG_TABLES, "shift_jis"})


def encoded(text: str, codec: str, errors: str = "strict") -> bytes:
    """*text* in *codec*, a windows-* codec (:data:`WHATWG_TABLES`) and Shift_JIS as the Encoding Standard define
    them."""
    if codec not in OWN_CODECS:
        return text.encode(codec, errors)
    encoding = _WHATWG_ENCODINGS.get(codec)
    if encoding is not None:
        return codecs.charmap_encode(text, errors, encoding)[0]
    try:  # Shift_JIS, the one other of OWN_CODECS
        return text.encode(codec)
    except UnicodeEncodeError:
        return b"".join(_shift_jis_character(character, errors) for character in text)


def _shift_jis_character(character: str, errors: str) -> bytes:
    """A character in Shift_JIS: Python's shift_jis, else cp932 (① as 87 40) where that reads back as the same
    character, else as *errors* writes it."""
    try:
        return character.encode("shift_jis")
    except UnicodeEncodeError:
        if character not in _CP932_ONLY:
            try:
                return character.encode("cp932")
            except UnicodeEncodeError:
                pass
    return character.encode("shift_jis", errors)


def _as_shift_jis(text: str, starts: list[int], data: bytes) -> str:
    """*text*, decoded from *data* as cp932 (each character starting at *starts*), as Shift_JIS reads it."""
    if _CP932_ONLY.isdisjoint(text):
        return text
    return "".join(
        _shift_jis_reading(character, data[starts[index] : starts[index + 1]]) if character in _CP932_ONLY
        else character
        for index, character in enumerate(text)
    )


def _shift_jis_reading(character: str, written: bytes) -> str:
    """What Shift_JIS reads for the bytes cp932 read as *character*, one of :data:`_CP932_ONLY`."""
    if len(written) == 1:  # A0, FD-FF: cp932's private-use characters, undefined in the standard
        return "\ufffd"
    return _SHIFT_JIS_ROW_1.get(written, character)  # the IBM extensions' U+FFE2 is the standard's too


def _decoded(data: bytes, codec: str) -> tuple[str, list[int]]:
    """*data* decoded, with the offset in *data* where each character starts (and ``len(data)`` at the end).

    *codec*'s incremental decoder is fed a byte at a time, and each character gets the bytes it came from. The
    bytes that yield nothing (an escape sequence, a UTF-7 "+...-" run) belong to the character after them, unless
    the decoder is back in its initial state after them (a closing "ESC ( B" or "-"): then to the one before, so
    that at every boundary in the initial state new text, encoded from that state, can be spliced. From such a
    state a chunk whose characters are each encoded on their own (valid UTF-16, EBCDIC) is taken at once; a long
    silent run is fed in growing steps: linear. Never raises: bytes the codec rejects are U+FFFD. A windows-*
    codec is read by its table (:data:`WHATWG_TABLES`): one character a byte; Shift_JIS as cp932 is, but for what
    :func:`_as_shift_jis` reads otherwise.
    """
    table = WHATWG_TABLES.get(codec)
    if table is not None:
        return codecs.charmap_decode(data, "replace", table)[0], list(range(len(data) + 1))
    if codec == "shift_jis":  # as the Encoding Standard reads it (see _SHIFT_JIS_ROW_1)
        read, where = _decoded(data, "cp932")
        return _as_shift_jis(read, where, data), where
    if codec == "utf-8":  # the commonest: valid UTF-8 read at once, each character as long as its encoding
        try:
            read = data.decode("utf-8")
        except UnicodeDecodeError:
            pass
        else:
            return read, list(itertools.accumulate(map(len, map(str.encode, read)), initial=0))
    decoder = codecs.getincrementaldecoder(codec)("replace")
    initial = decoder.getstate()
    text: list[str] = []
    starts: list[int] = []
    boundary = position = next_chunk = 0
    step = 1
    while position < len(data):
        if boundary == position >= next_chunk:
            chunk = _decoded_at_once(data[position : position + _CHUNK], codec)
            if chunk is not None:
                text.append(chunk[0])
                starts.extend(position + at for at in chunk[1])
                position = boundary = position + chunk[2]
                continue
            next_chunk = position + _CHUNK
        stop = min(position + step, len(data))
        try:
            out = decoder.decode(data[position:stop], stop == len(data))
        except (ValueError, LookupError):  # a codec that allows no error handler but "strict" (idna, punycode)
            decoder.reset()
            out = "\ufffd"
        position = stop
        if out:
            starts.extend(_character_starts(out, data, boundary, position, codec))
            text.append(out)
            boundary, step = position, 1
        elif (state := decoder.getstate()) == initial:
            boundary = position
        elif len(state[0]) > 64:
            step *= 2
    starts.append(len(data))
    return "".join(text), starts


def decoded_text(data: bytes, codec: str) -> str | None:
    """The text :func:`_decoded` gives for *data*, when it can be had without the offsets: a windows-* codec's, or
    bytes that *codec* reads without error (Shift_JIS as cp932, when none of them reads otherwise, see
    _as_shift_jis); else None."""
    table = WHATWG_TABLES.get(codec)
    if table is not None:
        return codecs.charmap_decode(data, "replace", table)[0]
    if not _replaces(codec):
        return None
    try:
        text = data.decode("cp932" if codec == "shift_jis" else codec)
    except (ValueError, LookupError):  # UnicodeError, and codecs such as idna that raise otherwise
        return None
    return None if codec == "shift_jis" and not _CP932_ONLY.isdisjoint(text) else text


@functools.lru_cache(maxsize=64)
def _replaces(codec: str) -> bool:
    """Whether *codec*'s incremental decoder takes the "replace" handler, so that :func:`_decoded` reads valid bytes
    as the codec does (idna's allows "strict" only: _decoded reads its every byte as U+FFFD)."""
    try:
        codecs.getincrementaldecoder(codec)("replace").decode(b"\xff", True)
    except (ValueError, LookupError):
        return False
    return True


def _decoded_at_once(chunk: bytes, codec: str) -> tuple[str, list[int], int] | None:
    """*chunk* decoded, the offset where each character starts and the chunk's length, when each character is
    encoded on its own and the chunk's bytes are exactly those encodings; else None."""
    try:
        text = chunk.decode(codec)
        encoded = {character: character.encode(codec) for character in set(text)}
    except (ValueError, LookupError):  # UnicodeError, and codecs such as idna that raise otherwise
        return None
    if not text or b"".join(map(encoded.__getitem__, text)) != chunk:
        return None
    lengths = map(len, map(encoded.__getitem__, text))
    return text, list(itertools.accumulate(lengths, initial=0))[:-1], len(chunk)


def _character_starts(out: str, data: bytes, start: int, end: int, codec: str) -> list[int]:
    """Where each character of *out*, decoded from ``data[start:end]`` at once, starts: the trailing characters
    whose own encoding ends the bytes (a '"' that closes a UTF-7 run, the character after an invalid byte) get
    those bytes, the first gets the rest (a character without bytes of its own starts where the next one does)."""
    carved: list[int] = []
    stop = end
    for character in reversed(out[1:]):
        try:
            own = character.encode(codec)
        except (ValueError, LookupError):
            break
        if not own or stop - len(own) <= start or not data.endswith(own, start, stop):
            break
        stop -= len(own)
        carved.append(stop)
    return [start] + [stop] * (len(out) - 1 - len(carved)) + carved[::-1]
