"""Time linkkit's resolve and normalize against the Python peers, in one run, on the same inputs.

usage: python benchmarks/bench_uri.py [--n N] [--repeat R] [--conformance DIR]

Two input shapes for resolution: every (base, reference) pair distinct (peers that cache per string gain
nothing), and many references against one base (a document's links), where linkkit is also timed with the base
held split once in a linkkit.Base. With --conformance (the folder holding resolve.json and normalize.json) each
peer is also scored on the RFC-defined cases. Rates are medians of interleaved passes, in CPU time.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path

import linkkit
from peers import ensure

# module -> pip package: the peers this script times
PEERS = {
    "uritools": "uritools", "rfc3986": "rfc3986", "yarl": "yarl", "url_normalize": "url-normalize", "w3lib": "w3lib",
}

# RFC 3986 5.4.1 / 5.4.2 reference shapes; "{i}" makes each one distinct.
REFERENCE_SHAPES = [
    "g{i}", "./g{i}", "g{i}/", "/g{i}", "//g{i}", "?y{i}", "g{i}?y", "#s{i}", "g{i}#s", "g{i}?y#s", ";x{i}",
    "g;x{i}", "g;x?y#s{i}", "", ".", "./", "..", "../", "../g{i}", "../..", "../../", "../../g{i}",
    "../../../g{i}", "/./g{i}", "/../g{i}", "g{i}.", ".g{i}", "g{i}..", "..g{i}", "./../g{i}", "./g{i}/.",
    "g/./h{i}", "g/../h{i}", "g;x=1/./y{i}", "g;x=1/../y{i}", "g?y/./x{i}", "g#s/../x{i}",
    "http://x{i}.example/a/./b/../c", "mailto:user{i}@example.com",
]
NORMALIZE_SHAPES = [
    "HTTP://www.Example{i}.COM:80/a/./b/../%7euser?q=%3a#F",
    "https://example{i}.com/docs/page.html?lang=en",
    "http://example.com/{i}/%7Ebob/../alice/index.html",
    "ftp://FTP.example{i}.org:21/pub/file.txt;type=i",
    "http://user@[2001:DB8::{i:x}]:8080/a/b/",
    "https://www.example.com:443/search?q=a%2fb&page={i}",
]


def resolve_peers() -> dict[str, Callable[[str, str], str]]:
    import rfc3986
    import uritools
    import yarl

    return {
        "linkkit": linkkit.resolve,
        "uritools": uritools.urijoin,
        "urljoin": urllib.parse.urljoin,
        "yarl": lambda b, r: str(yarl.URL(b).join(yarl.URL(r))),
        "rfc3986": lambda b, r: rfc3986.uri_reference(r).resolve_with(b).unsplit(),
    }


def normalize_peers() -> dict[str, Callable[[str], str]]:
    import rfc3986
    import url_normalize
    import w3lib.url
    import yarl

    return {
        "linkkit": linkkit.normalize,
        "yarl": lambda s: str(yarl.URL(s)),
        "url-normalize": url_normalize.url_normalize,
        "rfc3986": rfc3986.normalize_uri,
        "w3lib": w3lib.url.canonicalize_url,
    }


def rates(peers: dict[str, Callable[..., object]], inputs: list[tuple], repeat: int) -> dict[str, float]:
    """Calls per CPU second of each peer, the median of *repeat* passes, the peers interleaved within each pass
    (in a rotating order) so that a slow stretch of a shared machine hits all of them alike. Failures count as
    calls: peers raise on some inputs."""
    seconds: dict[str, list[float]] = {name: [] for name in peers}
    names = list(peers)
    for turn in range(repeat):
        for name in names[turn % len(names):] + names[: turn % len(names)]:
            call = peers[name]
            start = time.process_time()
            for args in inputs:
                try:
                    call(*args)
                except Exception:
                    pass
            seconds[name].append(time.process_time() - start)
    return {name: len(inputs) / statistics.median(spent) for name, spent in seconds.items()}


def score(call: Callable[..., object], cases: list[tuple[tuple, str]]) -> int:
    passed = 0
    for args, expected in cases:
        try:
            passed += call(*args) == expected
        except Exception:
            pass
    return passed


def table(title: str, measured: dict[str, float], scores: dict[str, int] | None, total: int) -> None:
    print(f"\n{title}")
    print(f"  {'peer':<14}{'k/s CPU':>9}{'linkkit is':>13}" + (f"{'RFC cases':>14}" if scores else ""))
    for name, value in sorted(measured.items(), key=lambda kv: -kv[1]):
        ratio = measured["linkkit"] / value
        line = f"  {name:<14}{value / 1000:>9.0f}{ratio:>12.2f}x"
        if scores:
            line += f"{scores[name]:>9}/{total}"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=30000, help="inputs per shape (default 30000)")
    parser.add_argument("--repeat", type=int, default=5, help="passes; the median is kept (default 5)")
    parser.add_argument("--conformance", type=Path, help="folder with resolve.json and normalize.json")
    args = parser.parse_args()
    ensure(PEERS, script="bench_uri")
    rng = random.Random(3986)

    distinct = [(f"http://h{i}.example/b{i}/c/d;p?q{i}", rng.choice(REFERENCE_SHAPES).format(i=i))
                for i in range(args.n)]
    one_base = [("http://a.example/b/c/d;p?q", rng.choice(REFERENCE_SHAPES).format(i=i)) for i in range(args.n)]
    to_normalize = [(rng.choice(NORMALIZE_SHAPES).format(i=i),) for i in range(args.n)]

    resolve_cases: list[tuple[tuple, str]] = []
    normalize_cases: list[tuple[tuple, str]] = []
    if args.conformance:
        data = json.loads((args.conformance / "resolve.json").read_text(encoding="utf-8"))
        seen = {(c["base"], c["ref"]): c["expected"] for c in data["cases"] if c["rfc"] and c["mode"] == "strict"}
        resolve_cases = [(key, expected) for key, expected in seen.items()]
        data = json.loads((args.conformance / "normalize.json").read_text(encoding="utf-8"))
        # the full ladder (6.2.2 + 6.2.3): a peer has no "level", so it is scored on the complete RFC value
        normalize_cases = [((c["input"],), c.get("scheme_expected", c["expected"]))
                           for c in data["cases"] if c["level"] in ("syntax", "scheme")]

    peers = resolve_peers()
    # A document's links: the caller holds the base split once, as linkkit.html and the batch extractor do.
    held = linkkit.Base(one_base[0][0])
    with_base = {**peers, "linkkit Base": lambda _, reference: held.resolve(reference)}
    for title, inputs, timed in (("resolve, every pair distinct", distinct, peers),
                                 ("resolve, many references, one base", one_base, with_base)):
        measured = rates(timed, inputs, args.repeat)
        # scored with a Base made for each case's own base
        scorers = {**timed, "linkkit Base": lambda base, reference: linkkit.Base(base).resolve(reference)}
        scores = {name: score(scorers[name], resolve_cases) for name in timed} if resolve_cases else None
        table(f"{title} ({len(inputs)} calls)", measured, scores, len(resolve_cases))

    peers_n = normalize_peers()
    measured = rates(peers_n, to_normalize, args.repeat)
    scores = {name: score(call, normalize_cases) for name, call in peers_n.items()} if normalize_cases else None
    table(f"normalize, every input distinct ({len(to_normalize)} calls)", measured, scores, len(normalize_cases))


if __name__ == "__main__":
    main()
