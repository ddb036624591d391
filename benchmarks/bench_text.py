"""Time plain-text URI extraction: linkkit against urlextract, linkify-it-py, iocextract, urlscan and a bare regex,
on the corpus and on link-dense shapes built from it.

usage: python3 benchmarks/bench_text.py CORPUS_TEXT_DIR [--limit-mb N] [--peer-limit-mb N] [--repeat N]
                                        [--only NAME] [--no-dense] [--no-install] [--streams WORK_DIR]

Every file under CORPUS_TEXT_DIR (recursively) is read once into memory, decoded as UTF-8 with surrogateescape, and
each extractor is timed over the same texts, one call per file (the way a user runs them on documents). Only the
calls are timed, not the reading. ``--limit-mb`` caps what every extractor reads; ``--peer-limit-mb`` caps the slow
peers only (urlextract runs at about 0.24 MB/s), so linkkit and the regex can run on the whole corpus in the same
run. Each row says how many files and MB that extractor measured; with ``--peer-limit-mb`` linkkit is also timed on
the peers' subset, and the ratios to the peers use that row. Times are CPU seconds of this process
(``time.process_time``), so other load on a shared machine does not skew the ratios; the extractors take turns
within each of the ``--repeat`` rounds and the median round counts.

The link-dense shapes, where the cost per reference decides the speed:

- *URL list*: every distinct ``uri`` reference linkkit finds in the corpus, one a line;
- *Markdown*: the same links as a list of ``- [link N](url)``;
- *nodejs changelogs*: the corpus files whose name holds "nodejs" and "changelog" (Node.js release notes, a
  Markdown link or a commit URL on most lines).

For each, linkkit's and the bare regex's cost per reference found (microseconds) are printed side by side.

With ``--streams WORK_DIR``, issue 11's streams: the corpus's files joined (as bytes, in turn, again and again) into
a 100 MB and a 1,000 MB file in WORK_DIR, and ``linkkit extract -j 1`` (plain and ``--format jsonl``) over each
in a process of its own, whose peak memory (maximum resident set, from ``wait4``) is printed with the ratio of
the two sizes (target: 1,000 MB within 1.2x of 100 MB); then, in this process, ``finditer_stream`` over the 100 MB
text in 1 MiB chunks against ``finditer`` over it held whole, CPU time (target: within 10%).
A peer that is not installed is installed with pip first (``peers.py``; ``--no-install``: skipped instead).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import processes
from peers import install_missing, missing

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


def urlscan_extractor() -> Extractor:
    from urlscan import urlscan

    def count(text: str) -> int:
        # urlscan's text function: groups of context lines, each line a list of chunks, a chunk with .url a link
        groups = urlscan.extracturls(text)
        return sum(1 for group in groups for line in group[0] for chunk in line if chunk.url is not None)

    return count


# name, factory, whether --peer-limit-mb applies to it, the peer's module and the pip package that provides it
EXTRACTORS: tuple[tuple[str, Callable[[], Extractor], bool, tuple[str, str] | None], ...] = (
    ("linkkit", linkkit_extractor, False, None),
    ("bare regex", regex_extractor, False, None),
    ("linkkit subset", linkkit_extractor, True, None),
    ("urlextract", urlextract_extractor, True, ("urlextract", "urlextract")),
    ("linkify-it-py", linkify_extractor, True, ("linkify_it", "linkify-it-py")),
    ("iocextract", iocextract_extractor, True, ("iocextract", "iocextract")),
    ("urlscan", urlscan_extractor, True, ("urlscan", "urlscan")),
)
PEERS = ("urlextract", "linkify-it-py", "iocextract", "urlscan")


def load_texts(root: Path, limit_bytes: int | None) -> list[tuple[str, str]]:
    """The files under *root* in sorted order, as (name, text), up to *limit_bytes* of input in total."""
    texts, total = [], 0
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        if limit_bytes is not None and total >= limit_bytes:
            break
        data = path.read_bytes()
        total += len(data)
        texts.append((path.name, data.decode("utf-8", "surrogateescape")))
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


def dense_shapes(named: Sequence[tuple[str, str]]) -> dict[str, list[str]]:
    """The link-dense shapes built from the corpus: a URL list, a Markdown list of the same links, the nodejs
    changelogs (each shape a list of texts, one call each)."""
    import linkkit

    links = dict.fromkeys(ref.uri for _, text in named for ref in linkkit.finditer(text) if ref.kind == "uri")
    url_list = "".join(f"{uri}\n" for uri in links)
    markdown = "".join(f"- [link {number}]({uri})\n" for number, uri in enumerate(links))
    changelogs = [text for name, text in named if "nodejs" in name.lower() and "changelog" in name.lower()]
    shapes = {"URL list": [url_list], "Markdown": [markdown]}
    if changelogs:
        shapes["nodejs changelogs"] = changelogs
    return shapes


def timed(extract: Extractor, texts: Sequence[str]) -> tuple[float, int]:
    """CPU seconds of one run over *texts*, and the number of links found."""
    start = time.process_time()
    links = sum(extract(text) for text in texts)
    return time.process_time() - start, links


def interleaved(
    runs: dict[str, tuple[Extractor, list[str]]], repeat: int
) -> dict[str, tuple[float, float, float, int]]:
    """Each extractor over its texts, taking turns, *repeat* rounds: (median, min, max seconds, links)."""
    seconds: dict[str, list[float]] = {name: [] for name in runs}
    links: dict[str, int] = {}
    for _ in range(repeat):
        for name, (extract, texts) in runs.items():
            took, links[name] = timed(extract, texts)
            seconds[name].append(took)
    return {
        name: (statistics.median(times), min(times), max(times), links[name]) for name, times in seconds.items()
    }


def corpus_table(named: Sequence[tuple[str, str]], args: argparse.Namespace) -> None:
    texts = [text for _, text in named]
    chosen = [
        (name, factory, is_peer, peer) for name, factory, is_peer, peer in EXTRACTORS
        if (not args.only or name in args.only) and (name != "linkkit subset" or args.peer_limit_mb is not None)
    ]
    wanted = dict(peer for *_, peer in chosen if peer is not None)
    absent = set(install_missing(wanted) if args.install else missing(wanted))
    runs: dict[str, tuple[Extractor, list[str]]] = {}
    for name, factory, is_peer, peer in chosen:
        if peer is not None and peer[0] in absent:
            print(f"{name:<16} not installed (pip install {peer[1]})")
            continue
        runs[name] = (factory(), prefix_up_to(texts, args.peer_limit_mb if is_peer else None))
    results = interleaved(runs, args.repeat)
    print(
        f"{'extractor':<16} {'files':>6} {'MB':>8} {'seconds':>9} {'min-max':>13} {'MB/s':>8} {'links':>8}"
        "  linkkit speed / this"
    )
    rates: dict[str, float] = {}
    for name, (median, low, high, links) in results.items():
        subset = runs[name][1]
        size = megabytes(subset)
        rates[name] = size / median if median else float("inf")
        is_peer = name in PEERS or name == "linkkit subset"
        own = rates.get("linkkit subset" if is_peer and args.peer_limit_mb is not None else "linkkit")
        ratio = f"{own / rates[name]:.2f}x" if own else "-"
        print(
            f"{name:<16} {len(subset):>6} {size:>8.1f} {median:>9.2f} {low:>6.2f}-{high:<6.2f} {rates[name]:>8.2f}"
            f" {links:>8}  {ratio}"
        )
    peers = {n: r for n, r in rates.items() if n in PEERS}
    own = rates.get("linkkit subset", rates.get("linkkit"))
    if own and peers:
        fastest = max(peers, key=peers.__getitem__)
        print(f"linkkit / fastest peer ({fastest}), same files: {own / peers[fastest]:.1f}x (target >= 10x)")
    if "linkkit" in rates and "bare regex" in rates:
        print(f"linkkit / bare regex: {rates['linkkit'] / rates['bare regex']:.2f}x (issue 11 target >= 1.5x)")


def dense_table(named: Sequence[tuple[str, str]], args: argparse.Namespace) -> None:
    shapes = dense_shapes(named)
    extractors = {"linkkit": linkkit_extractor(), "bare regex": regex_extractor()}
    print(
        f"\n{'link-dense shape':<18} {'MB':>6} {'refs':>7} {'linkkit us/ref':>15} {'MB/s':>7}"
        f" {'bare us/ref':>12} {'MB/s':>7}  linkkit / bare"
    )
    for shape, texts in shapes.items():
        results = interleaved({name: (extract, texts) for name, extract in extractors.items()}, args.repeat)
        size = megabytes(texts)
        own, own_links = results["linkkit"][0], results["linkkit"][3]
        bare, bare_links = results["bare regex"][0], results["bare regex"][3]
        print(
            f"{shape:<18} {size:>6.2f} {own_links:>7} {1e6 * own / max(own_links, 1):>15.2f} {size / own:>7.1f}"
            f" {1e6 * bare / max(bare_links, 1):>12.2f} {size / bare:>7.1f}  {bare / own:.2f}x"
        )
    print("(issue 11 targets: at most 2 us per reference; linkkit / bare at least 1.0x on link-dense shapes)")


def joined_file(named: Sequence[tuple[str, str]], path: Path, size: int) -> Path:
    """*path* holding the corpus's texts as bytes, in turn and again, cut at *size* bytes (kept if it has them)."""
    if path.exists() and path.stat().st_size == size:
        return path
    pieces = [text.encode("utf-8", "surrogateescape") for _, text in named]
    written = 0
    with open(path, "wb") as out:
        while written < size:
            for piece in pieces:
                piece = piece[: size - written]
                out.write(piece)
                written += len(piece)
                if written >= size:
                    break
    return path


