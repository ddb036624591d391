"""Compressed inputs, told by content (their magic numbers), not by name: gzip (RFC 1952), bzip2, xz and
Zstandard (RFC 8878). The first three are the standard library's; Zstandard is the ``zstandard`` package's."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import zlib
from typing import IO, TYPE_CHECKING, cast

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

import zstandard

# The magic bytes each format starts with: RFC 1952 2.3.1 (ID1 ID2), the bzip2 "BZh" signature, the xz file format
# 2.1.1.1 header magic, RFC 8878 3.1.1 (the Zstandard frame magic number 0xFD2FB528, little-endian).
MAGIC = (
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bzip2"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
)


# What reading a corrupt or truncated compressed stream raises, beside OSError (gzip.BadGzipFile, bz2's errors).
CORRUPT = (OSError, EOFError, zlib.error, lzma.LZMAError, zstandard.ZstdError)


def peek_decompressed(head: bytes, name: str) -> bytes:
    """The first bytes *head* (the start of a compressed file) decompress to, as far as they go; never raises."""
    try:
        if name == "gzip":
            return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 1 << 16)
        if name == "zstd":
            return zstandard.ZstdDecompressor().decompressobj().decompress(head)[: 1 << 16]
        if name == "bzip2":
            return bz2.BZ2Decompressor().decompress(head, 1 << 16)
        if name == "xz":
            return lzma.LZMADecompressor().decompress(head, 1 << 16)
    except CORRUPT:
        pass
    return b""


def compression(head: bytes) -> str | None:
    """The compression an input starting with *head* uses, or None."""
    for magic, name in MAGIC:
        if head.startswith(magic):
            return name
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
        reader = zstandard.ZstdDecompressor().stream_reader(stream, read_across_frames=True, closefd=True)
        return io.BufferedReader(reader)
    raise ValueError(f"unknown compression {name!r}")


class _Layers(io.RawIOBase):
    """The innermost decompressed stream, closing every layer under it when closed (GzipFile and BZ2File leave
    the file object they were given open)."""

    def __init__(self, layers: list[IO[bytes]]) -> None:
        self.layers = layers

    def readable(self) -> bool:
        return True

    def readinto(self, target: WriteableBuffer) -> int:
        buffer = memoryview(target).cast("B")
        data = self.layers[-1].read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed:
            for layer in reversed(self.layers):
                layer.close()
        super().close()


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
            name = compression(buffered.peek(6)[:6])
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
