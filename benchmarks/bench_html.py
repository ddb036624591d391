"""Absolutize every HTML file of DIR with linkkit, lxml and BeautifulSoup: speed, and bytes changed outside links.

usage: python3 benchmarks/bench_html.py DIR [--limit-mb N] [--repeat N] [--no-diff] [--no-memory] [--bs4-parser NAME]

Each file is given the retrieval URL ``https://docs.example/<file name>``. In one run, every file is handed to each
tool in turn (the order rotates from file to file), and only the tool's own work is timed, as CPU time of this
process (fairer than wall time on a shared machine): parse, make the links absolute, serialize back to bytes.
The damage count then compares each output with its input outside the link values; see benchmarks/README.md for
how. Then linkkit's peak memory is printed per document size (``--no-memory`` skips it).
"""

from __future__ import annotations

import argparse
import gc
import re
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path
from urllib.parse import urljoin

import lxml.html
from bs4 import BeautifulSoup

from linkkit import html

RETRIEVAL_ROOT = "https://docs.example/"
LINK_MARK = b"\x00"  # stands for one link value once it is cut out of a document
TOKEN = re.compile(rb"\s+|\w+|[^\w\s]")  # diff unit: whitespace runs, words, single punctuation bytes
BS4_URL_ATTRIBUTES = ("href", "src")  # what a BeautifulSoup user typically rewrites


def absolutize_linkkit(data: bytes, base_url: str, bs4_parser: str) -> bytes:
    return html.absolutize(data, base_url)


def absolutize_lxml(data: bytes, base_url: str, bs4_parser: str) -> bytes:
    """lxml.html as documented: parse, make_links_absolute (it honours and removes <base>), tostring."""
    document = lxml.html.document_fromstring(data)
    document.make_links_absolute(base_url)
    encoding = document.getroottree().docinfo.encoding or "utf-8"
    return lxml.html.tostring(document, encoding=encoding, doctype=document.getroottree().docinfo.doctype)


def absolutize_bs4(data: bytes, base_url: str, bs4_parser: str) -> bytes:
    """BeautifulSoup as usually done: parse, urljoin every href and src, encode in the detected encoding."""
    soup = BeautifulSoup(data, bs4_parser)
    for tag in soup.find_all(True):
        for attribute in BS4_URL_ATTRIBUTES:
            value = tag.get(attribute)
            if isinstance(value, str):
                tag[attribute] = urljoin(base_url, value.strip())
    return soup.encode(soup.original_encoding or "utf-8")


TOOLS: dict[str, Callable[[bytes, str, str], bytes]] = {
    "linkkit": absolutize_linkkit,
    "lxml": absolutize_lxml,
    "bs4": absolutize_bs4,
}


def without_links(document: bytes) -> bytes:
    """*document* with every link value (as linkkit.html.links finds it) replaced by one LINK_MARK byte."""
    pieces: list[bytes] = []
    last = 0
    for link in html.links(document):
        start, end = link.span()
        pieces.append(document[last:start])
        pieces.append(LINK_MARK)
        last = end
    pieces.append(document[last:])
    return b"".join(pieces)


def _common_prefix(a: bytes, b: bytes) -> int:
    low, high = 0, min(len(a), len(b))
    while low < high:  # binary search on slice equality: C-speed comparisons, no per-byte Python loop
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _token_diff(before: bytes, after: bytes) -> int:
    old, new = TOKEN.findall(before), TOKEN.findall(after)
    changed = 0
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, new).get_opcodes():
        if tag != "equal":
            changed += max(sum(map(len, old[i1:i2])), sum(map(len, new[j1:j2])))
    return changed


def changed_bytes(before: bytes, after: bytes) -> int:
    """Bytes that differ between two documents, each changed run counted at its longer side.

    A line diff finds the changed regions; a token diff inside each region counts the bytes.
    """
    prefix = _common_prefix(before, after)
    before, after = before[prefix:], after[prefix:]
    suffix = _common_prefix(before[::-1], after[::-1])
    if suffix:
        before, after = before[:-suffix], after[:-suffix]
    if not before or not after:
        return len(before) + len(after)
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    changed = 0
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag != "equal":
            changed += _token_diff(b"".join(old[i1:i2]), b"".join(new[j1:j2]))
    return changed


@dataclass
class Tally:
    """One tool's totals over the run."""

    seconds: float = 0.0
    done_bytes: int = 0
    failed: list[str] = field(default_factory=list)
    changed_outside_links: int = 0
    damaged_files: int = 0


def corpus(directory: Path, limit_mb: float | None) -> list[Path]:
    """The .htm(l) files of *directory*, by name, up to *limit_mb* megabytes in all."""
    files = sorted(p for p in directory.rglob("*") if p.is_file() and p.suffix.lower() in (".html", ".htm"))
    if limit_mb is None:
        return files
    chosen: list[Path] = []
    total = 0
    for path in files:
        size = path.stat().st_size
        if total + size > limit_mb * 1e6 and chosen:
            break
        chosen.append(path)
        total += size
    return chosen


