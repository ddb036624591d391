"""Score linkkit's plain-text scanner against the URL-extraction suites of peer projects.

usage: python3 benchmarks/conformance.py EXTRACT_DIR [--suite NAME] [--show CLASS] [--verbose]

EXTRACT_DIR holds the converted suites (cmark-gfm.json, linkify-it.json, robinst-linkify.json, twitter-text.json,
urlextract.json; format in that folder's README). A case agrees when linkkit's list of link texts (the span of
each reference, ``Reference.group()``) equals the suite's ``expected`` list exactly, in order; a case marked
``compare: "first"`` checks only the first link. linkkit runs with its default options, except that e-mail
finding is switched on for the cases whose suite options ask for e-mail. Each disagreement is put in one class
(the first rule of ``CLASSES`` that fits), so deliberate differences of policy can be told from bugs.
"""

from __future__ import annotations

import argparse
import json
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import linkkit
from linkkit.uri.schemes import KNOWN_SCHEMES

SUITES = ("cmark-gfm", "linkify-it", "robinst-linkify", "twitter-text", "urlextract")

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_EMAIL = re.compile(r"^[^\s@:/]+@[^\s@:/]+\.[^\s@:/]+$")
_ABBREVIATED = re.compile(r"^(?:www|ftp)\.", re.IGNORECASE)
_IP = re.compile(r"^\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?(?:/|$)")


@dataclass(frozen=True)
class Outcome:
    """One case scored: what the suite expects, what linkkit found, and the class of a disagreement."""

    suite: str
    case: dict[str, Any]
    expected: list[str]
    got: list[str]
    agrees: bool
    reason: str


def wants_email(case: dict[str, Any]) -> bool:
    """Whether the case's peer configuration searches for e-mail addresses (robinst ``email``, urlextract)."""
    options = case.get("options") or {}
    return bool(options.get("email") or options.get("extract_email"))


def scan(text: str, *, emails: bool) -> list[str]:
    return [ref.group() for ref in linkkit.finditer(text, emails=emails)]


def _schemeless(link: str) -> bool:
    return not _SCHEME.match(link) and not link.startswith("//") and not _ABBREVIATED.match(link)


def _is_email(link: str) -> bool:
    return bool(_EMAIL.match(link.removeprefix("mailto:")))


def _same_start(a: list[str], b: list[str]) -> bool:
    """Both lists name the same links, differing only in where some of them end."""
    return len(a) == len(b) and all(x.startswith(y) or y.startswith(x) for x, y in zip(a, b))


def _unicode_symbol(text: str) -> bool:
    """A non-ASCII symbol or format character (emoji, currency, dingbats, ZERO WIDTH JOINER) in the text."""
    return any(not c.isascii() and unicodedata.category(c) in ("So", "Sc", "Sm", "Sk", "Cf") for c in text)


def _unregistered_scheme(link: str) -> bool:
    scheme = _SCHEME.match(link)
    return scheme is not None and scheme.group()[:-1].lower() not in KNOWN_SCHEMES and "//" not in link


# (class name, test on (suite, case text, expected, got)); the first that fits names a disagreement.
CLASSES: tuple[tuple[str, Callable[[str, str, list[str], list[str]], bool]], ...] = (
    ("bare e-mail address (not a reference by default, policy 9)",
     lambda s, t, e, g: any(_is_email(x) for x in e + g)
     and [x for x in e if not _is_email(x)] == [x for x in g if not _is_email(x)]),
    ("tweet-specific rule (t.co slugs, 's, #hashtag, @mention, $cashtag)",
     lambda s, t, e, g: s == "twitter-text" and re.search(r"t\.co/|[#@$]https?:", t) is not None),
    ("bare IP address without a scheme",
     lambda s, t, e, g: any(_IP.match(x) for x in e)),
    ("TLD-anchored bare domain (no scheme, not www./ftp.)",
     lambda s, t, e, g: any(_schemeless(x) and not _is_email(x) and not x.startswith("//") for x in e)),
    ("network-path reference //host without a scheme",
     lambda s, t, e, g: any(x.startswith("//") or "//" + x in t for x in e if x not in g)),
    ("whitespace inside <...> (RFC 3986 appendix C: ignored)",
     lambda s, t, e, g: re.search(r"<[^>]*\s[^>]*>", t) is not None and "<" in t),
    ("unregistered scheme without // (policy 6)",
     lambda s, t, e, g: any(_unregistered_scheme(x) for x in e)),
    ("Markdown syntax (images, core autolinks without the extension)",
     lambda s, t, e, g: s == "cmark-gfm" and (not e or "](" in t)),
    ("non-ASCII symbol or format character inside a reference",
     lambda s, t, e, g: _unicode_symbol(t)),
    ("link the peer rejects (host syntax: TLD, dashes, underscores, IDN; empty host)",
     lambda s, t, e, g: len(g) > len(e) and all(x in g for x in e)),
    ("where a reference ends (trailing punctuation, quotes, brackets, * and _)",
     lambda s, t, e, g: _same_start(e, g)),
    ("peer finds more links", lambda s, t, e, g: len(g) < len(e)),
    ("other", lambda s, t, e, g: True),
)


