"""Progress on standard error while a batch runs (when it is a terminal), and the summary line at the end."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import IO, Any


class Progress:
    """Counts of a run: files, records (documents), links, bytes, errors, binary files skipped; a tqdm bar on
    *stream* when *show* (a terminal, and not ``--quiet``)."""

    def __init__(self, stream: IO[str], *, show: bool, files: Callable[[], int] = lambda: 0) -> None:
        self.stream = stream
        self.files = files  # files opened so far (the sources count them)
        self.records = self.links = self.bytes = self.errors = self.binary = 0
        self.started = time.monotonic()
        self.bar: Any = None
        self.shown = 0.0
        if show:
            import tqdm

            tqdm.tqdm.monitor_interval = 0  # no monitor thread: pool workers are forked from this process
            width = _fixed_width(stream)
            self.bar = tqdm.tqdm(file=stream, unit="B", unit_scale=True, unit_divisor=1024, ncols=width,
                                 dynamic_ncols=width is None, leave=False, desc="linkkit")

    def add(self, *, size: int, links: int, failed: int, records: int = 1, binary: int = 0) -> None:
        """Count *records* more documents (one by default), with their *links*, *size* in bytes, the *failed* ones
        among them, and *binary* files skipped where they were read."""
        self.records += records
        self.links += links
        self.bytes += size
        self.errors += failed
        self.binary += binary
        if self.bar is not None:
            self.bar.update(size)
            now = time.monotonic()
            if now - self.shown > 0.2:
                self.shown = now
                self.bar.set_postfix_str(
                    f"files={self.files()} records={self.records} links={self.links} errors={self.errors}",
                    refresh=False,
                )

    def write(self, message: str) -> None:
        """A line on standard error, under the bar."""
        if self.bar is not None:
            self.bar.clear()
        print(message, file=self.stream)
        if self.bar is not None:
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()

    def summary(self, *, files: int, binary: int) -> str:
        """The summary line: *files* listed, and *binary* files skipped besides those the outcomes counted."""
        seconds = max(time.monotonic() - self.started, 1e-9)
        return (
            f"linkkit: {files} file(s), {self.records} record(s), {self.links} link(s), "
            f"{self.bytes / 1e6:.1f} MB in {seconds:.2f} s ({self.bytes / 1e6 / seconds:.1f} MB/s), "
            f"{binary + self.binary} binary file(s) skipped, {self.errors} error(s)"
        )


def _fixed_width(stream: IO[str]) -> int | None:
    """None, so that the bar follows the terminal's width, unless the terminal tells none (a pseudo-terminal never
    sized, as a container's may be: 0 columns, on which the bar drew nothing at all), then 80 columns."""
    try:
        return None if os.get_terminal_size(stream.fileno()).columns else 80
    except (OSError, ValueError):  # no descriptor (an in-memory stream), or not a terminal's
        return 80
