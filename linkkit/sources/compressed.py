"""Compressed inputs, told by content (their magic numbers), not by name: gzip (RFC 1952), bzip2, xz and
Zstandard (RFC 8878). The first three are the standard library's; Zstandard is the ``zstandard`` package's, loaded
when a Zstandard input is met (its errors are reported as OSError, so that CORRUPT needs no import)."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import re
import zlib
from typing import IO, TYPE_CHECKING, Any, cast

from ..io import read_some

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

# The magic bytes each format starts with: RFC 1952 2.3.1 (ID1 ID2), the bzip2 "BZh" signature, the xz file format
# 2.1.1.1 header magic, RFC 8878 3.1.1 (the Zstandard frame magic number 0xFD2FB528, little-endian).
MAGIC = (
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bzip2"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
)

# RFC 8878 3.1.2: a Zstandard file may open with a skippable frame (magic 0x184D2A50 to 0x184D2A5F, little-endian),
# as pzstd writes one before each frame: its first byte is 0x50-0x5F (one of "P" to "_"), then these three.
_ZSTD_SKIPPABLE = b"\x2a\x4d\x18"
_MAGIC_STARTS = frozenset(magic[:1] for magic, name in MAGIC)
# "BZh" alone is three letters a text may start with: a bzip2 stream goes on with its block size ("1"-"9") and the
# 48-bit magic of its first block (0x314159265359, the digits of pi) or, empty, of its end (0x177245385090), as
# bzip2's own decompressor checks them (bzip2 1.0.8 decompress.c, BZ_X_MAGIC_1 to BZ_X_BLKHDR_6).
_BZIP2_STREAM = re.compile(rb"BZh[1-9](?:1AY&SY|\x17rE8P\x90)")
MAGIC_SIZE = 10  # the bytes of an input's start that tell its compression

# What reading a corrupt or truncated compressed stream raises, beside OSError (gzip.BadGzipFile, bz2's errors, and
# Zstandard's, which _ZstdFrames raises as OSError).
CORRUPT = (OSError, EOFError, zlib.error, lzma.LZMAError)


_PEEK_STEP = 16  # compressed bytes given at a time to a damaged stream: what they decompress to is kept


def peek_gunzipped(head: bytes) -> bytes:
    """The first bytes the first gzip member of *head* (the start of a gzip file) decompresses to, as far as they go
    (at most 64 KiB); never raises. A member damaged further on gives what its start decompresses to: a
    ``.warc.gz`` whose first member is damaged still opens with its version line (it was read as no archive, and
    every record lost)."""
    try:
        return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 1 << 16)
    except zlib.error:  # again a few bytes at a time, keeping what comes before the damage
        member, out = zlib.decompressobj(16 + zlib.MAX_WBITS), bytearray()
        for start in range(0, len(head), _PEEK_STEP):
            try:
                out += member.decompress(head[start : start + _PEEK_STEP], (1 << 16) - len(out))
            except zlib.error:
                break
            if len(out) >= 1 << 16:
                break
        return bytes(out)


def compression(head: bytes) -> str | None:
    """The compression an input starting with *head* (its first MAGIC_SIZE bytes or more) uses, or None."""
    if head[:1] not in _MAGIC_STARTS:  # most inputs: two tests, not one per format
        return "zstd" if head.startswith(_ZSTD_SKIPPABLE, 1) and 0x50 <= head[0] <= 0x5F else None
    for magic, name in MAGIC:
        if head.startswith(magic):
            return name if name != "bzip2" or _BZIP2_STREAM.match(head) else None
    return None


def decompressing(stream: IO[bytes], name: str) -> IO[bytes]:
    """A binary stream of the decompressed content of *stream*, read as it goes (memory stays bounded);
    a multi-member gzip, bzip2 or xz file and several Zstandard frames are read whole."""
    if name == "gzip":
        return cast(IO[bytes], gzip.GzipFile(fileobj=stream, mode="rb"))
    if name == "bzip2":
        return cast(IO[bytes], bz2.BZ2File(stream, mode="rb"))
    if name == "xz":
        return cast(IO[bytes], lzma.LZMAFile(stream, mode="rb"))
    if name == "zstd":
        return io.BufferedReader(_ZstdFrames(stream))
    raise ValueError(f"unknown compression {name!r}")


class _ZstdFrames(io.RawIOBase):
    """Zstandard frames one after another (RFC 8878 3.1), decompressed as they are read. Input that ends inside a
    frame is an EOFError, as gzip, bzip2 and xz report theirs: the zstandard package's stream reader just stops,
    which lost the rest of a truncated file without a word. A damaged frame is an OSError."""

    _STEP = 1 << 14  # compressed bytes fed at a time, which bounds the output held

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.frame = _decompressor()
        self.inside = False  # bytes of the current frame were fed and its end not met
        self.pending = b""
        self.at = 0

    def readable(self) -> bool:
        return True

    def readinto(self, target: WriteableBuffer) -> int:
        buffer = memoryview(target).cast("B")
        while self.at == len(self.pending):
            data = self.stream.read(self._STEP)
            if not data:
                if self.inside:
                    raise EOFError("Zstandard input ended inside a frame (RFC 8878 3.1)")
                return 0
            self.pending, self.at = self._decompressed(data), 0
        size = min(len(buffer), len(self.pending) - self.at)
        buffer[:size] = self.pending[self.at : self.at + size]
        self.at += size
        return size

    def _decompressed(self, data: bytes) -> bytes:
        import zstandard

        out = []
        try:
            while data:
                out.append(self.frame.decompress(data))
                self.inside = not self.frame.eof
                data = b""
                if self.frame.eof:  # a frame ended: what follows it starts the next one
                    data = self.frame.unused_data
                    self.frame = _decompressor()
        except zstandard.ZstdError as error:
            raise OSError(str(error)) from None
        return b"".join(out)

    def close(self) -> None:
        if not self.closed:
            self.stream.close()
        super().close()


def _decompressor() -> Any:
    """A Zstandard decompression object for one frame (the ``zstandard`` package, imported on first use)."""
    import zstandard

    return zstandard.ZstdDecompressor().decompressobj()


class _Layers(io.RawIOBase):
    """The innermost decompressed stream, closing every layer under it when closed (GzipFile and BZ2File leave
    the file object they were given open)."""

    def __init__(self, layers: list[IO[bytes]]) -> None:
        self.layers = layers
        self.given = 0  # bytes of content given: where a damage stops the decompression, in the content

    def readable(self) -> bool:
        return True

    def readinto(self, target: WriteableBuffer) -> int:
        """One read of the innermost layer (``read1``: a damaged member fails only when it has nothing more to give,
        so no bytes decompressed before the damage are lost with a read that was filling *target*)."""
        buffer = memoryview(target).cast("B")
        data = read_some(self.layers[-1], len(buffer))
        buffer[: len(data)] = data
        self.given += len(data)
        return len(data)

    def close(self) -> None:
        if not self.closed:
            for layer in reversed(self.layers):
                layer.close()
        super().close()


def cut_short(stream: IO[bytes], error: BaseException) -> str:
    """The error of a compressed input whose decompression failed part way, read from *stream* (what
    :func:`decompressed` made of it): where in its content (the bytes that decompressed before the damage, when
    the stream counts them) and why."""
    layers = getattr(stream, "raw", None)
    where = f" (at byte {layers.given} of its content)" if isinstance(layers, _Layers) else ""
    return f"cannot decompress further: {error}{where}"


def undecompressed(error: BaseException) -> str:
    """The error of a compressed input of which nothing decompressed (cut or damaged within its first block): where
    in its content, as :func:`cut_short` says, and why."""
    return f"cannot decompress: {error} (at byte 0 of its content)"


def open_input(path: str) -> IO[bytes]:
    """The file *path* as a binary stream, decompressed when its content is compressed (nested compression, a
    ``.gz`` of a ``.xz``, is undone layer by layer)."""
    return decompressed(open(path, "rb"))


def decompressed(stream: IO[bytes]) -> IO[bytes]:
    """*stream* decompressed as its content says, layer by layer; closing the result closes *stream*."""
    layers: list[IO[bytes]] = [stream]
    try:
        for _ in range(8):  # a bound on nesting: a file that decompresses to itself is not read forever
            top = layers[-1]
            buffered = top if isinstance(top, io.BufferedReader) else io.BufferedReader(_Layers([top]))
            if buffered is not top:
                layers[-1] = buffered
            name = compression(buffered.peek(MAGIC_SIZE)[:MAGIC_SIZE])
            if name is None:
                break
            layers.append(decompressing(buffered, name))
    except BaseException:
        for layer in reversed(layers):
            layer.close()
        raise
    if len(layers) == 1:
        return layers[0]
    return io.BufferedReader(_Layers(layers))
