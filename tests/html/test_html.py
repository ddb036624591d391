"""linkkit.html: the places, the tokenizer, the base, resolution and byte-preserving rewriting."""

from __future__ import annotations

import json
import signal
from typing import Any
from unittest import mock

import lxml.etree  # type: ignore[import-untyped]
import lxml.html  # type: ignore[import-untyped]
import pytest
from bs4 import BeautifulSoup
from fixtures_loader import FIXTURES

import linkkit
from linkkit.errors import ResolutionError
from linkkit.html import Link, absolutize, encoding, links, rewrite, rewrite_lxml, rewrite_soup


def load_cases(name: str) -> list[Any]:
    """A JSON Lines fixture of tests/fixtures/html, one case per line, as pytest params named by their case."""
    lines = (FIXTURES / "html" / name).read_text(encoding="utf-8").splitlines()
    return [pytest.param(case, id=case["case"]) for case in map(json.loads, filter(None, lines))]


def unmark(marked: str) -> tuple[str, list[tuple[int, int]]]:
    """The input without its « » marks, and the span each pair of marks encloses."""
    pieces, spans, length = [], [], 0
    for index, piece in enumerate(marked.split("«")):
        if index:
            inner, piece = piece.split("»", 1)
            spans.append((length, length + len(inner)))
            pieces.append(inner)
            length += len(inner)
        pieces.append(piece)
        length += len(piece)
    return "".join(pieces), spans


def replacer(case: dict[str, Any]) -> Any:
    table = case.get("repl")
    return (lambda link: link.uri) if table is None else (lambda link: table.get(link.raw, link.raw))


@pytest.mark.parametrize("case", load_cases("links.jsonl"))
def test_links_are_found_where_the_issue_says(case: dict[str, Any]) -> None:
    html, spans = unmark(case["html"])
    found = links(html, base_url=case["base"], **case.get("options", {}))
    assert [[link.tag, link.attr, link.raw, link.uri] for link in found] == case["links"]
    assert [link.span() for link in found] == spans


@pytest.mark.parametrize("case", load_cases("links.jsonl"))
def test_links_in_bytes_have_byte_spans(case: dict[str, Any]) -> None:
    html, spans = unmark(case["html"])
    data = html.encode("utf-8")
    found = links(data, base_url=case["base"], **case.get("options", {}))
    assert [[link.tag, link.attr, link.raw, link.uri] for link in found] == case["links"]
    assert [link.span() for link in found] == [(len(html[:a].encode()), len(html[:b].encode())) for a, b in spans]


@pytest.mark.parametrize("case", load_cases("rewrite.jsonl"))
def test_rewrite_changes_only_the_urls(case: dict[str, Any]) -> None:
    options = case.get("options", {})  # the visible text's options (text, anchors, refang, hidden)
    result = rewrite(case["html"], replacer(case), base_url=case.get("base"), **options)
    assert result == case["expected"]
    data = rewrite(case["html"].encode("utf-8"), replacer(case), base_url=case.get("base"), **options)
    assert data == case["expected"].encode("utf-8")


@pytest.mark.parametrize("case", load_cases("encodings.jsonl"))
def test_bytes_are_read_and_written_in_the_documents_encoding(case: dict[str, Any]) -> None:
    html, spans = unmark(case["html"])
    codec, encoding = case["codec"], case.get("encoding")
    data = html.encode(codec)
    found = links(data, base_url=case.get("base"), encoding=encoding)
    assert [link.raw for link in found] == case["links"]
    byte_spans = [(len(html[:a].encode(codec)), len(html[:b].encode(codec))) for a, b in spans]
    assert [link.span() for link in found] == byte_spans
    result = rewrite(data, replacer(case), base_url=case.get("base"), encoding=encoding)
    assert result == case["expected"].encode(codec)


@pytest.mark.parametrize("case", load_cases("links.jsonl") + load_cases("rewrite.jsonl"))
def test_identity_rewrite_returns_the_input_unchanged(case: dict[str, Any]) -> None:
    html = unmark(case["html"])[0]
    options = case.get("options", {})
    assert rewrite(html, lambda link: link.raw, base_url=case.get("base"), **options) == html
    assert rewrite(html.encode(), lambda link: link.raw, base_url=case.get("base"), **options) == html.encode()


