"""The encoding of an HTML document (HTML standard 13.2.3, the Encoding Standard's labels) and byte offsets."""

from __future__ import annotations

import codecs
import functools
import re
import string
from collections.abc import Iterator, Mapping
from typing import NamedTuple

from ..io import BOM_LESS, BOMS, SNIFF_SIZE
from .places import ASCII_WHITESPACE, WS
from .tokenizer import _MARKUP, _attributes, _scan

# -------------------------------------------------------------------------------------------------- encoding
# Encoding labels (Encoding Standard 4.2, its table of names and labels) whose meaning differs from Python's codec
# of that name, or that Python does not know.
_WHATWG_ENCODINGS = {
    "cp1252": "ascii us-ascii ansi_x3.4-1968 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 iso8859-1 iso88591 "
    "iso_8859-1 iso_8859-1:1987 l1 latin1 x-cp1252",
    "cp1254": "iso-8859-9 iso-ir-148 iso8859-9 iso88599 iso_8859-9 iso_8859-9:1989 l5 latin5 csisolatin5 x-cp1254",
    "cp874": "iso-8859-11 iso8859-11 iso885911 tis-620 dos-874 windows-874",
    "gbk": "gb2312 gb_2312 gb_2312-80 chinese csgb2312 csiso58gb231280 iso-ir-58 x-gbk",
    "big5hkscs": "big5 big5-hkscs cn-big5 csbig5 x-x-big5",
    "cp949": "euc-kr cseuckr csksc56011987 iso-ir-149 korean ks_c_5601-1987 ks_c_5601-1989 ksc5601 ksc_5601 "
    "windows-949",
    "utf-8": "unicode-1-1-utf-8 unicode11utf8 unicode20utf8 x-unicode20utf8",
    "iso8859-2": "iso88592",
    "iso8859-3": "iso88593",
    "iso8859-4": "iso88594",
    "iso8859-5": "iso88595",
    "iso8859-6": "iso88596 iso-8859-6-e iso-8859-6-i csiso88596e csiso88596i",
    "iso8859-7": "iso88597 sun_eu_greek",
    "iso8859-8": "iso88598 iso-8859-8-e csiso88598e visual iso-8859-8-i csiso88598i logical",
    "iso8859-10": "iso885910",
    "iso8859-13": "iso885913",
    "iso8859-14": "iso885914",
    "iso8859-15": "iso885915 csisolatin9",
    "koi8-r": "koi koi8",
    "koi8-u": "koi8-ru",
    "mac-roman": "mac csmacintosh x-mac-roman",
    "mac-cyrillic": "x-mac-cyrillic x-mac-ukrainian",
    "cp1250": "x-cp1250",
    "cp1251": "x-cp1251",
    "cp1253": "x-cp1253",
    "cp1255": "x-cp1255",
    "cp1256": "x-cp1256",
    "cp1257": "x-cp1257",
    "cp1258": "x-cp1258",
    "euc_jp": "x-euc-jp cseucpkdfmtjapanese",
    "shift_jis": "x-sjis",
    "cp932": "windows-31j",  # as Python reads its aliases ms932 and ms_kanji
    # Python's "utf-16" and "utf-32" write a BOM before every value they encode; the standard means LE.
    "utf-16-le": "utf-16 utf-16le unicode csunicode iso-10646-ucs-2 ucs-2 unicodefeff",
    "utf-16-be": "utf-16be unicodefffe",
    "utf-32-le": "utf-32 utf-32le",
}
_LABELS = {label: codec for codec, labels in _WHATWG_ENCODINGS.items() for label in labels.split()}
# HTML standard 13.2.3.1 "BOM sniffing" knows the UTF-8 and UTF-16 byte order marks only (a UTF-32-LE BOM reads
# as UTF-16-LE).
_BOMS = tuple((bom, codec) for bom, codec in BOMS if codec in ("utf-8", "utf-16-be", "utf-16-le"))
_META_CHARSET = re.compile(
    rf"charset{WS}*=({WS}*)(?:\"([^\"]*)\"|'([^']*)'|([^\t\n\f\r ;\"']+))", re.IGNORECASE
)


