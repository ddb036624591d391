"""Time plain-text URI extraction: linkkit against urlextract, linkify-it-py, iocextract and a bare regex.

usage: python3 benchmarks/bench_text.py CORPUS_DIR [--limit-mb N] [--peer-limit-mb N] [--repeat N]

Every file under CORPUS_DIR (recursively) is read once into memory, decoded as UTF-8 with surrogateescape, and each
extractor is timed over the same texts, one call per file (the way a user runs them on documents). Only the calls
are timed, not the reading. ``--limit-mb`` caps what every extractor reads; ``--peer-limit-mb`` caps the slow peers
only (urlextract runs at about 0.24 MB/s), so linkkit and the regex can run on the whole corpus in the same run.
Each row says how many files and MB that extractor measured; with ``--peer-limit-mb`` linkkit is also timed on
the peers' subset, and the ratios to the peers use that row. Times are CPU seconds of this process
(``time.process_time``), so other load on a shared machine does not skew the ratios.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

# The baseline of issue 3: any scheme followed by "//", then everything up to whitespace, < > or ".
BARE_REGEX = re.compile(r'[a-zA-Z][a-zA-Z0-9+.-]*://[^\s<>"]+')

Extractor = Callable[[str], int]  # a text -> the number of links found in it


def linkkit_extractor() -> Extractor:
    import linkkit

    def count(text: str) -> int:
        return sum(1 for _ in linkkit.finditer(text))

    return count


def regex_extractor() -> Extractor:
    return lambda text: len(BARE_REGEX.findall(text))


def urlextract_extractor() -> Extractor:
    from urlextract import URLExtract

    extractor = URLExtract()
    return lambda text: len(extractor.find_urls(text))


def linkify_extractor() -> Extractor:
    from linkify_it import LinkifyIt

    linkify = LinkifyIt()
    return lambda text: len(linkify.match(text) or ())


def iocextract_extractor() -> Extractor:
    import iocextract

    return lambda text: sum(1 for _ in iocextract.extract_urls(text))


# name, factory, whether --peer-limit-mb applies to it
EXTRACTORS: tuple[tuple[str, Callable[[], Extractor], bool], ...] = (
    ("linkkit", linkkit_extractor, False),
    ("bare regex", regex_extractor, False),
    ("linkkit subset", linkkit_extractor, True),
    ("urlextract", urlextract_extractor, True),
    ("linkify-it-py", linkify_extractor, True),
    ("iocextract", iocextract_extractor, True),
)


def load_texts(root: Path, limit_bytes: int | None) -> list[str]:
    """The files under *root* in sorted order, as text, up to *limit_bytes* of input in total."""
    texts, total = [], 0
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        if limit_bytes is not None and total >= limit_bytes:
            break
        data = path.read_bytes()
        total += len(data)
        texts.append(data.decode("utf-8", "surrogateescape"))
    return texts


def megabytes(texts: Sequence[str]) -> float:
    return sum(len(t.encode("utf-8", "surrogateescape")) for t in texts) / 1e6


def prefix_up_to(texts: Sequence[str], limit_mb: float | None) -> list[str]:
    """The leading files of *texts* whose total size first reaches *limit_mb* (all of them when None)."""
    if limit_mb is None:
        return list(texts)
    chosen, total = [], 0.0
    for text in texts:
        if total >= limit_mb:
            break
        chosen.append(text)
        total += len(text.encode("utf-8", "surrogateescape")) / 1e6
    return chosen


def measure(extract: Extractor, texts: Sequence[str], repeat: int) -> tuple[float, int]:
    """Best CPU time over *repeat* runs, and the number of links found."""
    best, links = float("inf"), 0
    for _ in range(repeat):
        start = time.process_time()
        links = sum(extract(text) for text in texts)
        best = min(best, time.process_time() - start)
    return best, links


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, metavar="CORPUS_DIR")
    parser.add_argument("--limit-mb", type=float, help="read at most this many MB of the corpus (all extractors)")
    parser.add_argument("--peer-limit-mb", type=float, help="give the three peers only this many MB of it")
    parser.add_argument("--repeat", type=int, default=1, help="runs per extractor; the best time counts")
    parser.add_argument(
        "--only", action="append", choices=[name for name, _, _ in EXTRACTORS], help="run only this one (repeatable)"
    )
    args = parser.parse_args(argv)

    if not args.corpus.is_dir():
        parser.error(f"{args.corpus}: not a directory")
    texts = load_texts(args.corpus, None if args.limit_mb is None else int(args.limit_mb * 1e6))
    if not texts:
        parser.error(f"{args.corpus}: no files")
    print(f"corpus {args.corpus}: {len(texts)} files, {megabytes(texts):.1f} MB (UTF-8, surrogateescape)")
    print(f"{'extractor':<14} {'files':>6} {'MB':>8} {'seconds':>9} {'MB/s':>8} {'links':>9}  linkkit speed / this")

    rates: dict[str, float] = {}
    for name, factory, is_peer in EXTRACTORS:
        if args.only and name not in args.only:
            continue
        if name == "linkkit subset" and args.peer_limit_mb is None:
            continue
        try:
            extract = factory()
        except ImportError as error:
            print(f"{name:<14} not installed ({error})")
            continue
        subset = prefix_up_to(texts, args.peer_limit_mb if is_peer else None)
        size = megabytes(subset)
        seconds, links = measure(extract, subset, args.repeat)
        rates[name] = size / seconds if seconds else float("inf")
        own = rates.get("linkkit subset" if is_peer and args.peer_limit_mb is not None else "linkkit")
        ratio = f"{own / rates[name]:.2f}x" if own else "-"
        print(f"{name:<14} {len(subset):>6} {size:>8.1f} {seconds:>9.2f} {rates[name]:>8.2f} {links:>9}  {ratio}")
        sys.stdout.flush()
    peers = {n: r for n, r in rates.items() if n not in ("linkkit", "bare regex", "linkkit subset")}
    own = rates.get("linkkit subset", rates.get("linkkit"))
    if own and peers:
        fastest = max(peers, key=peers.__getitem__)
        print(f"linkkit / fastest peer ({fastest}), same files: {own / peers[fastest]:.1f}x (target >= 10x)")
    if "linkkit" in rates and "bare regex" in rates:
        print(f"linkkit / bare regex: {rates['linkkit'] / rates['bare regex']:.2f} (target >= 0.5)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