def test_result_has_the_type_of_the_document() -> None:
    assert isinstance(absolutize("<a href=x>", "http://e.com/"), str)
    assert isinstance(absolutize(b"<a href=x>", "http://e.com/"), bytes)


def test_undecodable_bytes_of_a_url_are_u_fffd_in_raw_and_kept_when_untouched() -> None:
    data = b"<meta charset=utf-8><a href=a\xff><a href=b\xfe\xfd>"
    assert [link.raw for link in links(data)] == ["a\ufffd", "b\ufffd\ufffd"]
    assert rewrite(data, lambda link: link.raw) == data
    replacement = "\ufffd".encode()
    expected = b"<meta charset=utf-8><a href=http://e.com/a%s><a href=http://e.com/b%s%s>" % ((replacement,) * 3)
    assert absolutize(data, "http://e.com/") == expected


def test_invalid_bytes_outside_urls_are_copied() -> None:
    data = b"\x80\xff<p>\x80\x00\xc3</p><a href=x>\r\n\xe9"
    assert absolutize(data, "http://e.com/") == b"\x80\xff<p>\x80\x00\xc3</p><a href=http://e.com/x>\r\n\xe9"


def test_malformed_stateful_and_utf16_documents_neither_raise_nor_move_a_span() -> None:
    """Regression: b"\\xff\\xfe<" crashed, and UTF-7 offsets made absolutize overwrite an end tag."""
    assert links(b"\xff\xfe<") == [] and absolutize(b"\xff\xfe<", "http://h/") == b"\xff\xfe<"
    assert absolutize(b"\xc3\xa9<a href=x>y</a>", "http://h/", encoding="utf-7") == b"\xc3\xa9<a href=http://h/x>y</a>"
    for codec, bad in (("iso2022_jp", b"\x1b$B"), ("hz", b"~{"), ("utf-7", b"+")):
        assert absolutize(bad + b"<a href=x>", "http://h/", encoding=codec) == bad + b"<a href=x>"  # all one run
        data = '<p>日本</p><a href="日本">'.encode(codec) + b"\xff"
        (link,) = links(data, base_url="http://h/", encoding=codec)
        assert data[link.span()[0] : link.span()[1]].decode(codec) == "日本"
        result = absolutize(data, "http://h/", encoding=codec)  # UTF-7 may end a run with "-" where it need not
        assert result[:-1].decode(codec) == '<p>日本</p><a href="http://h/日本">' and result.endswith(b"\xff")


def test_an_encoding_argument_that_is_no_text_encoding_is_an_error_naming_it() -> None:
    with pytest.raises(LookupError, match="'rot13' is not a text encoding"):
        links(b"<a href=x>", encoding="rot13")
    assert links(b'<meta charset="base64"><a href=x>')[0].raw == "x"  # a <meta> naming one is ignored


def test_relative_link_without_base_is_reported_relative() -> None:
    (link,) = links("<a href=../x>")
    assert link.is_relative and link.uri == "../x" and link.base is None
    (link,) = links("<a href=../x>", base_url="http://e.com/a/b")
    assert not link.is_relative and link.base == "http://e.com/a/b"


def test_base_href_is_resolved_against_the_retrieval_url_and_links_against_the_base() -> None:
    base_link, other = links('<base href="sub/"><a href=x>', base_url="http://e.com/d/p")
    assert (base_link.uri, base_link.base) == ("http://e.com/d/sub/", "http://e.com/d/p")
    assert (other.uri, other.base) == ("http://e.com/d/sub/x", "http://e.com/d/sub/")


def test_a_base_url_without_scheme_is_an_error() -> None:
    with pytest.raises(ResolutionError, match="no scheme"):
        links("<a href=x>", base_url="/relative/base")


def test_an_unknown_encoding_label_is_an_error_naming_it() -> None:
    with pytest.raises(LookupError, match="no-such-encoding"):
        links(b"<a href=x>", encoding="no-such-encoding")


def test_the_encodings_taken_as_ascii_supersets_untested_pass_the_test() -> None:
    for codec in encoding._ASCII_SUPERSETS:
        encoding._is_ascii_compatible.cache_clear()
        with mock.patch.object(encoding, "_ASCII_SUPERSETS", frozenset()):
            assert encoding._is_ascii_compatible(codec)
    encoding._is_ascii_compatible.cache_clear()


def test_a_document_that_is_neither_bytes_nor_str_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="bytes or str"):
        links(42)  # type: ignore[arg-type]


