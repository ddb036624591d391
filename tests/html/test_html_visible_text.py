"""linkkit.html.links(..., text=True): the references written in the visible text, by the plain-text scanner's
policy, merged in document order with the links of the markup; rewriting them writes text."""

from __future__ import annotations

import pytest
from fixtures_loader import load_table
from hypothesis import given
from hypothesis import strategies as st

from linkkit import html
from linkkit.html.tokenizer import _decode
from linkkit.html.visible import _LATER, CDATA, ESCAPED, HIDDEN, RAW, VALUE, _run_text


def marked(document: str) -> tuple[str, list[tuple[int, int]]]:
    """*document* without its «...» marks, and the spans they marked."""
    spans, plain, start = [], [], 0
    for character in document:
        if character == "«":
            start = len(plain)
        elif character == "»":
            spans.append((start, len(plain)))
        else:
            plain.append(character)
    return "".join(plain), spans


@pytest.mark.parametrize(("document", "uris"), load_table("html/visible_text.txt"))
def test_visible_text_references(document: str, uris: str) -> None:
    text, spans = marked(document)
    found = [link for link in html.links(text, text=True) if link.tag == "#text"]
    assert [link.span() for link in found] == spans
    assert (" ".join(link.uri for link in found) or "-") == uris
    assert all(link.base is None and link.where.startswith("#text ") for link in found)
    # on bytes the spans are byte offsets of the same places
    data = text.encode("utf-8")
    found_bytes = [link for link in html.links(data, text=True, encoding="utf-8") if link.tag == "#text"]
    assert [link.span() for link in found_bytes] == [
        (len(text[:a].encode("utf-8")), len(text[:b].encode("utf-8"))) for a, b in spans
    ]
    # the option is off by default
    assert all(link.tag != "#text" for link in html.links(text))


@pytest.mark.parametrize(("document", "uris", "rewritten"), load_table("html/visible_text_refang.txt"))
def test_defanged_references_of_the_visible_text_with_refang(document: str, uris: str, rewritten: str) -> None:
    text, spans = marked(document)
    found = [link for link in html.links(text, text=True, refang=True) if link.tag == "#text"]
    assert [link.span() for link in found] == spans
    assert (" ".join(link.uri for link in found) or "-") == uris
    assert html.rewrite(text, lambda link: link.uri, text=True, refang=True) == rewritten
    assert html.rewrite(text, lambda link: link.raw, text=True, refang=True) == text
    data = text.encode("utf-8")
    assert html.rewrite(data, lambda link: link.uri, text=True, refang=True) == rewritten.encode("utf-8")
    # off by default: no defanged spelling is read back
    assert not {link.uri for link in html.links(text, text=True)} & set(uris.split())


@pytest.mark.parametrize(("document", "suffix", "codec", "rewritten"), load_table("html/visible_text_rewrite.txt"))
def test_a_new_text_value_is_written_for_its_run(document: str, suffix: str, codec: str, rewritten: str) -> None:
    def repl(link: html.Link) -> str:
        return link.raw + suffix if link.tag == "#text" else link.raw

    if codec == "str":
        assert html.rewrite(document, repl, text=True) == rewritten
    else:
        assert html.rewrite(document.encode(codec), repl, text=True) == rewritten.encode(codec)


def test_redaction_reaches_a_defanged_password_in_the_text_with_refang() -> None:
    from linkkit.security.redact import Redaction, replacer

    document = b'<p>C2: hxxp[:]//bot:pw@evil[.]example/</p><a href="http://u:pw2@h.example/">hxxp://u:pw2@h[.]example/</a>'
    redacted = html.rewrite(document, replacer(Redaction.of()), text=True, anchors=True, refang=True)
    assert redacted == (b'<p>C2: hxxp[:]//bot:***@evil[.]example/</p><a href="http://u:***@h.example/">'
                        b"hxxp://u:***@h[.]example/</a>")


def test_an_anchors_text_is_read_only_when_asked_for() -> None:
    document = '<a href="http://a.example/">see http://a.example/ &amp; www.b.example</a> http://c.example/'
    assert [link.uri for link in html.links(document, text=True) if link.tag == "#text"] == ["http://c.example/"]
    found = [link for link in html.links(document, text=True, anchors=True) if link.tag == "#text"]
    assert [(link.uri, link.span()) for link in found] == [
        ("http://a.example/", (32, 49)), ("http://www.b.example", (56, 69)), ("http://c.example/", (74, 91))]
    new = html.rewrite(document, lambda link: link.uri.upper(), text=True, anchors=True)
    assert new == ('<a href="HTTP://A.EXAMPLE/">see HTTP://A.EXAMPLE/ &amp; HTTP://WWW.B.EXAMPLE</a> '
                   "HTTP://C.EXAMPLE/")
    assert html.rewrite(document, lambda link: link.uri.upper(), text=True).count("http://a.example/") == 1


