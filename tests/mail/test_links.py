"""linkkit.mail.links: the base of an HTML part (RFC 2557 5, RFC 2110 4.2), header fields (RFC 2369, RFC 5064),
duplicates, options, problems, and the link shape."""

from __future__ import annotations

import codecs
import email
import email.policy

import pytest
from fixtures_loader import load_table

import linkkit
from linkkit import mail
from linkkit.link import LinkLike
from linkkit.mail.links import read
from linkkit.mail.message import content_ids


def unescape_bytes(field: str) -> bytes:
    return codecs.escape_decode(field.encode("utf-8"))[0]  # type: ignore[no-any-return]


@pytest.mark.parametrize(("message", "base_url", "expected"), load_table("mail/base.txt"))
def test_base_of_an_html_part(message: str, base_url: str, expected: str) -> None:
    data = unescape_bytes(message).replace(b"\n\nx", b'\n\n<a href="rel.html">x</a>')
    (link,) = mail.links(data, base_url=None if base_url == "-" else base_url)
    assert link.base == (None if expected == "-" else expected)
    assert link.uri == ("rel.html" if expected == "-" else linkkit.resolve(expected, "rel.html"))


def test_base_href_in_the_part_comes_first() -> None:
    message = b'Content-Type: text/html\nContent-Location: http://cl.example/a/\n\n<base href="../b/"><img src="i.png">'
    links = mail.links(message, base_url="http://r.example/")
    assert [(link.where, link.uri) for link in links] == [
        ("base href", "http://cl.example/b/"),  # resolved against the part's own base, as HTML resolves it
        ("img src", "http://cl.example/b/i.png"),
    ]


@pytest.mark.parametrize(("field", "expected"), load_table("mail/headers.txt"))
def test_header_field_urls(field: str, expected: str) -> None:
    message = unescape_bytes(field) + b"\r\nContent-Type: text/plain\r\n\r\nno links\r\n"
    for emails in (False, True):
        links = mail.links(message, headers=True, emails=emails)
        assert (" ".join(link.uri for link in links) or "-") == expected
        assert all(link.source == "header" and link.part == "HEADER" for link in links)


def test_headers_are_read_only_on_request_and_before_the_body() -> None:
    message = b"List-Post: <mailto:l@example.org>\nSubject: x\n\nhttp://body.example/\n"
    assert [link.uri for link in mail.links(message)] == ["http://body.example/"]
    assert [link.uri for link in mail.links(message, headers=True)] == ["mailto:l@example.org", "http://body.example/"]


def test_message_id_is_never_an_email_link() -> None:
    message = b"Message-ID: <id@example.org>\nReferences: <r@example.org>\n\nWrite to a@example.org.\n"
    assert [link.uri for link in mail.links(message, headers=True, emails=True)] == ["mailto:a@example.org"]
    assert mail.links(message, headers=True) == []


@pytest.mark.parametrize(("field", "expected"), load_table("mail/ids.txt"))
def test_message_and_content_ids(field: str, expected: str) -> None:
    message = unescape_bytes(field) + b"\n\nbody"
    if field.lower().startswith("content-id"):
        assert list(content_ids(read(message).root)) == [expected]
    else:
        assert mail.message_id(message) == (None if expected == "-" else expected)


def test_every_occurrence_is_reported_unless_unique() -> None:
    message = (
        b"Content-Type: multipart/alternative; boundary=b\n\n--b\n\nhttp://a.example/ and http://a.example/\n"
        b"--b\nContent-Type: text/html\n\n<a href=\"http://a.example/\">x</a> <img src=i.png>\n--b--\n"
    )
    assert [link.part for link in mail.links(message)] == ["1", "1", "2", "2"]
    # the first of each absolute URL across the parts; a relative one (no base) is always kept
    assert [(link.part, link.uri) for link in mail.links(message, unique=True)] == [("1", "http://a.example/"),
                                                                                  ("2", "i.png")]


def test_quoted_reply_markers_are_not_part_of_a_wrapped_reference() -> None:
    message = b"\n> see <http://a.example/very/\n> long/path> and\n>> <http://b.example/x-\n>> y>\n"
    assert [link.uri for link in mail.links(message)] == ["http://a.example/very/long/path", "http://b.example/x-y"]


def test_html_text_and_attributes_merge_in_document_order() -> None:
    message = b'Content-Type: text/html\n\n<p>http://one.example/ <img src="http://two.example/"> http://three.example/'
    assert [(link.source, link.uri) for link in mail.links(message)] == [
        ("html-text", "http://one.example/"), ("html-attr", "http://two.example/"), ("html-text", "http://three.example/")
    ]