def test_links_are_immutable_values() -> None:
    (link,) = links("<a href=x>", base_url="http://e.com/")
    assert link == Link("a", "href", "x", "http://e.com/x", (8, 9), "http://e.com/")
    with pytest.raises(AttributeError):
        link.raw = "y"  # type: ignore[misc]


def test_html_module_is_reachable_from_the_package() -> None:
    assert linkkit.html.links is links


TREE = (
    '<html><head><base href="../b/"><meta http-equiv=refresh content="1; url=n.html">'
    "<style>p{background:url(bg.png)}</style></head><body><a href='a.html?x=1&amp;y=2' ping='p q'>a</a>"
    '<img srcset="s.png 1x, t.png 2x"><template><base href="http://t.example/"></template>'
    '<svg><use xlink:href="#i"/></svg><div style="background:url(d.png)"></div></body></html>'
)
TREE_URIS = [
    "http://e.com/b/", "http://e.com/b/n.html", "http://e.com/b/bg.png", "http://e.com/b/a.html?x=1&y=2",
    "http://e.com/b/p", "http://e.com/b/q", "http://e.com/b/s.png", "http://e.com/b/t.png", "http://t.example/",
    "http://e.com/b/#i", "http://e.com/b/d.png",
]


def recording(seen: list[str]) -> Any:
    """A repl that absolutizes and records each target it is asked about."""

    def repl(link: Link) -> str:
        seen.append(link.uri)
        return link.uri

    return repl


def test_rewrite_lxml_rewrites_the_same_places_against_the_same_base() -> None:
    seen: list[str] = []
    tree = lxml.html.document_fromstring(TREE)
    rewrite_lxml(tree, recording(seen), base_url="http://e.com/d/p")
    assert sorted(seen) == sorted(TREE_URIS)
    assert [link.uri for link in links(TREE, base_url="http://e.com/d/p")] == TREE_URIS
    assert tree.xpath("//a/@ping") == ["http://e.com/b/p http://e.com/b/q"]
    assert tree.xpath("//style/text()") == ["p{background:url(http://e.com/b/bg.png)}"]


def test_rewrite_soup_rewrites_the_same_places_against_the_same_base() -> None:
    seen: list[str] = []
    soup = BeautifulSoup(TREE, "html.parser")
    rewrite_soup(soup, recording(seen), base_url="http://e.com/d/p")
    assert sorted(seen) == sorted(TREE_URIS)
    assert soup.select_one("img")["srcset"] == "http://e.com/b/s.png 1x, http://e.com/b/t.png 2x"  # type: ignore[index]
    assert soup.select_one("meta")["content"] == "1; url=http://e.com/b/n.html"  # type: ignore[index]
    assert soup.select_one("div")["style"] == "background:url(http://e.com/b/d.png)"  # type: ignore[index]


def test_tree_rewriting_leaves_unchanged_values_alone() -> None:
    soup = BeautifulSoup('<a href="x">', "html.parser")
    rewrite_soup(soup, lambda link: link.raw)
    assert str(soup) == '<a href="x"></a>'


ADVERSARIAL = [
    "<a " + "a=" * 50000,
    "<a href='" * 50000,
    "<!--" + "-" * 50000,
    "<style>" + "url(" * 50000,
    "<script>" + "<!--<script>" * 5000,
    "<img srcset='a " + "(" * 50000 + "'>",
    "<style>/*" + "*" * 50000,
    "<svg>" + "<g>" * 50000,
    "<" * 50000 + "</" * 50000,
    "<a" + " b" * 50000,
    "<meta http-equiv=refresh content='" + "1" * 50000 + "; url=" + "u" * 50000 + "'>",
]


