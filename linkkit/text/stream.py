"""Streams: the references of a text read piece by piece, found exactly as :func:`linkkit.finditer` finds them in
the whole text, in bounded memory."""

from __future__ import annotations

import dataclasses
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
    return _stream(_chunks(source, chunk_size), chunk_size, scan_options)


def stream_reach(chunk_size: int, max_length: int) -> int:
    """How far before the end of the text read so far the next reference :func:`finditer_stream` yields may start,
    with room to spare: a caller that copies the text through (a streamed rewrite) may write out what lies
    further back. A decision waits for at most twice its reach (a chunk, the reference, what its end rules look at
    past it: a "," before "scheme://", a hyphen-wrapped next line) and walks back a bounded way."""
    return 4 * (chunk_size + max_length + _BARE_REACH + _LOOKBEHIND)


def _chunks(source: Iterable[str] | _Readable, chunk_size: int) -> Iterator[str]:
    if isinstance(source, str):
        return iter((source,))  # a whole text, not an iterable of one-character chunks
    if isinstance(source, _Readable):
        read = source.read
        return iter(lambda: read(chunk_size), "")
    return iter(source)


def _stream(chunks: Iterator[str], chunk_size: int, options: ScanOptions) -> Iterator[Reference]:
    text = ""  # the text held: from absolute offset *base* on
    base = pos = floor = 0
    pending: list[str] = []
    pending_size = 0
    wanted = chunk_size  # characters past *pos* to hold before scanning again
    for chunk in chunks:
        if not isinstance(chunk, str):
            raise TypeError(f"finditer_stream() reads str chunks, not {type(chunk).__name__}")
        pending.append(chunk)
        pending_size += len(chunk)
        if len(text) - pos + pending_size < wanted:
            continue
        text += "".join(pending)
        pending.clear()
        pending_size = 0
        scan = _scan(text, pos, floor, options, final=False)
        while True:
            try:
                reference = next(scan)
            except StopIteration as stopped:
                pos, floor = stopped.value
                break
            yield _rebased(reference, base)
        # A decision that needs more text than is held waits for twice as much: linear however long it is.
        wanted = max(chunk_size, 2 * (len(text) - pos))
        drop = max(0, pos - _LOOKBEHIND)
        text = text[drop:]
        base += drop
        pos -= drop
        floor = max(0, floor - drop)
    text += "".join(pending)
    for reference in _scan(text, pos, floor, options, final=True):
        yield _rebased(reference, base)


def _rebased(reference: Reference, base: int) -> Reference:
    """The same reference with absolute offsets, holding only its own delimited text."""
    outer_start, outer_end = reference.outer_span()
    start, end = reference.span()
    return dataclasses.replace(
        reference, string=reference.string[outer_start:outer_end], offset=base + outer_start, _start=base + start,
        _end=base + end, outer_start=base + outer_start, outer_end=base + outer_end,
    )
