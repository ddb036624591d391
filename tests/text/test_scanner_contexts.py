"""Metamorphic properties of the delimiting rules (RFC 3986 appendix C, RFC 2396 appendix E, the RFC 1738 appendix):
a reference is found with the same reading and span in every context the policy names -- quotes, ``<...>``,
``<URL:...>``, brackets, Markdown, reStructuredText, trailing prose punctuation, a sentence's end --, wrapped by
whitespace inside ``<...>`` anywhere after its scheme's first letter, and broken across lines after any of its
hyphens; and a stream read a few characters at a time finds exactly what the whole text gives."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

import linkkit
from linkkit.text.stream import finditer_stream

# References of each class the rules treat apart, none ending with prose punctuation: hierarchical and opaque URIs,
# balanced brackets and IPv6 literals, percent-encodings, hyphens, URNs, abbreviated hosts, IRIs.
REFERENCES = [
    "http://example.org/", "https://en.wikipedia.org/wiki/URI_(disambiguation)", "ftp://ds.internic.net/rfc/",
    "http://[2001:db8::7]/c=GB?objectClass?one", "http://[fe80::1%25eth0]:8080/a-b", "http://example.org/a[1]/b",
    "http://user:pass@host.example:8080/p?q=1&r=2#frag", "https://example.com/search?q=a+b&lang=en-US",
    "https://my-host.example-domain.org/long-path-name/file-name.html", "http://example.org/a_", "http://example.org/~",
    "gopher://spinaltap.micro.umn.edu/00/Weather/California/Los%20Angeles", "file:///C:/Windows/x-y",
    "telnet://melvyl.ucop.edu/", "git://git.example.org/r-1.git", "news:comp.infosystems.www.servers.unix",
    "mailto:a-b@example.org?subject=Hello%20World", "tel:+1-816-555-1212", "data:text/plain;base64,SGVsbG8=",
    "HTTP://EXAMPLE.ORG/A-B", "urn:isbn:0-395-36341-1", "URN:ietf:rfc:2648", "urn:example:foo-bar?+CCResolve:cc=uk#x",
    "www.w3.org/Addressing/", "ftp.example.com/pub/file-1.tar.gz", "WWW.Example.COM/a_(b)", "http://例子.测试/路径-1",
    "https://ja.wikipedia.org/wiki/日本語", "http://bücher.example/straße-1?q=ä", "http://🍄.example/",
    "https://ca.wikipedia.org/wiki/Paral·lel", "https://ja.wikipedia.org/wiki/レオナルド・ダ・ヴィンチ",
    "https://bo.wikipedia.org/wiki/བོད་ཡིག", "https://he.wikipedia.org/wiki/צה״ל", "www.paral·lel.cat/programa",
    "http://example.org/🍄/a",
]

# (before, after, delimiter): each context the policy names (rules 1, 2, 5 and 10).
CONTEXTS = [
    ("", "", "bare"), ("see ", " now", "bare"), ("see\n", "\nnext", "bare"), ("\t", "\t", "bare"),
    ('"', '"', "quote"), ("'", "'", "quote"), ("“", "”", "quote"), ("«", "»", "quote"), ("「", "」。", "quote"),
    ('say "', '".', "quote"), ("<", ">", "angle"), ("<", ">.", "angle"), ("(<", ">)", "angle"),
    ("<URL:", ">", "url-prefix"), ("<url: ", ">", "url-prefix"), ("URL:", " now", "url-prefix"),
    ("URL: ", ".", "url-prefix"), ("(", ")", "bracket"), ("(", ").", "bracket"), ("[", "]", "bracket"),
    ("（", "）", "bracket"), ("【", "】", "bracket"), ("(see ", ")", "bare"), ("(see ", ").", "bare"),
    ("[text](", ")", "markdown"), ("[text](", ").", "markdown"), ("`text <", ">`_", "angle"),
    ("[text](<", ">)", "angle"),
    # other traditions' quotation marks and brackets; the bidirectional controls and invisible characters around
    # a reference in right-to-left text
    ("”", "”", "quote"), ("〝", "〟", "quote"), ("＜", "＞", "bracket"), ("(\u200e", "\u200e)", "bracket"),
    ("«\u2066", "\u2069»", "quote"), ("<\u200f", "\u200f>", "angle"), ("\u200f", "\u200f.", "bare"),
    *(("Visit ", f"{mark} Then", "bare") for mark in (
        ".", ",", ";", ":", "!", "?", "...", "?!", "'", "*", "**", ")", "]", ").", "'.", "!)", "。", "，", "、", "…",
        "⋯⋯", "।", "։", "؟", "،", "😀", "👍🏻!", "\u200b",
    )),
]

# A line break after a hyphen joins what the next line continues with (RFC 2396 appendix E): a letter, a digit or a
# character that carries a URI on, and no reference of its own.
_CONTINUES = re.compile(r"[\w/?#%&=~.]")
_STARTS_A_REFERENCE = re.compile(r"(?i)(?:www|ftp)\.|[a-z][a-z0-9+.-]*:")
_WRAPS = ["\n", "\n   ", "  \n\t", "\r\n ", " ", "\t"]


def _completed(reference: str) -> str:
    """The reference's ``.uri``: abbreviated hosts completed (RFC 3986 draft appendix F)."""
    prefix = reference[:4].lower()
    return {"www.": "http://", "ftp.": "ftp://"}.get(prefix, "") + reference


