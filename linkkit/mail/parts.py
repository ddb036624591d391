"""A part's bytes to its text and back: Content-Transfer-Encoding (RFC 2045 6), charsets (RFC 2045 5, RFC 2046
4.1.2) and encoded words in headers (RFC 2047).

Decoding never raises.  An unknown or lying charset falls back to UTF-8 when the bytes are UTF-8, else to
windows-1252 with undefined bytes kept as lone surrogates (``surrogateescape``), so that encoding the text again
gives the same bytes; the part is flagged.
"""

from __future__ import annotations

import binascii
import codecs
import contextlib
import email.header
import re
from typing import NamedTuple

from . import eucjp, iso2022jp

# RFC 2045 6.7 rule (3): whitespace at the end of an encoded line was perhaps added in transport and is deleted.
_QP_TRAILING_SPACE = re.compile(rb"[ \t]++(?=\r?\n|\Z)")
# RFC 2045 6.8: the base64 alphabet; every other character is ignored by a decoder (but for line breaks and
# padding, one is a sign of damage, reported).
_NOT_BASE64 = re.compile(rb"[^A-Za-z0-9+/]++")
_FOREIGN_IN_BASE64 = re.compile(rb"[^A-Za-z0-9+/=\r\n \t]")
_BASE64_PADDING = re.compile(rb"=++")
_BASE64_ALPHABET = re.compile(rb"[A-Za-z0-9+/]")
# a line of encoded data: alphabet and padding, no whitespace inside (a text line, "Mailing list", has some)
_BASE64_LINE = re.compile(rb"[ \t]*+[A-Za-z0-9+/=]*+[ \t]*+\r?")
_LINE_END = re.compile(rb"\r?\n")
_BLANK_LINES = re.compile(rb"(?:[ \t]*+\r?\n)*+")

IDENTITY_ENCODINGS = frozenset({"7bit", "8bit", "binary"})  # RFC 2045 6.2
# RFC 2045 6.3's private "x-" mechanism that mail readers decode (Mozilla's, Evolution's, GMime, the email package),
# under its four names
UUENCODINGS = frozenset({"x-uuencode", "uuencode", "x-uue", "uue"})
TRANSFER_ENCODINGS = IDENTITY_ENCODINGS | UUENCODINGS | {"quoted-printable", "base64"}
# uuencode: the "begin MODE NAME" line before the data, as uudecode finds it
_UU_BEGIN = re.compile(rb"^begin[ \t]++[0-7]++(?:[ \t][^\n]*+)?(?:\n|\Z)", re.MULTILINE)
_UU_LINE = 45  # octets in a full line, as uuencode writes them


def decode_transfer(body: bytes, encoding: str) -> tuple[bytes, str | None]:
    """*body* with its Content-Transfer-Encoding undone, and what was wrong with it (None when nothing).

    Quoted-printable soft line breaks (``=`` CRLF) disappear, so a URL wrapped by the encoder is whole again,
    also when the break falls inside a UTF-8 sequence (RFC 2045 6.7 rule 5: the octets are joined before any
    charset decoding).
    """
    if encoding == "quoted-printable":
        return binascii.a2b_qp(_QP_TRAILING_SPACE.sub(b"", body)), None
    if encoding == "base64":
        if _concatenated(body):
            return (b"".join(map(_lenient_base64, _BASE64_PADDING.split(body))),
                    "base64 with more data after its padding: read as encodings one after another (RFC 2045 6.8)")
        try:
            data = binascii.a2b_base64(body)
            if _FOREIGN_IN_BASE64.search(body) is None:
                return data, None
            return data, "base64 with characters outside its alphabet (RFC 2045 6.8)"
        except binascii.Error:
            return _lenient_base64(body), "base64 with bad padding or characters (RFC 2045 6.8)"
    if encoding in IDENTITY_ENCODINGS:
        return body, None
    if encoding in UUENCODINGS:
        return _uudecode(body)
    return body, f"unknown Content-Transfer-Encoding {encoding!r} (RFC 2045 6.4): read as 8bit"


