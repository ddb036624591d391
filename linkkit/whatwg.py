"""The single-byte windows-* encodings as the Encoding Standard reads them (its index of each, which HTML's decoder
and a web archive's text use): Python's codecs but for the bytes 0x80-0x9F they leave undefined, which the standard
reads as the C1 control of the same number. Registered with :mod:`codecs` as ``whatwg-cp1252`` and the like, and
``windows-874``."""

from __future__ import annotations

import codecs
import functools
import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

# Python's names of the windows-* encodings the Encoding Standard defines by an index of 128 code points.
WINDOWS = frozenset({"cp874", "cp1250", "cp1251", "cp1252", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257",
                     "cp1258"})
PREFIX = "whatwg-"


@functools.cache
def table(codec: str) -> str:
    """The 256 characters of the windows-* *codec* as the standard's index reads them: a byte 0x80-0x9F that
    Python's codec leaves undefined is the C1 control of the same number (U+FFFE, undefined, elsewhere, as in
    Python's table: windows-874's 0xDB-0xDE, 0xFC-0xFF)."""
    python: str = importlib.import_module(f"encodings.{codec}").decoding_table
    return "".join(chr(byte) if c == "\ufffe" and 0x80 <= byte < 0xA0 else c for byte, c in enumerate(python))


def codec_name(codec: str) -> str:
    """The name of the standard's reading of the windows-* *codec* (Python's name of it), or *codec* itself for
    another: what a decoder that should read as the standard does is given."""
    return PREFIX + codec if codec in WINDOWS else codec


def _codec_info(codec: str) -> codecs.CodecInfo:
    """A codec of :func:`table` (*codec*'s), whole and incremental, as Python's own charmap codecs are made."""
    decoding = table(codec)
    encoding = codecs.charmap_build(decoding)

    def encode(text: str, errors: str = "strict") -> tuple[bytes, int]:
        return codecs.charmap_encode(text, errors, encoding)

    def decode(data: ReadableBuffer, errors: str = "strict") -> tuple[str, int]:
        return codecs.charmap_decode(data, errors, decoding)

    class IncrementalEncoder(codecs.IncrementalEncoder):
        def encode(self, text: str, final: bool = False) -> bytes:
            return codecs.charmap_encode(text, self.errors, encoding)[0]

    class IncrementalDecoder(codecs.IncrementalDecoder):
        def decode(self, data: ReadableBuffer, final: bool = False) -> str:
            return codecs.charmap_decode(data, self.errors, decoding)[0]

    return codecs.CodecInfo(encode, decode, name=PREFIX + codec, incrementalencoder=IncrementalEncoder,
                            incrementaldecoder=IncrementalDecoder)


# The names :func:`_search` answers, as :func:`codecs.lookup` gives them (lower case, ``-`` as ``_``): those of
# :func:`codec_name`, and the standard's own ``windows-874``, which Python does not know (it knows ``cp874``).
_NAMES = {**{(PREFIX + codec).replace("-", "_"): codec for codec in WINDOWS}, "windows_874": "cp874"}


def _search(name: str) -> codecs.CodecInfo | None:
    """The codec of a name in :data:`_NAMES`, for :func:`codecs.lookup`."""
    codec = _NAMES.get(name)
    return None if codec is None else _codec_info(codec)


codecs.register(_search)