def _after_scheme(reference: str) -> int:
    """Where the part after the scheme's ":" (or after an abbreviated host's "www." or "ftp.") starts."""
    return 4 if reference[:4].lower() in ("www.", "ftp.") else reference.index(":") + 1


def _first_wrap(reference: str) -> int:
    """The first place where whitespace inside <...> is ignored: after the first letter of a registered scheme (all
    of REFERENCES'), after "www." or "ftp."."""
    return 4 if reference[:4].lower() in ("www.", "ftp.") else 1


def _check(text: str, start: int, raw: str, uri: str, delimiter: str, alternatives: tuple[str, ...]) -> None:
    found = [(ref.span(), ref.uri, ref.delimiter, ref.alternatives) for ref in linkkit.finditer(text)]
    assert found == [((start, start + len(raw)), uri, delimiter, alternatives)], text


def _streams_as_whole(text: str, size: int) -> None:
    chunks = [text[at : at + size] for at in range(0, len(text), size)]
    assert list(finditer_stream(chunks, chunk_size=size)) == list(linkkit.finditer(text)), (text, size)


@settings(database=None)
@given(st.sampled_from(REFERENCES), st.sampled_from(CONTEXTS), st.integers(1, 9))
def test_a_reference_reads_the_same_in_every_context(reference: str, context: tuple[str, str, str], size: int) -> None:
    before, after, delimiter = context
    text = before + reference + after
    _check(text, len(before), reference, _completed(reference), delimiter, ())
    _streams_as_whole(text, size)


@settings(database=None)
@given(st.sampled_from(REFERENCES), st.sampled_from([c for c in CONTEXTS if c[2] in ("angle", "url-prefix")
                                                     and c[0].endswith(("<", "<URL:", "<url: "))]),
       st.data(), st.sampled_from(_WRAPS), st.integers(1, 9))
def test_whitespace_inside_angle_brackets_is_ignored_anywhere_in_the_reference(
    reference: str, context: tuple[str, str, str], data: st.DataObject, wrap: str, size: int
) -> None:
    """RFC 2396 appendix E: inside <...> all whitespace is ignored; after a hyphen, a line break also gives the
    reading without the hyphen (rule 4)."""
    before, after, delimiter = context
    at = data.draw(st.integers(_first_wrap(reference), len(reference) - 1))
    raw = reference[:at] + wrap + reference[at:]
    hyphenated = reference[at - 1] == "-" and "\n" in wrap and at > _after_scheme(reference)
    alternatives = (_completed(reference[: at - 1] + reference[at:]),) if hyphenated else ()
    text = before + raw + after
    _check(text, len(before), raw, _completed(reference), delimiter, alternatives)
    _streams_as_whole(text, size)


_HYPHENATED = [r for r in REFERENCES if "-" in r[_after_scheme(r) :]]


@settings(database=None)
@given(st.sampled_from(_HYPHENATED), st.sampled_from(CONTEXTS), st.data(), st.sampled_from(_WRAPS[:4]),
       st.integers(1, 9))
def test_a_line_break_after_a_hyphen_continues_the_reference_in_every_context(
    reference: str, context: tuple[str, str, str], data: st.DataObject, wrap: str, size: int
) -> None:
    """RFC 2396 appendix E: a line break right after a hyphen; ``.uri`` keeps the hyphen, ``.alternatives`` holds
    the reading without it."""
    before, after, delimiter = context
    hyphens = [at + 1 for at, char in enumerate(reference) if char == "-" and at >= _after_scheme(reference)]
    at = data.draw(st.sampled_from(hyphens))
    rest = reference[at:]
    if _CONTINUES.match(rest) is None or _STARTS_A_REFERENCE.match(rest) is not None:
        return  # the next line is prose, or a reference of its own
    raw = reference[:at] + wrap + rest
    text = before + raw + after
    alternative = _completed(reference[: at - 1] + rest)
    _check(text, len(before), raw, _completed(reference), delimiter, (alternative,))
    _streams_as_whole(text, size)
