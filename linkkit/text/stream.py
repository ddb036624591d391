"""Streams: the references of a text read piece by piece, found exactly as :func:`linkkit.finditer` finds them in
the whole text, in bounded memory."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol, runtime_checkable

from .reference import Reference
from .scan import _BARE_REACH, _DEFAULT, _LOOKBEHIND, ScanOptions, _scan

# --- streams ---------------------------------------------------------------------------------------------------


@runtime_checkable
class _Readable(Protocol):
    def read(self, size: int = -1, /) -> str: ...


def finditer_stream(
    source: Iterable[str] | _Readable, *, chunk_size: int = 1 << 20, abbreviated: bool = _DEFAULT.abbreviated,
    emails: bool = _DEFAULT.emails, max_length: int = _DEFAULT.max_length,
) -> Iterator[Reference]:
    """The references of a text read piece by piece (a text file, or an iterable of str), with absolute offsets.

    Yields exactly what :func:`finditer` yields for the whole text, while holding in memory only about
    ``chunk_size`` plus the longest reference (at most ``max_length``) plus a few hundred characters before it.
    Each Reference's ``.string`` is its own delimited text (see :class:`Reference`).
    """
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be at least 1, not {chunk_size!r}")
    scan_options = ScanOptions(abbreviated=abbreviated, emails=emails, max_length=max_length)
    if isinstance(source, str):
        # A whole text is already in memory: scanned in place, as finditer scans it; cutting it into pieces would
        # only copy it (a fifth more CPU time on a text of 4-byte characters).
        return _scan(source, 0, 0, scan_options, final=True, base=0)
    return _stream(_chunks(source, chunk_size), chunk_size, scan_options)


def stream_reach(chunk_size: int, max_length: int) -> int:
    """How far before the end of the text read so far the next reference :func:`finditer_stream` yields may start,
    with room to spare: a caller that copies the text through (a streamed rewrite) may write out what lies
    further back. A decision waits for at most twice its reach (a chunk, the reference, what its end rules look at
    past it: a "," before "scheme://", a hyphen-wrapped next line) and walks back a bounded way."""
    return 4 * (chunk_size + max_length + _BARE_REACH + _LOOKBEHIND)


def _chunks(source: Iterable[str] | _Readable, chunk_size: int) -> Iterator[str]:
    if isinstance(source, _Readable):
        read, size = source.read, min(chunk_size, _PIECE)
        return iter(lambda: read(size), "")
    return iter(source)


# The text is scanned in pieces of at most this many characters, however large the chunks, so that memory stays flat
# on input of any size: large strings allocated and freed in turn at varying sizes (1, 2 or 4 bytes a character)
# fragment the C heap once glibc's malloc has moved its mmap threshold up, and a 1 GB stream read a MB at a time
# grew from 57 to 85 MiB; in pieces it holds the same at 100 MB and at 1 GB.
_PIECE = 1 << 15


def _pieces(chunks: Iterator[str], size: int) -> Iterator[str]:
    """The text of *chunks* in pieces of at most *size* characters."""
    for chunk in chunks:
        if not isinstance(chunk, str):
            raise TypeError(f"finditer_stream() reads str chunks, not {type(chunk).__name__}")
        if len(chunk) <= size:
            yield chunk
        else:
            for at in range(0, len(chunk), size):
                yield chunk[at : at + size]


def _stream(chunks: Iterator[str], chunk_size: int, options: ScanOptions) -> Iterator[Reference]:
    text = ""  # the text held: from absolute offset *base* on
    base = pos = floor = 0
    pending: list[str] = []
    pending_size = 0
    step = min(chunk_size, _PIECE)
    wanted = step  # characters past *pos* to hold before scanning again
    for chunk in _pieces(chunks, step):
        pending.append(chunk)
        pending_size += len(chunk)
        if len(text) - pos + pending_size < wanted:
            continue
        text += "".join(pending)
        pending.clear()
        pending_size = 0
        pos, floor = yield from _scan(text, pos, floor, options, final=False, base=base)
        # A decision that needs more text than is held waits for twice as much: linear however long it is.
        wanted = max(step, 2 * (len(text) - pos))
        drop = max(0, pos - _LOOKBEHIND)
        text = text[drop:]
        base += drop
        pos -= drop
        floor = max(0, floor - drop)
    text += "".join(pending)
    yield from _scan(text, pos, floor, options, final=True, base=base)