# urlextract options that change what its suite expects (lists of hosts to ignore or permit, uniqueness, ...).
_CONFIGURING = frozenset({"ignore_list", "permit_list", "only_unique", "with_schema_only", "extract_localhost",
                          "allow_mixed_case_hostname", "limit", "stop_chars", "get_indices"})


def classify(suite: str, case: dict[str, Any], expected: list[str], got: list[str]) -> str:
    options = case.get("options") or {}
    configured = sorted(_CONFIGURING.intersection(options))
    if options.get("url_can_be_iri") is False:  # robinst: IRIs switched off for the case
        configured.append("url_can_be_iri: false")
    if configured:
        return f"peer configured for the case ({', '.join(configured)})"
    return next(name for name, fits in CLASSES if fits(suite, case["text"], expected, got))


def score(suite: str, case: dict[str, Any]) -> Outcome:
    expected = list(case["expected"])
    got = scan(case["text"], emails=wants_email(case))
    if case.get("compare") == "first":
        agrees = got[:1] == expected[:1]
        expected, got = expected[:1], got[:1]
    else:
        agrees = got == expected
    reason = "" if agrees else classify(suite, case, expected, got)
    return Outcome(suite, case, expected, got, agrees, reason)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("extract_dir", type=Path, metavar="EXTRACT_DIR")
    parser.add_argument("--suite", action="append", choices=SUITES, help="score only this suite (repeatable)")
    parser.add_argument("--show", metavar="CLASS", help="print the cases of the classes whose name contains CLASS")
    parser.add_argument("--verbose", action="store_true", help="print every disagreeing case")
    args = parser.parse_args(argv)

    total_cases = total_agree = 0
    print(f"{'suite':<16} {'cases':>6} {'agree':>6} {'%':>6}")
    per_suite: dict[str, list[Outcome]] = {}
    for suite in args.suite or SUITES:
        path = args.extract_dir / f"{suite}.json"
        if not path.exists():
            print(f"{suite:<16} missing: {path}")
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        outcomes = [score(suite, case) for case in data["cases"]]
        per_suite[suite] = outcomes
        agree = sum(o.agrees for o in outcomes)
        total_cases += len(outcomes)
        total_agree += agree
        print(f"{suite:<16} {len(outcomes):>6} {agree:>6} {100 * agree / len(outcomes):>5.0f}%")
    if total_cases:
        print(f"{'all':<16} {total_cases:>6} {total_agree:>6} {100 * total_agree / total_cases:>5.0f}%")

    print("\nDisagreements by class:")
    for suite, outcomes in per_suite.items():
        classes = Counter(o.reason for o in outcomes if not o.agrees)
        for reason, count in classes.most_common():
            print(f"  {suite:<16} {count:>4}  {reason}")
    for outcomes in per_suite.values():
        for o in outcomes:
            if not o.agrees and (args.verbose or (args.show and args.show in o.reason)):
                print(f"\n[{o.suite}] {o.reason}\n  note:     {o.case.get('note', '')}\n  text:     {o.case['text']!r}"
                      f"\n  expected: {o.expected!r}\n  linkkit:  {o.got!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
