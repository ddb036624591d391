"""Rewriting changes the link values and not one other byte, on the hand-checked documents mutated at random.

Each document of corpora/html is mutated by seeded random edits of the kinds real pages and hostile input hold
(cut at any point, duplicated attributes, unquoted and single-quoted values, upper-case markup, stray "<",
unclosed comments, raw text and foreign content holding fake links, CDATA, NUL, CRLF, character references in
values) and written in one of several encodings (a BOM, windows-1252, UTF-16). On each mutant: the identity
rewrite returns the input byte for byte; a rewrite that changes every link (SUFFIX appended to its raw value)
changes nothing outside the links' spans but the quotes a valueless attribute gets, and reads back as those new
values; the same with the visible text's references, defanged ones too (``text=True, anchors=True,
refang=True``), and with what no reader is shown and iframe srcdoc documents as well (``hidden=True``: the
redaction path). The seeds are fixed: a failure names the document, the seed and the
mutations, and reproduces.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable

import pytest
from fixtures_loader import ROOT

from linkkit import html

CORPUS = ROOT / "corpora" / "html"
DOCUMENTS = json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))["documents"]
MUTANTS_PER_DOCUMENT = 12
BASE = "http://example.com/dir/page.html"
# Appended to every link: "&copy" and "&lt;" read back only if "&" is escaped where the place needs it.
SUFFIX = "#x&copy=1&lt;y"

# Markup inserted at a random point: each holds something the tokenizer must get right (13.2.5).
SNIPPETS = [
    "<", "< ", "a<b", "<3", "&", "&amp", "<!--", "<!-->", "<!--->", "--!>", "<!x>", "<?x?>", "</>", "</ x>", "\0",
    "<script>s='<a href=\"s.html\">'</script>", "<script><!--<script></script><a href=e.html>--></script>",
    "<style>p{b:url(st.png)}/* url(no.png) */</style>", "<textarea><a href='ta.html'></textarea>",
    "<title><img src=t.png></title>", "<template><a href=tp.html>t</a></template>", "<xmp><a href=x.html></xmp>",
    "<svg><a xlink:href='sv.html'/><use href=#u /></svg>", "<math><mi href=m.html>x</mi></math>",
    "<svg><style><![CDATA[a{fill:url(cd.png)}]]></style></svg>", "<![CDATA[<a href=c.html>]]>",
    "<a href='x\0y.html'>", "<a href=&#x68;ttp://e/&amp;q>", "<a href=\"?a=1&copy=2&#47;\">", "<a HREF=u Href=d>",
    "<img srcset='a.png 1x, b,c.png 2x'>", "<meta http-equiv=Refresh content=\"0; URL='r.html'\">",
    "<div style=\"background:url('d.png')\">", "<a href>", "<a href= >", "<a href=\"unterminated",
    "<p>see http://v.example/a?b=1&amp;c</p>", "<p>hxxp[:]//u:pw@evil[.]example/</p>",
]
# A start tag and its attributes (group 2), as the mutations below find them: not the tokenizer under test.
TAG = re.compile(
    r"<([A-Za-z][^\t\n\f\r />]*)"
    r"((?:[\t\n\f\r ]+[^\t\n\f\r />=]+(?:=(?:\"[^\"]*\"|'[^']*'|[^\t\n\f\r >]+))?)*)[\t\n\f\r ]*>"
)


def _insert(text: str, rng: random.Random) -> str:
    at = rng.randrange(len(text) + 1)
    return text[:at] + rng.choice(SNIPPETS) + text[at:]


def _cut(text: str, rng: random.Random) -> str:
    return text[: rng.randrange(len(text) + 1)]


def _crlf(text: str, rng: random.Random) -> str:
    return text.replace("\n", "\r\n")


def _on_tags(edit: Callable[[re.Match[str], random.Random], str]) -> Callable[[str, random.Random], str]:
    """A mutation that applies *edit* to about a third of the start tags."""

    def mutation(text: str, rng: random.Random) -> str:
        return TAG.sub(lambda tag: edit(tag, rng) if rng.random() < 0.3 else tag.group(), text)

    return mutation


def _upper(tag: re.Match[str], rng: random.Random) -> str:
    return re.sub(r"(^<\w+|\s[\w:-]+=)", lambda name: name.group().upper(), tag.group())


def _duplicate(tag: re.Match[str], rng: random.Random) -> str:
    names = re.findall(r"\s([\w:-]+)=", tag.group(2))
    return tag.group()[:-1] + f" {rng.choice(names)}=dup.html>" if names else tag.group()


def _single_quotes(tag: re.Match[str], rng: random.Random) -> str:
    return re.sub(r"=\"([^\"']*)\"", r"='\1'", tag.group())


def _unquoted(tag: re.Match[str], rng: random.Random) -> str:
    return re.sub(r"=\"([^\"'\s>=`<]+)\"", r"=\1", tag.group())


def _references(tag: re.Match[str], rng: random.Random) -> str:
    return tag.group().replace("/", rng.choice(["&#47;", "&sol;", "&#x2F;"])).replace("&#47;>", "/>")


MUTATIONS = {
    "insert": _insert, "cut": _cut, "crlf": _crlf, "upper": _on_tags(_upper), "duplicate": _on_tags(_duplicate),
    "single-quotes": _on_tags(_single_quotes), "unquoted": _on_tags(_unquoted), "references": _on_tags(_references),
}
# How a mutant is written: the bytes before the text, and the Python codec (None: the str itself).
ENCODINGS: dict[str, tuple[bytes, str | None]] = {
    "str": (b"", None), "utf-8": (b"", "utf-8"), "utf-8 BOM": (b"\xef\xbb\xbf", "utf-8"),
    "windows-1252": (b"", "cp1252"), "UTF-16LE BOM": (b"\xff\xfe", "utf-16-le"),
}


def _mutant(text: str, rng: random.Random) -> tuple[str | bytes, str | None, str]:
    """*text* mutated one to four times and encoded, its codec, and a description of what was done."""
    done = []
    for _ in range(rng.randint(1, 4)):
        name = rng.choice(sorted(MUTATIONS))
        text = MUTATIONS[name](text, rng)
        done.append(name)
    encoding = rng.choice(sorted(ENCODINGS))
    bom, codec = ENCODINGS[encoding]
    document = text if codec is None else bom + text.encode(codec, "replace")
    return document, codec, f"{'+'.join(done)} in {encoding}"


def _outside(document: str | bytes, codec: str | None, spans: list[tuple[int, int]]) -> list[str]:
    """The stretches of *document* (in *codec* when bytes) between the spans, each without the quotes and "=" an
    edit may add at its ends (a valueless attribute gets ``="..."``; an unquoted value that must be quoted gets
    quotes)."""
    pieces = []
    position = 0
    for start, end in [*spans, (len(document), len(document))]:
        piece = document[position:start]
        text = piece if isinstance(piece, str) else piece.decode(codec or "utf-8", "surrogateescape")
        pieces.append(text.rstrip("='\"").lstrip("'\""))
        position = end
    return pieces


def _check_rewrites(document: str | bytes, codec: str | None, options: dict[str, bool]) -> None:
    found = html.links(document, base_url=BASE, **options)
    assert html.rewrite(document, lambda link: link.raw, base_url=BASE, **options) == document
    result = html.rewrite(document, lambda link: link.raw + SUFFIX, base_url=BASE, **options)
    again = html.links(result, base_url=BASE, **options)
    assert [link.raw for link in again] == [link.raw + SUFFIX for link in found]
    spans_after, spans_before = [link.span() for link in again], [link.span() for link in found]
    assert _outside(result, codec, spans_after) == _outside(document, codec, spans_before)


@pytest.mark.parametrize("entry", DOCUMENTS, ids=[entry["document"] for entry in DOCUMENTS])
def test_mutated_documents_rewrite_only_their_link_values(entry: dict[str, str]) -> None:
    source = (CORPUS / entry["document"]).read_bytes()
    text = source.decode(entry.get("encoding") or "utf-8", "replace").removeprefix("\ufeff")
    for seed in range(MUTANTS_PER_DOCUMENT):
        document, codec, what = _mutant(text, random.Random(f"{entry['document']} {seed}"))
        for options in ({}, {"text": True, "anchors": True, "refang": True},
                        {"text": True, "anchors": True, "refang": True, "hidden": True}):
            try:
                _check_rewrites(document, codec, options)
            except AssertionError as error:
                raise AssertionError(f"{entry['document']} seed {seed}: {what} {options}") from error
