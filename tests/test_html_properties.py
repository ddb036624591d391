"""Invariants of linkkit.html on any HTML-ish input: links never raises, the identity rewrite is byte-identical,
and a rewrite changes nothing but the URLs."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from linkkit.html import absolutize, links, rewrite

NAMES = st.sampled_from(
    ["a", "A", "img", "IMG", "link", "base", "meta", "style", "script", "svg", "math", "use", "template", "title",
     "textarea", "xmp", "iframe", "noscript", "plaintext", "source", "video", "form", "div", "td", "image", "p",
     "foreignObject", "mi", "object", "blockquote"]
)
ATTRIBUTES = st.sampled_from(
    ["href", "HREF", "src", "srcset", "imagesrcset", "ping", "style", "itemtype", "itemid", "xlink:href",
     "http-equiv", "content", "charset", "action", "poster", "cite", "data", "background", "class", "=", "/"]
)
VALUES = st.lists(
    st.sampled_from(
        ["x.html", "../a", "#f", "", " ", "a b", "http://h/a/../b", "mailto:m", "&amp;", "&copy=", "&#x2F;",
         "&#0;", "&quot", "1x", ",", "url(", ")", "'", '"', "refresh", "5; url=", "@import ", "/*", "*/", "\\",
         "<", ">", "日本", "é", "\t", "\r\n", "charset=shift_jis", "<!--", "-->", "</script>", "]]>"]
    ),
    max_size=6,
).map("".join)


@st.composite
def attribute(draw: st.DrawFn) -> str:
    name, value = draw(ATTRIBUTES), draw(VALUES)
    form = draw(st.sampled_from(["{n}", "{n}={v}", '{n}="{v}"', "{n}='{v}'", "{n} = '{v}'"]))
    return form.format(n=name, v=value)


@st.composite
def tag(draw: st.DrawFn) -> str:
    name = draw(NAMES)
    attributes = draw(st.lists(attribute(), max_size=4))
    end = draw(st.sampled_from([">", "/>", " >", ""]))
    slash = draw(st.sampled_from(["", "", "/"]))
    return f"<{slash}{name}{''.join(' ' + a for a in attributes)}{end}"


PIECES = st.one_of(
    tag(),
    VALUES,
    st.sampled_from(["<!-->", "<!--->", "<!-- x -->", "<!--", "--!>", "<!DOCTYPE html>", "<?x>", "<![CDATA[", "</>",
                     "</ x>", "<", "&", "\ufeff", "p{b:url(a.png)}", "@import 'i.css';"]),
)
DOCUMENTS = st.lists(PIECES, max_size=20).map("".join)
ENCODINGS = st.sampled_from(["utf-8", "cp1252", "shift_jis", "utf-16-le"])
BYTES = st.one_of(
    st.binary(max_size=200),
    st.tuples(DOCUMENTS, ENCODINGS).map(lambda pair: pair[0].encode(pair[1], "replace")),
    st.tuples(DOCUMENTS, st.binary(max_size=8)).map(lambda pair: pair[0].encode("utf-8") + pair[1]),
)


@given(DOCUMENTS)
def test_identity_rewrite_of_any_text_is_the_text(document: str) -> None:
    assert rewrite(document, lambda link: link.raw, base_url="http://e.com/d/p") == document


@given(BYTES)
def test_identity_rewrite_of_any_bytes_is_the_bytes(document: bytes) -> None:
    assert rewrite(document, lambda link: link.raw, base_url="http://e.com/d/p") == document
    assert rewrite(document, lambda link: link.raw) == document


@given(BYTES)
def test_links_never_raises_and_spans_lie_in_the_input(document: bytes) -> None:
    found = links(document, base_url="http://e.com/d/p")
    assert all(0 <= link.span[0] <= link.span[1] <= len(document) for link in found)
    assert [link.span for link in found] == sorted(link.span for link in found)


@given(DOCUMENTS)
def test_rewriting_changes_nothing_outside_the_urls(document: str) -> None:
    found = links(document, base_url="http://e.com/d/p")
    result = rewrite(document, lambda link: "NEW", base_url="http://e.com/d/p")
    starts = [0] + [link.span[1] for link in found]
    ends = [link.span[0] for link in found] + [len(document)]
    position = 0
    for start, end in zip(starts, ends):  # each stretch between URLs survives, in order (quotes may be added)
        kept = document[start:end]
        assert kept in result[position:]
        position = result.index(kept, position) + len(kept)


@given(DOCUMENTS)
def test_absolutized_links_are_absolute_and_found_again(document: str) -> None:
    result = absolutize(document, "http://e.com/d/p")
    again = links(result, base_url="http://e.com/d/p")
    assert [link.uri for link in again] == [link.uri for link in links(document, base_url="http://e.com/d/p")]