def peak_of(argv: list[str]) -> tuple[float, float]:
    """The peak memory (MiB, maximum resident set) and CPU seconds of a command run to its end, in a process of its
    own (:func:`processes.run`: this process, holding the corpus, is not the measure of its peak)."""
    done = processes.run(argv)
    if done.status not in (0, 1):
        sys.exit(f"bench_text: {' '.join(argv)} failed ({done.status}):\n{done.error}")
    return done.memory / 1024, done.cpu


def streams_table(named: Sequence[tuple[str, str]], work: Path, repeat: int) -> None:
    """Issue 11's streams: the command line's peak memory at 100 and 1,000 MB, and a stream's CPU against a
    whole-text scan's."""
    import linkkit

    work.mkdir(parents=True, exist_ok=True)
    files = {mb: joined_file(named, work / f"joined-{mb}MB.txt", mb * 1_000_000) for mb in (100, 1000)}
    print(f"\n{'extract -j 1 (a process each)':<34} {'100 MB':>14} {'1,000 MB':>14}  1,000 / 100 (target <= 1.2x)")
    for label, options in (("plain", []), ("--format jsonl", ["--format", "jsonl"])):
        peaks = {}
        for mb, path in files.items():
            argv = [sys.executable, "-m", "linkkit", "extract", "-q", "-j", "1", *options, "-o",
                    str(work / "out.txt"), str(path)]
            peaks[mb] = [peak_of(argv) for _ in range(repeat if mb == 100 else 1)]
        small = max(memory for memory, _ in peaks[100])
        large = max(memory for memory, _ in peaks[1000])
        cpu_small = statistics.median(cpu for _, cpu in peaks[100])
        print(f"  {label:<32} {small:>7.1f} MiB {cpu_small:>4.1f}s {large:>7.1f} MiB {peaks[1000][0][1]:>4.1f}s"
              f"  {large / small:.2f}x")
    text = files[100].read_bytes().decode("utf-8", "surrogateescape")
    chunks = [text[start : start + (1 << 20)] for start in range(0, len(text), 1 << 20)]
    runs: dict[str, tuple[Extractor, list[str]]] = {
        "whole": (lambda whole: sum(1 for _ in linkkit.finditer(whole)), [text]),
        "stream": (lambda _: sum(1 for _ in linkkit.finditer_stream(chunks)), [""]),
    }
    results = interleaved(runs, repeat)
    whole, stream = results["whole"], results["stream"]
    same = "the same count" if whole[3] == stream[3] else f"COUNTS DIFFER: {whole[3]} and {stream[3]}"
    print(f"finditer over the 100 MB text held whole {whole[0]:.2f} s, finditer_stream over it in 1 MiB chunks "
          f"{stream[0]:.2f} s: {stream[0] / whole[0]:.2f}x (target <= 1.10x), {same} ({whole[3]} references)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, metavar="CORPUS_TEXT_DIR")
    parser.add_argument("--limit-mb", type=float, help="read at most this many MB of the corpus (all extractors)")
    parser.add_argument("--peer-limit-mb", type=float, help="give the peers only this many MB of it")
    parser.add_argument("--repeat", type=int, default=3, help="rounds, extractors taking turns; the median counts")
    parser.add_argument(
        "--only", action="append", choices=[name for name, *_ in EXTRACTORS], help="run only this one (repeatable)"
    )
    parser.add_argument("--no-dense", action="store_true", help="skip the link-dense shapes")
    parser.add_argument("--no-install", dest="install", action="store_false", help="skip peers not installed")
    parser.add_argument("--streams", type=Path, metavar="WORK_DIR",
                        help="also measure streams: 100 MB and 1,000 MB files written here (issue 11's memory)")
    args = parser.parse_args(argv)

    if not args.corpus.is_dir():
        parser.error(f"{args.corpus}: not a directory")
    named = load_texts(args.corpus, None if args.limit_mb is None else int(args.limit_mb * 1e6))
    if not named:
        parser.error(f"{args.corpus}: no files")
    texts = [text for _, text in named]
    print(f"corpus {args.corpus}: {len(texts)} files, {megabytes(texts):.1f} MB (UTF-8, surrogateescape)")
    corpus_table(named, args)
    sys.stdout.flush()
    if not args.no_dense:
        dense_table(named, args)
    if args.streams is not None:
        sys.stdout.flush()
        streams_table(named, args.streams, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
