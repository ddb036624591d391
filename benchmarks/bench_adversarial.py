"""Linear time on hostile input (issue 7): print t(10n)/t(n) for every entry point on every hostile shape.

A linear entry point gives about 10; every ratio must be at most about 11. n is chosen per row so that t(n) takes
about 10-50 ms of CPU time (``time.process_time``; the CLI: the children's CPU time less an empty run's), and
each time is the minimum of a few repeats. Where that is cheap, n also grows until the text outgrows the CPU
caches (64 M characters): below that size a text that fits in the cache is read faster per character than its
ten-times copy, which is not the algorithm's doing. The text entry points run with a ``max_length`` above every
input, so that both sizes of a shape are one long reference, not one cut at the default 1 MiB and then scanned
on. No network, no shared data: every input is generated here.

    python3 benchmarks/bench_adversarial.py [--only SUBSTRING]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

import linkkit
from linkkit import html
from linkkit.text.stream import finditer_stream
from linkkit.uri.urn import URNError, parse_urn

Shape = Callable[[int], str]  # n -> a hostile text of about n characters

_LIMIT = 11.0
_TARGET = 0.010  # seconds of CPU that t(n) should at least take
_MAX_N = 1 << 26
_CACHE_CHARS = 64_000_000  # from this size on, the trigger search's rate per character was measured flat
_CHEAP = 0.1  # seconds: t(n) below this may grow n further, to _CACHE_CHARS
_NO_CUT = 1 << 30  # max_length for the text entry points


def _repeat(unit: str, tail: str = "") -> Shape:
    return lambda n: unit * max(1, n // len(unit)) + tail


def _after(head: str, unit: str, tail: str = "") -> Shape:
    return lambda n: head + unit * max(1, n // len(unit)) + tail


# The scanner: issue 7's shapes, their family, and those of tests/test_scanner.py's linear-time test.
TEXT_SHAPES: dict[str, Shape] = {
    '"urn:a:" * n': _repeat("urn:a:"),
    '"urn:x:" * n': _repeat("urn:x:"),
    '"(urn:a:" * n': _repeat("(urn:a:"),
    '"<urn:a:" * n': _repeat("<urn:a:"),
    '"http://?" * n': _repeat("http://?"),
    '"http://#" * n': _repeat("http://#"),
    '"ab://?" * n': _repeat("ab://?"),
    '"file://?" * n': _repeat("file://?"),
    '"mailto:?" * n': _repeat("mailto:?"),
    '"www.a" * n': _repeat("www.a"),
    '"www.a!" * n': _repeat("www.a!"),
    '"www.a-" * n': _repeat("www.a-"),
    '"a@b." * n': _repeat("a@b."),
    '"urn:ab:c%" * n': _repeat("urn:ab:c%"),
    '"urn:ab:c/" * n + "["': _repeat("urn:ab:c/", "["),
    '"http://a-\\n" * n': _repeat("http://a-\n"),
    '"<http://a-\\n b-\\n" * n': _repeat("<http://a-\n b-\n"),
    '"(" * n': _repeat("("),
    '"<" * n': _repeat("<"),
    '"http://" + "a" * n': _after("http://", "a"),
    '"http://" + "(" * n': _after("http://", "("),
    '"ab.cd/ef:gh" * n': _repeat("ab.cd/ef:gh"),
    '"http://a" + "." * n': _after("http://a", "."),
    '"www." * n': _repeat("www."),
    '"<http://" + " " * n': _after("<http://", " "),
    '"a" * n + "://x"': _repeat("a", "://x"),
    '"http://[" * n': _repeat("http://["),
    '"<http://a " * n': _repeat("<http://a "),
    '"http://a)" * n': _repeat("http://a)"),
    '"fax:a)-\\n" * n': _repeat("fax:a)-\n"),
    '"a@" * n': _repeat("a@"),
    '"<URL:" * n': _repeat("<URL:"),
    '"a:" * n': _repeat("a:"),
    '"http://a,http://b" * n': _repeat("http://a,http://b"),
    '"http://a" + ",x:" * n': _after("http://a", ",x:"),
    '"> <http://a" + "\\n>" * n': _after("> <http://a", "\n>"),
    '"urn:ab:c/" * n + "?x"': _repeat("urn:ab:c/", "?x"),
    '"urn:ab:(c)/" * n + "["': _repeat("urn:ab:(c)/", "["),
    '"urn:ab:c?+d/" * n + "?+"': _repeat("urn:ab:c?+d/", "?+"),
    '"的news:形式" * n': _repeat("的news:形式"),
    '"http://a" + "a," * n': _after("http://a", "a,"),
    '"urn:ab:" * n + "?+x" * n': lambda n: "urn:ab:" * (n // 14) + "?+x" * (n // 6),
    # emoji after a reference, read back by rules 5 and 10; bidirectional marks and invisible characters by delimiters
    '"http://a/b" + "\U0001f600." * n': _after("http://a/b", "\U0001f600."),
    '"http://a/b" + "\u00a9\ufe0f" * n': _after("http://a/b", "\u00a9\ufe0f"),
    '"http://a/b" + "\U0001f468\u200d\U0001f4bb" * n': _after("http://a/b", "\U0001f468\u200d\U0001f4bb"),
    '"(\u200ehttp://a/b\u200e) " * n': _repeat("(\u200ehttp://a/b\u200e) "),
    '"<http://a\u200b/b\u200b> " * n': _repeat("<http://a\u200b/b\u200b> "),
}

# The URI functions: long runs of what their grammars loop over, and the scanner's shapes.
URI_SHAPES: dict[str, Shape] = {
    '"%" * n': _repeat("%"),
    '"%2" * n': _repeat("%2"),
    '"[" * n': _repeat("["),
    '"/.." * n': _repeat("/.."),
    '"a:" * n': _repeat("a:"),
    '"?" * n': _repeat("?"),
    '"http://" + "[" * n': _after("http://", "["),
    '"http://a/" + "./" * n': _after("http://a/", "./"),
    '"urn:ab:" + "%2" * n': _after("urn:ab:", "%2"),
    '"urn:ab:" + "?+" * n': _after("urn:ab:", "?+"),
    '"urn:a:" * n': _repeat("urn:a:"),
    '"http://?" * n': _repeat("http://?"),
    '"ab://?" * n': _repeat("ab://?"),
    '"\\x00" * n (invalid characters)': _repeat("\x00"),
    '"^" * n (invalid characters)': _repeat("^"),
}

# HTML: the shapes of tests/test_html.py's ADVERSARIAL, scaled by n.
HTML_SHAPES: dict[str, Shape] = {
    '"<a " + "a=" * n': _after("<a ", "a="),
    '"<a href=\'" * n': _repeat("<a href='"),
    '"<!--" + "-" * n': _after("<!--", "-"),
    '"<style>" + "url(" * n': _after("<style>", "url("),
    '"<script>" + "<!--<script>" * n': _after("<script>", "<!--<script>"),
    '"<img srcset=\'a " + "(" * n': _after("<img srcset='a ", "(", "'>"),
    '"<style>/*" + "*" * n': _after("<style>/*", "*"),
    '"<svg>" + "<g>" * n': _after("<svg>", "<g>"),
    '"<" * n + "</" * n': lambda n: "<" * (n // 2) + "</" * (n // 4),
    '"<a" + " b" * n': _after("<a", " b"),
    "meta refresh, long delay and url": lambda n: (
        "<meta http-equiv=refresh content='" + "1" * (n // 2) + "; url=" + "u" * (n // 2) + "'>"
    ),
}


def _swallow(function: Callable[[str], object]) -> Callable[[str], object]:
    """*function*, with a syntax error counted as an answer (parse_urn rejects most hostile text)."""

    def call(text: str) -> object:
        try:
            return function(text)
        except (URNError, linkkit.URIError):
            return None

    return call


IN_PROCESS: list[tuple[str, Callable[[str], object], dict[str, Shape]]] = [
    ("finditer", lambda text: list(linkkit.finditer(text, emails=True, max_length=_NO_CUT)), TEXT_SHAPES),
    ("sub", lambda text: linkkit.sub("X", text, emails=True, max_length=_NO_CUT), TEXT_SHAPES),
    (
        "finditer_stream",
        lambda text: list(finditer_stream([text], chunk_size=4096, emails=True, max_length=_NO_CUT)),
        TEXT_SHAPES,
    ),
    ("html.links", lambda text: html.links(text, base_url="http://e.example/"), HTML_SHAPES),
    ("html.rewrite", lambda text: html.rewrite(text.encode(), lambda link: link.raw), HTML_SHAPES),
    ("parse", linkkit.parse, URI_SHAPES),
    ("validate", linkkit.validate, URI_SHAPES),
    ("resolve", _swallow(lambda text: linkkit.resolve("http://a/b/c/d;p?q", text, strict=False)), URI_SHAPES),
    ("normalize", _swallow(linkkit.normalize), URI_SHAPES),
    ("parse_urn", _swallow(parse_urn), URI_SHAPES),
]


def _cpu(function: Callable[[str], object], text: str, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        function(text)
        best = min(best, time.process_time() - started)
    return best


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _cli(path: str) -> float:
    """CPU seconds of ``python -m linkkit extract PATH``."""
    started = _children_cpu()
    subprocess.run(
        [sys.executable, "-m", "linkkit", "extract", "--max-length", str(_NO_CUT), path],
        stdout=subprocess.DEVNULL, check=True,
    )
    return _children_cpu() - started


def _cli_timer(folder: str, repeat: int) -> Callable[[str], float]:
    empty = os.path.join(folder, "empty.txt")
    with open(empty, "w", encoding="utf-8"):
        pass
    startup = min(_cli(empty) for _ in range(repeat))

    def timed(text: str) -> float:
        path = os.path.join(folder, "input.txt")
        with open(path, "w", encoding="utf-8", newline="") as file:
            file.write(text)
        return max(1e-6, min(_cli(path) for _ in range(repeat)) - startup)

    return timed


def _ratio(timed: Callable[[str], float], shape: Shape, target: float) -> tuple[int, float, float]:
    """(n, t(n), t(10n)) with n doubled from 1000 until t(n) reaches *target* (or n its cap)."""
    n = 1000
    small = timed(shape(n))
    while n < _MAX_N and (small < target or (small < _CHEAP and len(shape(n)) < _CACHE_CHARS)):
        n *= 2
        small = timed(shape(n))
    return n, small, timed(shape(10 * n))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--only", default="", help="only the entry points whose name contains this")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rows: list[tuple[str, str, int, float, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        timers: list[tuple[str, Callable[[str], float], dict[str, Shape], float]] = [
            (name, lambda text, f=function: _cpu(f, text, args.repeat), shapes, _TARGET)
            for name, function, shapes in IN_PROCESS
        ]
        if args.only in "cli extract":
            timers.append(("cli extract", _cli_timer(folder, 2), TEXT_SHAPES, 5 * _TARGET))
        for name, timed, shapes, target in timers:
            if args.only not in name:
                continue
            for label, shape in shapes.items():
                n, small, large = _ratio(timed, shape, target)
                rows.append((name, label, n, small, large))
                flag = "" if large / small <= _LIMIT else "   <-- above 11"
                print(f"{name:16} {label:38} n={n:>8} t(n)={small * 1e3:8.1f} ms  ratio={large / small:6.1f}{flag}",
                      flush=True)
    bad = [row for row in rows if row[4] / row[3] > _LIMIT]
    print(f"\n{len(rows)} rows, {len(bad)} above {_LIMIT:g}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