def test_text_links_merge_with_attribute_links_in_document_order() -> None:
    document = '<base href="http://b.example/"><p>see http://one.example/ <img src="i.png"> www.example.org/two'
    links = html.links(document, text=True)
    assert [(link.where, link.uri) for link in links] == [
        ("base href", "http://b.example/"),
        ("#text bare", "http://one.example/"),
        ("img src", "http://b.example/i.png"),
        ("#text bare", "http://www.example.org/two"),
    ]


def test_rewriting_a_text_link_writes_text() -> None:
    document = "<p>see &lt;http://a.example/?a&amp;b&gt; and http://b.example/</p>"
    new = html.rewrite(document, lambda link: link.uri.replace("http:", "hxxp:") + "&<>", text=True)
    assert new == "<p>see &lt;hxxp://a.example/?a&amp;b&amp;&lt;&gt;&gt; and hxxp://b.example/&amp;&lt;&gt;</p>"
    assert html.rewrite(document, lambda link: link.raw, text=True) == document


def test_absolutize_leaves_the_visible_text_alone() -> None:
    document = "<p>www.example.org/x <a href=y>z</a>"
    assert html.absolutize(document, "http://b.example/") == "<p>www.example.org/x <a href=http://b.example/y>z</a>"


HTMLISH = st.lists(
    st.one_of(
        st.sampled_from(["<a href=x>", "</a>", "<a name=n>", "<p>", "<script>", "</script>", "<!--", "-->", "<title>",
                         "</title>", "<textarea>", "</textarea>", "<plaintext>", "&amp;", "&lt;", "&eacute;", "&#x41;",
                         "http://a.example/", "www.example.org", "<", ">", "\r\n", "-\n ", " ", '"', "<img src=",
                         "<template>", "</template>", "<xmp>", "\u00e9"]),
        st.text(max_size=5),
    ),
    max_size=25,
).map("".join)


@given(HTMLISH, st.sampled_from(["utf-8", "windows-1252", "utf-16-le", "shift_jis"]))
def test_text_option_never_raises_and_identity_is_byte_for_byte(document: str, codec: str) -> None:
    for doc in (document, document.encode(codec, "replace")):
        links = html.links(doc, text=True)
        assert all(0 <= link.start() <= link.end() <= len(doc) for link in links)
        assert [link.start() for link in links] == sorted(link.start() for link in links)
        assert html.rewrite(doc, lambda link: link.raw, text=True) == doc
        html.rewrite(doc, lambda link: link.uri + "&<\u20ac", text=True)


@given(HTMLISH, st.sampled_from(["utf-8", "cp1252", "gbk", "shift_jis", None]),
       st.sampled_from([ESCAPED, RAW, CDATA, HIDDEN, VALUE]))
def test_a_run_read_without_its_offsets_reads_as_with_them(document: str, codec: str | None, written: str) -> None:
    """A run of text that holds no reference is read without its offsets (most runs of a page), which are taken only
    when a reference lies in it: its text must be the one read with them, and those offsets the same."""
    view = document if codec is None else document.encode(codec, "replace").decode("latin-1")
    text, offsets = _run_text(view, 0, len(view), codec, written)
    read = _decode(view, 0, len(view), codec, written in (ESCAPED, VALUE), in_text=written == ESCAPED)
    assert text == read[0]
    assert offsets is _LATER or offsets == read[1]


HIDDEN_HTMLISH = st.lists(
    st.one_of(
        st.sampled_from(["<iframe srcdoc=", "<iframe srcdoc='", "<iframe srcdoc=\"", "&lt;a href=", "&quot;", "&amp;",
                         "'", '"', "<img alt=", " title=", "<!--", "-->", "--!>", "<!x", "<?", "<![CDATA[", "]]>",
                         "<svg>", "<style>", "</style>", "<script>", "</script>", "<title>", "</title>", "<template>",
                         "</template>", "<a href=", "</a>", ">", "http://u:pw@h.example/", "www.example.org/?t=1",
                         "hxxp[:]//u:pw@e[.]example/", " ", "\r\n", "\u00e9"]),
        st.text(max_size=4),
    ),
    max_size=30,
).map("".join)


@given(HIDDEN_HTMLISH, st.sampled_from(["utf-8", "windows-1252", "utf-16-le"]))
def test_hidden_text_identity_is_byte_for_byte_and_adds_to_the_links(document: str, codec: str) -> None:
    # hidden=True (redaction's reach) reads more text and srcdoc documents: an identity rewrite still copies every
    # byte, the links are in document order within the input, and every link found without it is found with it
    for doc in (document, document.encode(codec, "replace")):
        options = {"text": True, "anchors": True, "refang": True}
        found = html.links(doc, hidden=True, **options)
        assert all(0 <= link.start() <= link.end() <= len(doc) for link in found)
        assert [link.start() for link in found] == sorted(link.start() for link in found)
        seen = {(link.span(), link.raw) for link in found}
        if "<template" not in document:  # without hidden a template is passed over to the first "</template" written
            assert all((link.span(), link.raw) in seen for link in html.links(doc, **options))
        assert html.rewrite(doc, lambda link: link.raw, hidden=True, **options) == doc
        html.rewrite(doc, lambda link: link.raw + "&<>'\"\u20ac", hidden=True, **options)