def _python_codec(label: str) -> codecs.CodecInfo | None:
    """Python's codec of that name or alias, or None."""
    try:
        return codecs.lookup(label)
    except (LookupError, ValueError):  # ValueError: a label with a NUL
        return None


@functools.lru_cache(maxsize=64)
def label_codec(label: str) -> str | None:
    """The Python codec for an encoding label ("get an encoding", Encoding Standard 4.2), or None if unknown or
    not a text encoding (base64, rot13: they do not turn bytes into text)."""
    label = label.strip(ASCII_WHITESPACE).lower()
    if label in _LABELS:
        return _LABELS[label]
    info = _python_codec(label)
    if info is None or not info._is_text_encoding:
        return None
    # a codec that writes a byte order mark before every value it encodes: the standard means the BOM-less form
    return BOM_LESS.get(info.name, info.name)


def _meta_encoding(document: bytes) -> str | None:
    """The encoding a <meta> in the first SNIFF_SIZE (1024) bytes declares ("prescan a byte stream", HTML 13.2.3.2)."""
    view = document[:SNIFF_SIZE].decode("latin-1")
    position = 0
    while (match := _MARKUP.search(view, position)) is not None:
        position = match.end()
        if match.lastgroup == "cut":
            break
        if match.lastgroup != "close" or match.group("start").lower() != "meta":
            continue
        attributes = _attributes(view, match.start("attrs"), match.end())
        codec = meta_codec({name: view[start:end] for name, (start, end, _) in attributes.items()})
        if codec is not None:
            return codec
    return None


def meta_codec(values: Mapping[str, str]) -> str | None:
    """The encoding a <meta> whose attributes have these *values* declares, None when it declares none or one
    that is unknown: its charset, else the charset of the content of an http-equiv content-type (HTML 13.2.3.2
    steps "attributes" and "processing", as the tree builder reads a <meta>, 13.2.6.4.4)."""
    label = values.get("charset")
    if label is None and values.get("http-equiv", "").lower() == "content-type":
        # "algorithm for extracting a character encoding from a meta element" (HTML 2.5.x)
        found = _META_CHARSET.search(values.get("content", ""))
        label = found and next((g for g in found.groups()[1:] if g is not None), None)
    if label and label.strip(ASCII_WHITESPACE).lower() == "x-user-defined":
        return "cp1252"  # 13.2.3.2 and "change the encoding" (13.2.3.4): x-user-defined means windows-1252
    codec = label_codec(label) if label else None
    if codec is None:
        return None
    if codec.startswith("utf-16"):
        return "utf-8"  # and UTF-16 in a <meta> means UTF-8
    return codec if _reads_markup(codec) else None


# What a <meta> that declares an encoding is written with: its name and its attributes', quotes, "=", a label.
_MARKUP_SAMPLE = string.ascii_letters + string.digits + "<>\"'=/-_.:; "


@functools.lru_cache(maxsize=64)
def _reads_markup(codec: str) -> bool:
    """Whether *codec* reads the ASCII a <meta> is written with as that text. A <meta> is read from bytes as
    ASCII, so a codec that does not (UTF-32, EBCDIC, punycode: none is a label of the Encoding Standard) cannot
    be the one its document is written in, as UTF-16 cannot (HTML 13.2.3.2 makes that UTF-8): it declares nothing."""
    try:
        return _MARKUP_SAMPLE.encode("ascii").decode(codec) == _MARKUP_SAMPLE
    except (ValueError, LookupError):
        return False


# UTF-8 and windows-1252, the default and the fallback of encoding sniffing (13.2.3.1), the encodings of most
# documents: ASCII-compatible by their definitions (RFC 3629 3; a single-byte superset of ASCII), so not tested
# (16,384 decodings, 6 ms for windows-1252, once a process).
_ASCII_SUPERSETS = frozenset({"utf-8", "cp1252"})


