"""EUC-JP as Windows writers send it, the codec ``linkkit-euc-jp-windows``: Japanese mail holding the NEC row 13 and
IBM rows 89-92 of JIS X 0208 (①, Ⅱ, ㈱), which Python's ``euc_jp`` lacks and the Encoding Standard's EUC-JP decoder
(its index jis0208) reads.

An EUC-JP two-byte code is a JIS X 0208 code with both bytes' high bit set, read and written through windows-31J as
:mod:`linkkit.mail.iso2022jp` reads ISO-2022-JP's; ``0x8E`` introduces JIS X 0201 katakana and ``0x8F`` a JIS X 0212
code (Python's ``euc_jp`` reads those).  Read only where Python's ``euc_jp`` fails (a superset in
:mod:`linkkit.mail.parts`), so that a rewritten part is written in the codec it was read with.
"""

from __future__ import annotations

import codecs
import re
from typing import TYPE_CHECKING

from .iso2022jp import jis_code, sjis_code

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

NAME = "linkkit-euc-jp-windows"
# ASCII runs, JIS X 0201 katakana, JIS X 0212, JIS X 0208; any other byte has no place
_CODE = re.compile(rb"([\x00-\x7f]+)|\x8e[\xa1-\xdf]|\x8f[\xa1-\xfe]{2}|[\xa1-\xfe]{2}|(.)", re.DOTALL)


def decode(buffer: ReadableBuffer, errors: str = "strict") -> tuple[str, int]:
    """*buffer* read, strictly whatever *errors* says: a byte that has no place raises UnicodeDecodeError."""
    data = bytes(buffer)
    pieces: list[str] = []
    for code in _CODE.finditer(data):
        start, end = code.span()
        if code.group(1) is not None:
            pieces.append(code.group(1).decode("ascii"))
            continue
        try:
            if code.group(2) is not None:
                raise UnicodeDecodeError(NAME, data, start, end, "no EUC-JP code")
            if data[start] == 0x8E:
                pieces.append(chr(0xFF61 - 0xA1 + data[start + 1]))
            elif data[start] == 0x8F:
                pieces.append(data[start:end].decode("euc_jp"))
            else:
                pieces.append(sjis_code(data[start] - 0x80, data[start + 1] - 0x80).decode("cp932"))
        except UnicodeDecodeError:
            raise UnicodeDecodeError(NAME, data, start, end, "no EUC-JP character") from None
    return "".join(pieces), len(data)


def _written(char: str) -> bytes | None:
    """The bytes of *char*, or None when the codec has no place for it."""
    code = ord(char)
    if code < 0x80:
        return char.encode("ascii")
    if 0xFF61 <= code <= 0xFF9F:
        return bytes((0x8E, code - 0xFF61 + 0xA1))
    try:
        sjis = char.encode("cp932")
    except UnicodeEncodeError:
        sjis = b""
    if len(sjis) == 2 and (0x81 <= sjis[0] <= 0x9F or 0xE0 <= sjis[0] <= 0xEF) and sjis.decode("cp932") == char:
        return bytes(byte | 0x80 for byte in jis_code(*sjis))
    try:
        written = char.encode("euc_jp")  # JIS X 0212
    except UnicodeEncodeError:
        return None
    return written if written[:1] == b"\x8f" and written.decode("euc_jp") == char else None


def encode(text: str, errors: str = "strict") -> tuple[bytes, int]:
    """*text* written; a character without a place goes to the *errors* handler (its bytes, or its text)."""
    out = bytearray()
    index = 0
    while index < len(text):
        written = _written(text[index])
        if written is not None:
            out += written
            index += 1
            continue
        handler = codecs.lookup_error(errors)
        replacement, after = handler(UnicodeEncodeError(NAME, text, index, index + 1, "no EUC-JP code"))
        if isinstance(replacement, str):
            pieces = [_written(char) for char in replacement]
            if None in pieces:
                raise UnicodeEncodeError(NAME, text, index, index + 1, "no EUC-JP code for the replacement")
            replacement = b"".join(piece for piece in pieces if piece is not None)
        out += replacement
        index = after
    return bytes(out), len(text)


def _search(name: str) -> codecs.CodecInfo | None:
    """The codec of :data:`NAME` for :func:`codecs.lookup`."""
    return codecs.CodecInfo(encode, decode, name=NAME) if name.replace("_", "-") == NAME else None


codecs.register(_search)

__all__ = ["NAME", "decode", "encode"]