def _uu_data(body: bytes) -> tuple[int, int] | None:
    """Where the data lines of uuencoded *body* lie: after its ``begin MODE NAME`` line, up to the line of no octets
    (length character `` ` `` or space, or an empty line) or ``end``; None without a begin line."""
    begin = _UU_BEGIN.search(body)
    if begin is None:
        return None
    position = begin.end()
    while position < len(body):
        line_end = body.find(b"\n", position)
        following = len(body) if line_end < 0 else line_end + 1
        line = body[position:following].rstrip()
        if not line or (line[0] - 32) & 63 == 0 or line == b"end":
            break
        position = following
    return begin.end(), position


def _uudecode(body: bytes) -> tuple[bytes, str | None]:
    """The octets of the uuencoded *body*; a line with characters out of range gives the octets its length character
    counts when those decode, else none (reported).  A body without its begin line is read as 8bit."""
    layout = _uu_data(body)
    if layout is None:
        return body, "x-uuencode without its begin line: read as 8bit"
    octets, problem = [], None
    for line in body[layout[0] : layout[1]].split(b"\n"):
        line = line.rstrip(b"\r")
        if not line:
            continue
        try:
            octets.append(binascii.a2b_uu(line))
        except binascii.Error:
            problem = "x-uuencode with lines that cannot be decoded"
            with contextlib.suppress(binascii.Error):  # characters past those the length counts are dropped
                octets.append(binascii.a2b_uu(line[: (((line[0] - 32) & 63) * 4 + 5) // 3]))
    return b"".join(octets), problem


def _concatenated(body: bytes) -> bool:
    """Whether base64 *body* holds encoded data after a padding "=": encodings written one after another, as
    mailers that encode line by line write them and as a sender writes who hides a link from decoders that stop
    at the first "=" (RFC 2045 6.8 lets them: "=" is "evidence that the end of the data has been reached").  Only
    when every line from the padded one on is encoded data, whole 4-character quanta: a text appended after the data
    (a list's footer, a signature's "Thanks") ends it."""
    first = body.find(b"=")
    if first < 0 or _BASE64_ALPHABET.search(body, first) is None:
        return False
    lines = body[body.rfind(b"\n", 0, first) + 1 :].split(b"\n")
    return all(_BASE64_LINE.fullmatch(line) and len(line.strip()) % 4 == 0 for line in lines)


def _lenient_base64(body: bytes) -> bytes:
    """The octets of base64 *body*, characters outside the alphabet ignored and missing padding supplied (RFC 2045
    6.8): two or three characters after the last whole quantum still make one or two octets, a lone one none."""
    data = _NOT_BASE64.sub(b"", body)
    usable = len(data) - len(data) % 4
    tail = data[usable:]
    data = data[:usable] + tail + b"=" * (4 - len(tail)) if len(tail) >= 2 else data[:usable]
    return binascii.a2b_base64(data)


def encode_transfer(data: bytes, encoding: str, original: bytes, newline: bytes) -> bytes:
    """*data* encoded again as *original* was: quoted-printable lines of at most 76 characters (RFC 2045 6.7 rule
    5), base64 with *original*'s line length (RFC 2045 6.8), x-uuencode in lines of 45 octets between *original*'s
    begin line and end lines, anything else as is; line breaks end as *original*'s do, or as *newline* (the
    entity's own) when it has none, so that a CRLF message gets no bare LF."""
    first = _LINE_END.search(original)
    if first is not None:
        newline = first.group()
    if encoding == "quoted-printable":
        return _quoted_printable(data, newline)
    if encoding == "base64":
        lead = _BLANK_LINES.match(original).end()  # type: ignore[union-attr]  # matches empty
        body = original[lead:]  # the blank lines a writer left before the data stay, as those after it
        line = _LINE_END.search(body)
        width = line.start() if line is not None else len(body)
        if line is None or not body[line.end() :].strip():  # one line tells no line length: 76 then at least
            width = max(width, 76)
        encoded = binascii.b2a_base64(data, newline=False)
        lines = [encoded[i : i + width] for i in range(0, len(encoded), width)]
        return original[:lead] + newline.join(lines) + body[len(body.rstrip(b"\r\n")) :]  # line ends after the last
    if encoding in UUENCODINGS:
        layout = _uu_data(original)
        if layout is None:  # read as 8bit
            return data
        start, end = layout
        backtick = b"`" in original[start:end] or original[end : end + 1] == b"`"  # a zero written so, or a space
        written = b"".join(binascii.b2a_uu(data[i : i + _UU_LINE], backtick=backtick)[:-1] + newline
                           for i in range(0, len(data), _UU_LINE))
        return original[:start] + written + original[end:]  # the begin line, the end lines kept
    return data


def _quoted_printable(data: bytes, newline: bytes) -> bytes:
    """*data* quoted-printable (RFC 2045 6.7), its line breaks and soft line breaks *newline*: each line between two
    of them is encoded alone, a CR or LF in it as =0D or =0A (rule 4: a line break of the text is the only CR or LF
    the body holds), so the body decodes to *data* again.  b2a_qp's text mode took the first line break it met for
    every one (a part's CRLF turned into LF after an =0A) and wrote a lone CR as it is."""
    soft_break = b"=" + newline
    # in binary mode b2a_qp writes a CR or LF as =0D or =0A and "=" as =3D: its only "=\n" is a soft break
    return newline.join(binascii.b2a_qp(line, quotetabs=False, istext=False, header=False).replace(b"=\n", soft_break)
                        for line in data.split(newline))


class Decoded(NamedTuple):
    """A part's text, the codec that reads it back to the same bytes, and whether that codec is a fallback."""

    text: str
    codec: str
    errors: str  # "strict", or "surrogateescape" for the windows-1252 fallback
    fallback: bool
    problem: str | None


def text_codec(label: str | None) -> str | None:
    """The Python codec of a MIME charset *label*, None when there is none or it is no text encoding.

    A label Python has no name for (``iso-8859-8-i``, ``windows-874``, ``x-sjis``) is read as the Encoding
    Standard's table of labels reads it, as mail readers do.
    """
    if not label:
        return None
    try:
        info = codecs.lookup(label.strip().strip('"'))
    except (LookupError, ValueError):
        from ..html.encoding import label_codec  # the table, loaded only for a label Python lacks

        return label_codec(label.strip().strip('"'))
    if not getattr(info, "_is_text_encoding", True):  # base64, rot13, zlib: no charsets
        return None
    return info.name


# The Encoding Standard's decoders for these labels (its table of names and labels; 10.1, 11.1, 12.1, 13.3) read
# the superset their writers use: gb2312 mail holds GBK, gbk mail gb18030 (the standard's GBK decoder), euc-kr and
# ks_c_5601-1987 mail windows-949 (Outlook's), big5 mail HKSCS, shift_jis mail windows-31J and iso-2022-jp and
# euc-jp mail the same rows in JIS X 0208 codes (the standard's index jis0208 holds the NEC and IBM rows Windows
# writers send: ①, Ⅱ, ㈱; :mod:`linkkit.mail.iso2022jp`, :mod:`linkkit.mail.eucjp`).  Python's codecs of those names
# are the strict sets.  A rewritten part is written in the superset it was read with, which its readers read.
_SUPERSETS = {"gb2312": "gbk", "gbk": "gb18030", "euc_kr": "cp949", "big5": "big5hkscs", "shift_jis": "cp932",
              "iso2022_jp": iso2022jp.NAME, "euc_jp": eucjp.NAME}
# RFC 2781 4.3 (and the Unicode Standard 3.10, D98 and D101, for UTF-32): text labelled UTF-16 or UTF-32 is
# big-endian unless a little-endian byte order mark starts it.  Python's codecs of those names read it in the
# machine's order and write it with a mark in that order; the codec of one order reads and writes it as sent.
_BYTE_ORDERS = {"utf-16": (b"\xff\xfe", "utf-16-le", "utf-16-be"),
                "utf-32": (b"\xff\xfe\x00\x00", "utf-32-le", "utf-32-be")}


def _in_byte_order(codec: str, data: bytes) -> str:
    """The codec of the byte order *data* is in when *codec* leaves it open (UTF-16, UTF-32), else *codec*; a
    byte order mark stays in the text as U+FEFF, so that the text encodes back to the same bytes."""
    orders = _BYTE_ORDERS.get(codec)
    if orders is None:
        return codec
    little_mark, little, big = orders
    return little if data.startswith(little_mark) else big


def html_charset(data: bytes, parameter: str | None) -> str | None:
    """The charset of a text/html part, as the HTML standard's encoding sniffing takes it (13.2.3.1): its BOM, which
    overrides even the charset *parameter* (text/html's registration: the parameter overrides "any character
    encoding declarations in the document other than a Byte Order Mark"), else the parameter, else what the document
    declares of itself (RFC 6657 3; :func:`linkkit.html.encoding.declared_encoding`); None when none of them says."""
    from ..html.encoding import bom_encoding, declared_encoding

    return bom_encoding(data) or parameter or declared_encoding(data)


def decode_text(data: bytes, label: str | None) -> Decoded:
    """*data* decoded with the charset *label* (RFC 2046 4.1.2; us-ascii when absent, RFC 2045 5.2), or with the
    superset the Encoding Standard reads that label as when the strict set lacks a character."""
    codec = text_codec(label) if label else "ascii"
    if codec is not None:
        codec = _in_byte_order(codec, data)
        for reading in (codec, _SUPERSETS.get(codec)):
            if reading is None:
                break
            try:
                text = data.decode(reading)
                if reading.startswith("iso2022"):
                    text.encode(reading)  # Python's decoders pass the 8-bit bytes after a stray ESC as Latin-1
                return Decoded(text, reading, "strict", False, None)
            except (LookupError, ValueError, TypeError):  # UnicodeDecodeError and UnicodeEncodeError among them
                pass
        why = f"bytes that are not {label or 'us-ascii'}"
    else:
        why = f"unknown charset {label!r}"
    try:
        return Decoded(data.decode("utf-8"), "utf-8", "strict", True, f"{why}: read as utf-8")
    except UnicodeDecodeError:
        text = data.decode("cp1252", "surrogateescape")
        return Decoded(text, "cp1252", "surrogateescape", True, f"{why}: read as windows-1252")


def encode_text(text: str, decoded: Decoded) -> bytes:
    """*text* in the codec the part was read with (new characters it lacks were percent-encoded before)."""
    try:
        return text.encode(decoded.codec, decoded.errors)
    except UnicodeEncodeError:
        return text.encode(decoded.codec, "surrogateescape" if decoded.errors == "strict" else "replace")


def can_encode(text: str, decoded: Decoded, transfer_encoding: str) -> bool:
    """Whether *text* fits the part: its codec has every character, and a 7bit part's bytes stay ASCII (RFC 2045
    2.7; a 7bit charset such as ISO-2022-JP, RFC 1468, writes any character it has in ASCII bytes)."""
    try:
        data = text.encode(decoded.codec, decoded.errors)
    except UnicodeEncodeError:
        return False
    return transfer_encoding != "7bit" or data.isascii()


def without_comments(value: str) -> str:
    """*value* with its comments blanked, each character a space, so positions stay (RFC 5322 3.2.2: comments are
    parenthesized, nest, and take backslash quoted-pairs; RFC 2045 3 and RFC 2369 2 allow them in MIME and list
    fields).  A "(" inside ``<...>`` (a URL's own) or inside a quoted-string starts none."""
    if "(" not in value:
        return value
    out = list(value)
    depth, closer, escaped = 0, "", False  # closer: '>' or '"' while inside brackets or a quoted-string
    for index, char in enumerate(value):
        if depth:
            out[index] = " "
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            else:
                depth += (char == "(") - (char == ")")
        elif closer:
            if escaped:
                escaped = False
            elif char == "\\" and closer == '"':
                escaped = True
            elif char == closer:
                closer = ""
        elif char in '<"':
            closer = ">" if char == "<" else '"'
        elif char == "(":
            depth, out[index] = 1, " "
    return "".join(out)


def header_text(value: object) -> str:
    """A header value unfolded (RFC 5322 2.2.3) with its encoded words decoded (RFC 2047 6.1); never raises."""
    raw = str(value)
    unfolded = re.sub(r"\r?\n(?=[ \t])", "", raw)
    if "=?" not in unfolded:
        return unfolded
    try:
        return str(email.header.make_header(email.header.decode_header(unfolded)))
    except Exception:
        return unfolded


__all__ = [
    "IDENTITY_ENCODINGS",
    "TRANSFER_ENCODINGS",
    "UUENCODINGS",
    "Decoded",
    "can_encode",
    "decode_text",
    "decode_transfer",
    "encode_text",
    "encode_transfer",
    "header_text",
    "html_charset",
    "text_codec",
    "without_comments",
]