@pytest.mark.parametrize("document", ADVERSARIAL, ids=range(len(ADVERSARIAL)))
def test_adversarial_markup_finishes_in_linear_time(document: str) -> None:
    def give_up(signum: int, frame: Any) -> None:
        raise TimeoutError("more than 30 s on 100 kB: the tokenizer backtracks")

    previous = signal.signal(signal.SIGALRM, give_up)
    signal.alarm(30)
    try:
        assert rewrite(document.encode(), lambda link: link.raw) == document.encode()
        assert len(links(document, base_url="http://e.com/")) <= 1
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_rewrite_lxml_reads_namespaced_xhtml_svg_and_xlink() -> None:
    xhtml = (
        b'<html xmlns="http://www.w3.org/1999/xhtml" xmlns:xlink="http://www.w3.org/1999/xlink"><body>'
        b'<a href="a.html">a</a><svg xmlns="http://www.w3.org/2000/svg"><use xlink:href="#i"/></svg></body></html>'
    )
    tree = lxml.etree.fromstring(xhtml)
    rewrite_lxml(tree, lambda link: link.uri, base_url="http://e.com/d/")
    assert tree.xpath("//@href") == ["http://e.com/d/a.html"]
    assert tree.xpath("//@xl:href", namespaces={"xl": "http://www.w3.org/1999/xlink"}) == ["http://e.com/d/#i"]


# One document per place kind; "x" is the URL a new value replaces.
PLACE_DOCUMENTS = [
    '<a href="x">', "<a href='x'>", "<a href=x>", "<a href>", '<a ping="x y">', "<a ping=x>", '<div itemtype="x">',
    '<img srcset="x 1x, y 2x">', "<img srcset=x>", '<meta http-equiv=refresh content="0; url=x">',
    "<meta http-equiv=refresh content=\"0; url='x'\">", "<meta http-equiv=refresh content=0;url=x>",
    '<p style="b:url(x)">', "<p style=\"b:url('x')\">", "<style>p{b:url(x)}</style>", '<style>p{b:url("x")}</style>',
    "<style>@import 'x';</style>",
]
NEW_VALUES = ["a b", "a,b", "a, b", "a'b", 'a"b', "a\0b", "a&amp;b", "a<b", "</style>", " a", "a ", "a\tb", "a\nb",
              ",a", "a,", "a(b)", "a;b", "url=a", "a\\b", "'a'", "1x", "日本", "a\rb"]
# What each kind of place cannot hold, percent-encoded (the README's "Rewriting" section says which).
HELD = {
    "a b": {"ping": "a%20b", "itemtype": "a%20b", "srcset": "a%20b"},
    "a, b": {"ping": "a,%20b", "itemtype": "a,%20b", "srcset": "a,%20b"},
    "a'b": {"content": "a%27b"}, 'a"b': {"content": "a%22b"}, "'a'": {"content": "%27a%27"},
    "a\tb": {"ping": "a%09b", "itemtype": "a%09b", "srcset": "a%09b"},
    "a\nb": {"ping": "a%0Ab", "itemtype": "a%0Ab", "srcset": "a%0Ab"},
    ",a": {"srcset": "%2Ca"}, "a,": {"srcset": "a%2C"},
}


def expected_read_back(value: str, attr: str | None) -> str:
    if value == "a\0b":
        return "a%00b"
    if value in (" a", "a "):
        return value.replace(" ", "%20")
    if value == "a\rb" and attr in ("ping", "itemtype", "srcset"):
        return "a%0Db"
    return HELD.get(value, {}).get(attr or "", value)


@pytest.mark.parametrize("document", PLACE_DOCUMENTS)
@pytest.mark.parametrize("value", NEW_VALUES)
def test_a_new_value_reads_back_as_itself_or_percent_encoded_in_every_place(document: str, value: str) -> None:
    """A ' in a refresh URL, spaces and commas in srcset and ping, a NUL: each read back as written."""
    for data in (document, document.encode()):
        result = rewrite(data, lambda link: value if link.raw == "x" else link.raw)  # type: ignore[type-var]
        before, after = links(data), links(result)
        assert [link.raw for link in after] == [
            expected_read_back(value, link.attr) if link.raw == "x" else link.raw for link in before
        ]


def serializer_keeps(tree: str, document: str, value: str) -> bool:
    """Whether the tree's serializer writes *value* in *document*'s place as it is: both write a CR literally (read
    back as LF, 13.2.3.5), and lxml's (libxml2's) percent-encodes spaces, controls and non-ASCII in an href."""
    return "\r" not in value and not (tree == "lxml" and "href" in document)