def run(files: Sequence[Path], *, repeat: int, diff: bool, bs4_parser: str) -> dict[str, Tally]:
    tallies = {name: Tally() for name in TOOLS}
    names = list(TOOLS)
    for index, path in enumerate(files):
        data = path.read_bytes()
        base_url = RETRIEVAL_ROOT + path.name
        order = names[index % len(names):] + names[: index % len(names)]
        outputs: dict[str, bytes] = {}
        for name in order:
            tally = tallies[name]
            try:
                best = float("inf")
                for _ in range(repeat):
                    # The garbage the tool before left (BeautifulSoup's trees are cyclic) is collected now, untimed,
                    # or the next tool's run would pay for it.
                    gc.collect()
                    start = time.process_time()
                    output = TOOLS[name](data, base_url, bs4_parser)
                    best = min(best, time.process_time() - start)
            except Exception as error:  # a peer failing on a real file is a result, not a crash of the benchmark
                tally.failed.append(f"{path.name}: {type(error).__name__}: {error}")
                continue
            tally.seconds += best
            tally.done_bytes += len(data)
            outputs[name] = output
        if diff and outputs:
            reference = without_links(data)
            for name, output in outputs.items():
                changed = changed_bytes(reference, without_links(output))
                tallies[name].changed_outside_links += changed
                tallies[name].damaged_files += changed > 0
    return tallies


def report(files: Sequence[Path], tallies: dict[str, Tally], *, diff: bool) -> str:
    total = sum(p.stat().st_size for p in files)
    speed = {name: t.done_bytes / 1e6 / t.seconds if t.seconds else 0.0 for name, t in tallies.items()}
    lines = [f"{len(files)} files, {total / 1e6:.2f} MB", ""]
    header = f"{'tool':<8} {'MB/s':>8} {'linkkit x':>10} {'failed':>7}"
    if diff:
        header += f" {'bytes changed outside links':>28} {'% of input':>11} {'files':>6}"
    lines.append(header)
    for name, tally in tallies.items():
        ratio = speed["linkkit"] / speed[name] if speed[name] else float("nan")
        line = f"{name:<8} {speed[name]:>8.2f} {ratio:>10.2f} {len(tally.failed):>7}"
        if diff:
            share = 100 * tally.changed_outside_links / tally.done_bytes if tally.done_bytes else 0.0
            line += f" {tally.changed_outside_links:>28} {share:>10.2f}% {tally.damaged_files:>6}"
        lines.append(line)
    lines.append("")
    lines.append("'linkkit x': how many times faster linkkit is than the tool (its MB/s over the tool's)")
    for name, tally in tallies.items():
        for failure in tally.failed[:5]:
            lines.append(f"{name} failed on {failure}")
    return "\n".join(lines)


def peak_memory(files: Sequence[Path], factors: Sequence[int] = (1, 4, 16)) -> str:
    """linkkit's peak memory while absolutizing documents of growing size: the largest file of the corpus, and
    its body repeated *factors* times (still one document), as Python allocations traced by tracemalloc (the
    input document itself excluded), over the document's size. lxml allocates in C, which tracemalloc does not
    see, so it is left out."""
    largest = max(files, key=lambda p: p.stat().st_size)
    data = largest.read_bytes()
    lines = [f"peak memory of linkkit's absolutize, document {largest.name} grown by repetition", ""]
    lines.append(f"{'document MB':>12} {'peak MB':>9} {'peak / document':>16}")
    for factor in factors:
        document = data * factor
        tracemalloc.start()
        try:
            output = html.absolutize(document, RETRIEVAL_ROOT + largest.name)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        del output
        lines.append(f"{len(document) / 1e6:>12.2f} {peak / 1e6:>9.2f} {peak / len(document):>16.2f}")
    lines.append("(issue 11 target: at most 2x the document)")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", type=Path, metavar="DIR", help="folder of .html/.htm files (searched recursively)")
    parser.add_argument("--limit-mb", type=float, help="use the files (by name) that fit in this many megabytes")
    parser.add_argument("--repeat", type=int, default=1, help="time each tool this many times per file, keep the best")
    parser.add_argument("--no-diff", dest="diff", action="store_false", help="skip counting changed bytes")
    parser.add_argument("--bs4-parser", default="html.parser", help="BeautifulSoup tree builder (default html.parser)")
    parser.add_argument("--no-memory", dest="memory", action="store_false", help="skip the peak memory table")
    args = parser.parse_args(argv)
    if not args.directory.is_dir():
        parser.error(f"{args.directory}: not a directory")
    files = corpus(args.directory, args.limit_mb)
    if not files:
        parser.error(f"{args.directory}: no .html or .htm files")
    tallies = run(files, repeat=max(1, args.repeat), diff=args.diff, bs4_parser=args.bs4_parser)
    print(report(files, tallies, diff=args.diff))
    if args.memory:
        print()
        print(peak_memory(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
