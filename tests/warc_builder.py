"""Small WARC archives written by hand, as ISO 28500 (WARC 1.1, 1.0) lays them out, for the tests of linkkit.sources."""

from __future__ import annotations

import gzip
import zlib

_COUNTER = iter(range(1, 1_000_000))


def record(record_type: str, block: bytes, *, target: str | None = None, content_type: str | None = None,
           version: str = "1.1", record_id: str | None = None, extra: dict[str, str] | None = None) -> bytes:
    """One WARC record: version line, named fields, an empty line, the content block, two CRLFs (ISO 28500 4)."""
    fields = {
        "WARC-Type": record_type,
        "WARC-Record-ID": record_id or f"<urn:uuid:00000000-0000-0000-0000-{next(_COUNTER):012d}>",
        "WARC-Date": "2026-11-24T00:00:00Z",
    }
    if target is not None:
        fields["WARC-Target-URI"] = target
    if content_type is not None:
        fields["Content-Type"] = content_type
    fields.update(extra or {})
    fields["Content-Length"] = str(len(block))
    head = f"WARC/{version}\r\n" + "".join(f"{name}: {value}\r\n" for name, value in fields.items()) + "\r\n"
    return head.encode("utf-8") + block + b"\r\n\r\n"


def http_response(body: bytes, *, status: str = "200 OK", headers: list[tuple[str, str]] | None = None) -> bytes:
    """An HTTP/1.1 response as a ``response`` record's block holds it (WARC ``application/http;msgtype=response``)."""
    lines = [f"HTTP/1.1 {status}"] + [f"{name}: {value}" for name, value in headers or []]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def response(target: str, body: bytes, *, status: str = "200 OK", headers: list[tuple[str, str]] | None = None,
             **options: object) -> bytes:
    return record("response", http_response(body, status=status, headers=headers), target=target,
                  content_type="application/http;msgtype=response", **options)  # type: ignore[arg-type]


def chunked(body: bytes, size: int = 7) -> bytes:
    """*body* in ``Transfer-Encoding: chunked`` form (RFC 9112 7.1), with a chunk extension on the first chunk."""
    pieces = [body[i:i + size] for i in range(0, len(body), size)]
    out = b""
    for index, piece in enumerate(pieces):
        out += f"{len(piece):x}{';ext=1' if index == 0 else ''}\r\n".encode() + piece + b"\r\n"
    return out + b"0\r\n\r\n"


def per_record_gzip(records: list[bytes]) -> tuple[bytes, list[int]]:
    """The archive with each record its own gzip member (the usual ``.warc.gz``), and each member's offset."""
    out, offsets = b"", []
    for one in records:
        offsets.append(len(out))
        out += gzip.compress(one)
    return out, offsets


def unfinished(data: bytes, compression: str) -> bytes:
    """*data* compressed whole as *compression* (``gzip``, ``zstd``) and flushed, without the stream's end: a file cut
    short right after *data*, which decompresses to every byte of *data* and then fails."""
    if compression == "gzip":
        compressor = zlib.compressobj(wbits=16 + zlib.MAX_WBITS)
        return compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)
    if compression == "zstd":
        import zstandard

        frame = zstandard.ZstdCompressor().compressobj()
        return frame.compress(data) + frame.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
    raise ValueError(f"unknown compression {compression!r}")