@pytest.mark.parametrize("document", PLACE_DOCUMENTS)
@pytest.mark.parametrize("value", NEW_VALUES)
def test_tree_rewriters_hold_a_new_value_as_rewrite_does(document: str, value: str) -> None:
    """The tree adapters percent-encode what a place cannot hold and keep "</" out of <style> text, as rewrite does:
    a srcset candidate with a space, a ' in a quoted refresh URL read back wrong once the tree was serialized."""
    expected = [expected_read_back(value, link.attr) if link.raw == "x" else link.raw for link in links(document)]

    def repl(link: Link) -> str:
        return value if link.raw == "x" else link.raw

    soup = BeautifulSoup(document, "html.parser")
    tree = lxml.html.fragment_fromstring(document, create_parent="div")
    for name, serialized in (("soup", lambda: str(rewrite_soup(soup, repl))),
                             ("lxml", lambda: lxml.html.tostring(rewrite_lxml(tree, repl), encoding="unicode"))):
        if serializer_keeps(name, document, value):
            assert [link.raw for link in links(serialized())] == expected, name


def test_tree_rewriters_keep_a_bare_refresh_url_from_reading_as_url_equals() -> None:
    document = '<meta http-equiv=refresh content="0; x">'
    soup = BeautifulSoup(document, "html.parser")
    rewrite_soup(soup, lambda link: "url=y")
    assert soup.select_one("meta")["content"] == "0; %75rl=y"  # type: ignore[index]


def test_an_empty_value_where_a_list_would_lose_it_is_an_error() -> None:
    with pytest.raises(ValueError, match="empty URL cannot be written in a srcset"):
        rewrite('<img srcset="x 1x">', lambda link: "")
    assert rewrite('<a href="x">', lambda link: "") == '<a href="">'


def test_tree_rewriters_ignore_a_javascript_base_and_resolve_every_base_against_the_retrieval_url() -> None:
    document = '<base href="javascript:x"><base href="b/"><a href="y">'
    for rewrite_tree, tree in ((rewrite_lxml, lxml.html.fromstring(document)),
                               (rewrite_soup, BeautifulSoup(document, "html.parser"))):
        seen: list[str] = []
        rewrite_tree(tree, recording(seen), base_url="http://e.com/d/p")
        assert seen == ["javascript:x", "http://e.com/d/b/", "http://e.com/d/y"]


# CSS Syntax 3, 4.3.7: a reader takes one whitespace after a hex escape as part of the escape, so each escape the
# rewriter writes before a space gets a space of its own: every new value reads back as itself.
@pytest.mark.parametrize(
    ("document", "new"),
    [
        (b"<style>@import 'x';</style>", "http://e.example/a\n b"),  # "\n" escaped in a CSS string
        (b"<style>a{background:url(x)}</style>", "http://e.example/a\tb c"),  # whitespace escaped in url()
        (b"<style>@import 'x';</style>", "http://e.example/</style> b"),  # "<" escaped where "</style" would end it
        (b'<div style="background:url(x)">', "http://e.example/a\n\n b"),
    ],
)
def test_a_css_escape_before_whitespace_keeps_that_whitespace(document: bytes, new: str) -> None:
    rewritten = rewrite(document, lambda link: new)
    assert [link.raw for link in links(rewritten)] == [new]


def test_a_meta_x_user_defined_is_read_as_windows_1252() -> None:
    # HTML 13.2.3.2, the prescan: "If charset is x-user-defined, then set charset to windows-1252."
    document = b'<meta charset="X-User-Defined"><a href="caf\x92">x</a>'
    assert [link.raw for link in links(document)] == ["caf\u2019"]


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ("<style>a{}</STYLE ><a href=x>", [("a", "href", "x")]),  # ASCII upper case ends it
        ("<style></\u017ftyle><a href=x>{b:url(y)}</style>", [("style", None, "y")]),  # U+017F is no "s"
        ("<noframes></noframe\u017f><a href=x></noframes>", []),
        ("<script></SCRIPT/><a href=x>", [("a", "href", "x")]),
        ("<script></\u017fcript><a href=x></script>", []),
        ("<script><!--<\u017fcript></script><a href=x>", [("a", "href", "x")]),  # no double escape either
    ],
)
def test_raw_text_ends_at_its_name_in_ascii_case_only(document: str, expected: list[tuple[str, str, str]]) -> None:
    """HTML 13.2.5.11 (and 13.2.5.3, 13.2.5.4-31): an "appropriate end tag" names the element, compared ASCII
    case-insensitively (13.2.5.8 lowers ASCII upper alpha alone), so U+017F LATIN SMALL LETTER LONG S, which
    Unicode case folding takes for "s", does not end <style>, <noframes> or <script>."""
    assert [(link.tag, link.attr, link.raw) for link in links(document)] == expected
