"""Time what the security flags and refanging add to plain-text scanning (issue 12: at most 10% with flags on).

usage: python3 benchmarks/bench_security.py CORPUS_TEXT_DIR [--limit-mb N] [--repeat N]

Every file under CORPUS_TEXT_DIR (recursively) is read once into memory (UTF-8, surrogateescape) and scanned one call
per file, in three ways that take turns within each of the ``--repeat`` rounds (the median round counts):

- *scan*: ``for ref in linkkit.finditer(text)``, reading each reference's ``uri`` (as ``findall`` and every
  output of the command line do; the issue's baseline);
- *scan, .uri unread*: the references only counted (``.uri`` is read from the text lazily, and ``.flags`` reads
  it, so against this row flags also pay for that read);
- *scan + flags*: the same, and each reference's ``.flags`` read (computed then: ``linkkit.security.flags``);
- *scan, refang=True*: ``linkkit.finditer(text, refang=True)``, defanged spellings read too.

Times are CPU seconds of this process (``time.process_time``), so other load on a shared machine does not skew the
ratios. The last column is the cost relative to *scan*; the line ``flags on: +N%`` is the issue's figure.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import linkkit


def scan(text: str) -> int:
    return sum(1 for ref in linkkit.finditer(text) if ref.uri)


def scan_unread(text: str) -> int:
    return sum(1 for _ in linkkit.finditer(text))


def scan_with_flags(text: str) -> int:
    found = 0
    for ref in linkkit.finditer(text):
        found += 1 + len(ref.flags)
    return found


def scan_refanged(text: str) -> int:
    return sum(1 for ref in linkkit.finditer(text, refang=True) if ref.uri)


MODES: dict[str, Callable[[str], int]] = {
    "scan": scan,
    "scan, .uri unread": scan_unread,
    "scan + flags": scan_with_flags,
    "scan, refang=True": scan_refanged,
}


def read_corpus(root: Path, limit: int | None) -> list[str]:
    texts, total = [], 0
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        data = path.read_bytes()
        if limit is not None and total + len(data) > limit:
            break
        total += len(data)
        texts.append(data.decode("utf-8", "surrogateescape"))
    return texts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="the text corpus folder (read recursively)")
    parser.add_argument("--limit-mb", type=float, default=None, help="read at most this many MB")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the median counts")
    args = parser.parse_args(argv)
    limit = None if args.limit_mb is None else int(args.limit_mb * 1e6)
    texts = read_corpus(args.corpus, limit)
    size = sum(len(t) for t in texts) / 1e6
    flagged = sum(1 for t in texts for ref in linkkit.finditer(t) if ref.flags)
    references = sum(scan(t) for t in texts)
    print(f"{len(texts)} files, {size:.1f} M characters, {references} references, {flagged} of them flagged")
    times: dict[str, list[float]] = {name: [] for name in MODES}
    for _ in range(args.repeat):
        for name, mode in MODES.items():
            started = time.process_time()
            for text in texts:
                mode(text)
            times[name].append(time.process_time() - started)
    base = statistics.median(times["scan"])
    print(f"{'mode':<20} {'CPU s':>8} {'MB/s':>8} {'vs scan':>8}")
    for name in MODES:
        median = statistics.median(times[name])
        print(f"{name:<20} {median:8.2f} {size / median:8.1f} {median / base:8.3f}")
    extra = statistics.median(times["scan + flags"]) / base - 1
    print(f"flags on: {extra:+.1%} (issue 12: at most +10%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