@functools.lru_cache(maxsize=64)
def _is_ascii_compatible(codec: str) -> bool:
    """True when every ASCII byte means its ASCII character, whatever byte precedes it, so that the bytes can be
    tokenized as they are. Not so for UTF-16 and EBCDIC, nor for codecs whose ASCII escape sequences change what
    follows ("+" in UTF-7, "~{" in HZ, ESC in ISO-2022, "\\u" in raw_unicode_escape); and no other byte means an
    ASCII character."""
    if codec in _ASCII_SUPERSETS:
        return True
    try:
        if not all(pair.decode(codec) == pair.decode("ascii") for pair in _ascii_pairs()):
            return False
    except (ValueError, LookupError):
        return False
    return not any(_decodes_to_ascii(bytes([byte]), codec) for byte in range(128, 256))


def _ascii_pairs() -> Iterator[bytes]:
    """Every sequence of two ASCII bytes, each made as it is tested: held as a list, the 16,384 of them cost 2 ms of
    every process's start, for the few codecs tested."""
    return (bytes((first, second)) for first in range(128) for second in range(128))


def _decodes_to_ascii(data: bytes, codec: str) -> bool:
    """True when *data* reads as ASCII text (mac-farsi's second "<", 0xBC): a delimiter the byte scan would miss."""
    try:
        return data.decode(codec).isascii()
    except (ValueError, LookupError):
        return False


def bom_encoding(document: bytes) -> str | None:
    """The encoding of the document's byte order mark (HTML 13.2.3.1 "BOM sniffing"), None without one."""
    for bom, codec in _BOMS:
        if document.startswith(bom):
            return codec
    return None


# Where a <meta> may stand, ASCII case-insensitively: a document without one declares no encoding but by its BOM.
_META = re.compile(rb"<meta", re.IGNORECASE)


def declared_encoding(document: bytes) -> str | None:
    """The encoding a document declares of itself once HTML's encoding sniffing has run, None when it declares none:
    its BOM; else the first <meta> the tokenizer meets that declares a known encoding, wherever it stands (13.2.6.4.4,
    "change the encoding" 13.2.3.4: past the prescan's 1024 bytes too, and not one the prescan read inside <title>);
    else the prescan's (13.2.3.2). What a text/html MIME part without a charset parameter is in (RFC 6657 3 leaves
    the default to text/html's own rules)."""
    bom = bom_encoding(document)
    if bom is not None:
        return bom
    if _META.search(document) is None:
        return None
    tentative = _encoding(document, None).codec  # without a BOM, ASCII-compatible: one byte a character of markup
    met = _scan(document.decode("latin-1"), tentative, meta_codec).declared
    return met or _meta_encoding(document)


class Sniffed(NamedTuple):
    """A document's encoding and whether it is tentative: chosen by the prescan or the fallback (HTML 13.2.3.1
    gives them the confidence "tentative"), so that the first <meta> the parser meets that declares an encoding
    changes it (13.2.6.4.4, "change the encoding" 13.2.3.4). That is mostly the prescan's own <meta>; not when the
    prescan's 1024 bytes hold none, nor when its <meta> lies in text the parser does not read as markup
    (``<script>``, ``<title>``). A BOM and the *encoding* argument (the transport layer's) are certain."""

    codec: str
    tentative: bool = False


def _encoding(document: bytes, encoding: str | None) -> Sniffed:
    """The document's encoding: BOM, then the *encoding* argument, then <meta>, then UTF-8 if the bytes are
    UTF-8, else windows-1252 (HTML 13.2.3.1 "encoding sniffing"; the last step is its frequency analysis)."""
    given = None if encoding is None else label_codec(encoding)
    if encoding is not None and given is None:
        if _python_codec(encoding.strip(ASCII_WHITESPACE).lower()) is not None:
            raise LookupError(f"encoding {encoding!r} is not a text encoding: it does not turn bytes into text")
        raise LookupError(f"unknown encoding {encoding!r}: not a label of the Encoding Standard or of Python")
    bom = bom_encoding(document)
    if bom is not None:
        return Sniffed(bom)
    if given is not None:
        return Sniffed(given)
    declared = _meta_encoding(document)
    if declared is not None:
        return Sniffed(declared, tentative=True)
    if document.isascii():
        return Sniffed("utf-8", tentative=True)
    try:
        document.decode("utf-8")
    except UnicodeDecodeError:
        return Sniffed("cp1252", tentative=True)
    return Sniffed("utf-8", tentative=True)