def test_link_is_shaped_like_a_match_and_spans_its_decoded_part() -> None:
    message = (b"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
               b"caf=C3=A9 http://a.example/caf=C3=\n=A9 x")
    (link,) = mail.links(message)
    assert isinstance(link, LinkLike)
    assert link.span() == (5, 26) and link.start() == 5 and link.end() == 26
    assert link.group() == link.raw == "http://a.example/café"
    assert (link.where, link.kind, link.part) == ("bare", "uri", "1")
    assert (link.content_type, link.source) == ("text/plain", "text")
    with pytest.raises(IndexError):
        link.group(1)


def test_an_email_message_object_is_read_too() -> None:
    data = b"Subject: x\nContent-Type: text/html\n\n<a href=\"../a\">a</a>"
    for policy in (email.policy.compat32, email.policy.default):
        message = email.message_from_bytes(data, policy=policy)
        assert [link.uri for link in mail.links(message, base_url="http://h.example/b/c")] == ["http://h.example/a"]


def test_problems_are_reported_and_readable_parts_still_give_links() -> None:
    message = (b"Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain; charset=klingon\n\n"
               b"http://a.example/\n--b\nContent-Transfer-Encoding: base64\n\n!!!\n--b\n\nhttp://c.example/")
    problems: list[mail.Problem] = []
    links = mail.links(message, on_problem=problems.append)
    assert [(link.part, link.uri, link.charset_fallback) for link in links] == [
        ("1", "http://a.example/", True), ("3", "http://c.example/", False)
    ]
    assert [(p.part, p.kind) for p in problems] == [("", "structure"), ("1", "charset"), ("2", "transfer-encoding")]
    assert str(problems[0]).startswith("message: structure: no close delimiter")
    assert mail.problems(message) == problems


@pytest.mark.parametrize(("message", "expected", "problems"), load_table("mail/messages.txt"))
def test_links_and_problems_of_a_whole_message(message: str, expected: str, problems: str) -> None:
    found: list[mail.Problem] = []
    uris = [link.uri for link in mail.links(unescape_bytes(message), on_problem=found.append)]
    assert (" ".join(uris) or "-") == expected.encode("ascii").decode("unicode_escape")
    assert (" ".join(f"{p.part}:{p.kind}" for p in found) or "-") == problems


def test_base_url_must_be_absolute() -> None:
    with pytest.raises(linkkit.ResolutionError):
        mail.links(b"\nx", base_url="relative/")


def test_not_a_message_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        mail.links("a str")  # type: ignore[arg-type]


def test_refang_reads_the_defanged_spellings_of_a_report_back() -> None:
    data = b"From: a@example.org\n\nC2 at hxxps://203.0.113[.]7/gate, see also hxxp://evil(.)example/\n"
    assert [link.uri for link in mail.links(data)] == ["hxxps://203.0.113[.]7/gate", "hxxp://evil(.)example/"]
    found = mail.links(data, refang=True)
    assert [(link.uri, link.raw) for link in found] == [
        ("https://203.0.113.7/gate", "hxxps://203.0.113[.]7/gate"), ("http://evil.example/", "hxxp://evil(.)example/")]
    body = data.decode().split("\n\n", 1)[1]
    assert all(body[slice(*link.span())] == link.raw for link in found)


@pytest.mark.parametrize(("html", "content_ids", "expected"), load_table("mail/cid.txt"))
def test_cid_link_names_the_part_of_its_content_id(html: str, content_ids: str, expected: str) -> None:
    parts = [f"--r\nContent-Type: text/html; charset=utf-8\n\n{html}\n"]
    parts += [f"--r\nContent-Type: image/png\nContent-ID: {cid}\n\nPNG\n" for cid in content_ids.split()]
    message = ("Content-Type: multipart/related; boundary=r\n\n" + "".join(parts) + "--r--\n").encode("utf-8")
    found = [f"{link.uri}={link.target_part or '-'}" for link in mail.links(message)]
    assert " ".join(found) == expected


@pytest.mark.parametrize(("message", "expected"), load_table("mail/cid_messages.txt"))
def test_cid_link_names_a_part_of_its_own_message_first(message: str, expected: str) -> None:
    found = [f"{link.part}:{link.uri}={link.target_part or '-'}" for link in mail.links(unescape_bytes(message))]
    assert " ".join(found) == expected
