"""``.flags`` on every found link (a text Reference, an HTML Link, a MailLink): the flags of its ``uri`` in its
context, computed only when read and kept; an identity rewrite that reads them is byte-identical."""

from __future__ import annotations

import importlib
import pickle

from hypothesis import given
from hypothesis import strategies as st

import linkkit
from linkkit import html, mail

# The module (linkkit.security.flags, the attribute, is the function it defines).
flags_module = importlib.import_module("linkkit.security.flags")

TEXT = "see http://user:pw@0x7f.1/ and <http://www.example.com@evil.example/> and https://example.org/"
HTML = (b"<a href='java&#x09;script:alert(1)'>x</a><img src='http://u:p@h.example/'>"
        b"<p>visible http://p\xd0\xb0ypal.example/ text</p>")
MESSAGE = (b"Content-Type: multipart/alternative; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\n"
           b"http://u:p@h.example/ and https://example.org/\r\n--b\r\nContent-Type: text/html\r\n\r\n"
           b"<a href=\"vbscript:msgbox(1)\">x</a>\r\n--b--\r\n")


def test_text_references_carry_their_flags() -> None:
    refs = list(linkkit.finditer(TEXT))
    assert [[f.name for f in ref.flags] for ref in refs] == [
        ["userinfo", "password", "rare-ip-form"], ["userinfo", "deceptive-userinfo"], []
    ]
    assert refs[0].flags == linkkit.flags(refs[0].uri)


def test_flags_are_computed_when_read_and_kept() -> None:
    refs = list(linkkit.finditer(TEXT))
    links = html.links(HTML, text=True)
    mail_links = mail.links(MESSAGE)
    # Finding links computes no flag: the cache of each is empty until .flags is read.
    assert [getattr(ref, "_flags", None) for ref in refs] == [None] * len(refs)
    assert [link._flags for link in [*links, *mail_links]] == [None] * (len(links) + len(mail_links))
    for link in [*links, *mail_links]:
        first = link.flags
        assert link.flags is first and link._flags is first
    for ref in refs:
        first = ref.flags
        assert ref.flags == first == linkkit.flags(ref.uri)
        if first:  # kept; a plain-shaped URI (no flag possible) is answered by one match each time instead
            assert ref.flags is first and getattr(ref, "_flags", None) is first
        else:
            assert flags_module.is_plain(ref.uri)


def test_flags_leave_equality_hashing_and_pickling_alone() -> None:
    ref, again = next(linkkit.finditer(TEXT)), next(linkkit.finditer(TEXT))
    assert ref.flags and ref == again and hash(ref) == hash(again)
    assert pickle.loads(pickle.dumps(ref)) == ref
    link, other = html.links(HTML)[0], html.links(HTML)[0]
    assert link.flags and link == other and "_flags" not in repr(link)


def test_html_links_are_judged_as_html_and_visible_text_as_text() -> None:
    links = html.links(HTML, text=True)
    assert [(link.where, [f.name for f in link.flags]) for link in links] == [
        ("a href", ["active-scheme"]),
        ("img src", ["userinfo", "password"]),
        ("#text bare", ["mixed-script", "confusable"]),
    ]


def test_mail_links_are_judged_as_mail() -> None:
    found = mail.links(MESSAGE)
    assert [(link.source, [f.name for f in link.flags]) for link in found] == [
        ("text", ["userinfo", "password"]), ("text", []), ("html-attr", ["active-scheme"])
    ]


_TEXTS = st.lists(st.sampled_from([*"ab :/.?=&@#<>()\n\"'%", "http://", "u:p@", "0x7f.1", "www.", "%0d", "а",
                                   "xn--pypal-4ve", "\u200b", "hxxp", "[.]"])).map("".join)


@given(_TEXTS)
def test_an_identity_rewrite_reading_every_flag_is_byte_identical(text: str) -> None:
    assert linkkit.sub(lambda ref: (ref.flags, ref.raw)[1], text) == text
    assert linkkit.sub(lambda ref: (ref.flags, ref.raw)[1], text, refang=True) == text
    document = ("<a href='" + text + "'>" + text + "</a>").encode("utf-8", "surrogatepass")
    assert html.rewrite(document, lambda link: (link.flags, link.raw)[1], text=True) == document
    message = b"Content-Type: text/plain; charset=utf-8\r\n\r\n" + text.encode("utf-8", "surrogatepass")
    assert mail.rewrite(message, lambda link: (link.flags, link.raw)[1]) == message
