"""ISO-2022-JP as Windows writers send it, the codec ``linkkit-iso-2022-jp-windows``: Japanese mail (RFC 1468)
holding the NEC row 13 and IBM rows 89-92 of JIS X 0208 (①, Ⅱ, ㈱), which Python's ``iso2022_jp`` lacks and the
Encoding Standard's ISO-2022-JP decoder (its index jis0208) reads, and JIS X 0201 katakana (``ESC ( I``).

A JIS X 0208 code is a windows-31J (cp932) code rearranged (JIS X 0208 appendix 1: two rows of 94 make one lead byte
of 188 trail bytes), so each one is read and written through Python's cp932, whose two-byte codes cover those rows.
Each line and the text end in ASCII, as RFC 1468 asks.  Read only where Python's ``iso2022_jp`` fails (a superset in
:mod:`linkkit.mail.parts`), so that a rewritten part is written in the codec it was read with.
"""

from __future__ import annotations

import codecs
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

NAME = "linkkit-iso-2022-jp-windows"
# RFC 1468 and the Encoding Standard's decoder: ASCII, JIS X 0201 Roman, JIS X 0201 katakana, JIS X 0208 (1978, 1983)
_ESCAPE = re.compile(rb"\x1b(\(B|\(J|\(I|\$@|\$B)")
_ASCII, _ROMAN, _KATAKANA, _JIS = b"(B", b"(J", b"(I", b"$B"
_ROMAN_CHARACTERS = {0x5C: "\u00a5", 0x7E: "\u203e"}  # JIS X 0201 Roman's yen sign and overline


def sjis_code(lead: int, trail: int) -> bytes:
    """The windows-31J code of the JIS X 0208 code *lead*, *trail* (each 0x21-0x7E)."""
    first = (lead - 0x21) // 2 + 0x81
    second = trail + (0x1F if trail < 0x60 else 0x20) if lead & 1 else trail + 0x7E
    return bytes((first + 0x40 if first > 0x9F else first, second))


def jis_code(first: int, second: int) -> bytes:
    """The JIS X 0208 code of the windows-31J two-byte code *first*, *second* (the inverse of :func:`sjis_code`)."""
    row = ((first - 0x40 if first >= 0xE0 else first) - 0x81) * 2
    if second >= 0x9F:
        return bytes((row + 0x22, second - 0x7E))
    return bytes((row + 0x21, second - (0x1F if second < 0x7F else 0x20)))


def _segment(data: bytes, start: int, end: int, mode: bytes) -> str:
    """The text of ``data[start:end]``, written in *mode*; UnicodeDecodeError where a byte has no place there."""
    segment = data[start:end]
    if mode in (_ASCII, _ROMAN):  # an escape sequence of another set (ESC $ ( D), SO, SI: none of the codec's
        bad = next((i for i, byte in enumerate(segment) if byte >= 0x80 or byte in b"\x0e\x0f\x1b"), None)
        if bad is not None:
            raise UnicodeDecodeError(NAME, data, start + bad, start + bad + 1, "not ASCII")
        text = segment.decode("ascii")
        return text if mode == _ASCII else text.translate(_ROMAN_CHARACTERS)
    if mode == _KATAKANA:
        bad = next((i for i, byte in enumerate(segment) if not 0x21 <= byte <= 0x5F), None)
        if bad is not None:
            raise UnicodeDecodeError(NAME, data, start + bad, start + bad + 1, "no JIS X 0201 katakana")
        return "".join(chr(0xFF61 - 0x21 + byte) for byte in segment)
    bad = next((i for i, byte in enumerate(segment) if not 0x21 <= byte <= 0x7E), None)
    if bad is not None or len(segment) % 2:
        at = start + (len(segment) - 1 if bad is None else bad)
        raise UnicodeDecodeError(NAME, data, at, at + 1, "no JIS X 0208 code")
    sjis = b"".join(sjis_code(segment[i], segment[i + 1]) for i in range(0, len(segment), 2))
    try:
        return sjis.decode("cp932")
    except UnicodeDecodeError as error:
        raise UnicodeDecodeError(NAME, data, start + error.start, start + error.end, "no JIS X 0208 character") \
            from None


def decode(buffer: ReadableBuffer, errors: str = "strict") -> tuple[str, int]:
    """*buffer* read, strictly whatever *errors* says: a byte that has no place raises UnicodeDecodeError (and
    :func:`linkkit.mail.parts.decode_text` falls back as for any charset)."""
    data = bytes(buffer)
    pieces: list[str] = []
    mode, position = _ASCII, 0
    for escape in [*_ESCAPE.finditer(data), None]:
        end = len(data) if escape is None else escape.start()
        pieces.append(_segment(data, position, end, mode))
        if escape is not None:
            mode, position = escape.group(1), escape.end()
            mode = _JIS if mode == b"$@" else mode  # JIS C 6226-1978 is read as JIS X 0208
    return "".join(pieces), len(data)


def _written(char: str) -> tuple[bytes, bytes] | None:
    """(mode, bytes) of *char*, or None when the codec has no place for it."""
    code = ord(char)
    if code < 0x80:
        return None if char in "\x0e\x0f\x1b" else (_ASCII, char.encode("ascii"))  # no escape, SO or SI
    if 0xFF61 <= code <= 0xFF9F:
        return _KATAKANA, bytes((code - 0xFF61 + 0x21,))
    if code in (0xA5, 0x203E):
        return _ROMAN, b"\\" if code == 0xA5 else b"~"
    try:
        sjis = char.encode("cp932")
    except UnicodeEncodeError:
        return None
    if len(sjis) != 2 or not (0x81 <= sjis[0] <= 0x9F or 0xE0 <= sjis[0] <= 0xEF) or sjis.decode("cp932") != char:
        return None  # a code outside JIS X 0208's 94 rows, or cp932's best fit for another character (¢ for ￠)
    return _JIS, jis_code(*sjis)


def encode(text: str, errors: str = "strict") -> tuple[bytes, int]:
    """*text* written, each run in its character set after its escape sequence, back to ASCII at the end (RFC
    1468); a character without a place goes to the *errors* handler (its bytes, or its text in ASCII)."""
    out = bytearray()
    mode = _ASCII
    index = 0
    while index < len(text):
        written = _written(text[index])
        if written is None:
            handler = codecs.lookup_error(errors)
            replacement, index = handler(UnicodeEncodeError(NAME, text, index, index + 1, "no ISO-2022-JP code"))
            pieces = [(_ASCII, replacement)] if isinstance(replacement, bytes) else map(_written, replacement)
        else:
            pieces, index = [written], index + 1
        for piece in pieces:
            if piece is None:
                raise UnicodeEncodeError(NAME, text, index - 1, index, "no ISO-2022-JP code for the replacement")
            if piece[0] != mode:
                out += b"\x1b" + piece[0]
                mode = piece[0]
            out += piece[1]
    if mode != _ASCII:
        out += b"\x1b" + _ASCII
    return bytes(out), len(text)


def _search(name: str) -> codecs.CodecInfo | None:
    """The codec of :data:`NAME` for :func:`codecs.lookup`."""
    if name.replace("_", "-") != NAME:
        return None
    return codecs.CodecInfo(encode, decode, name=NAME)


codecs.register(_search)

__all__ = ["NAME", "decode", "encode", "jis_code", "sjis_code"]
