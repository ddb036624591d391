"""MIME structure (RFC 2046 5.1.1 delimiters, RFC 3501 6.4.5 part numbers), transfer encodings (RFC 2045 6),
charsets (RFC 2046 4.1.2) and mboxes split into messages (RFC 4155), one case per line in tests/fixtures/mail/."""

from __future__ import annotations

import codecs
import io

import pytest
from fixtures_loader import load_table

from linkkit import mail
from linkkit.mail.links import read
from linkkit.mail.parts import decode_text, decode_transfer, encode_text


def unescape_bytes(field: str) -> bytes:
    """A fixture's byte string: Python escapes (\\n, \\r\\n, \\xe9) decoded, other characters as UTF-8."""
    return codecs.escape_decode(field.encode("utf-8"))[0]  # type: ignore[no-any-return]


def unescape_text(field: str) -> str:
    return field.encode("latin-1", "backslashreplace").decode("unicode_escape")


@pytest.mark.parametrize(("message", "expected"), load_table("mail/structure.txt"))
def test_leaves_are_numbered_as_imap_numbers_them(message: str, expected: str) -> None:
    reading = read(unescape_bytes(message))
    leaves = [f"{e.part}={e.content_type}" for e in reading.root.walk() if not e.children]
    leaves = [leaf for leaf in leaves if not leaf.startswith(("multipart/", "message/"), leaf.index("=") + 1)]
    assert (" ".join(leaves) or "-") == expected


@pytest.mark.parametrize(("encoding", "body", "expected"), load_table("mail/transfer.txt"))
def test_transfer_encoding_is_undone(encoding: str, body: str, expected: str) -> None:
    assert decode_transfer(unescape_bytes(body), encoding)[0] == unescape_bytes(expected)


@pytest.mark.parametrize(("label", "data", "text", "verdict"), load_table("mail/charsets.txt"))
def test_charset_decodes_or_falls_back_and_says_so(label: str, data: str, text: str, verdict: str) -> None:
    raw = unescape_bytes(data)
    decoded = decode_text(raw, None if label == "-" else label)
    assert decoded.text == unescape_text(text)
    assert decoded.fallback == (verdict == "fallback")
    assert (decoded.problem is not None) == decoded.fallback
    assert encode_text(decoded.text, decoded) == raw  # the codec read with gives the same bytes back


def test_delimiter_line_ending_belongs_to_the_delimiter() -> None:
    # RFC 2046 5.1.1: "the CRLF preceding the boundary delimiter line is conceptually attached to the boundary"
    message = b"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n\r\nbody\r\n\r\n--b--\r\n"
    (part,) = read(message).root.children
    assert part.body == b"body\r\n"


def test_nesting_deeper_than_the_limit_is_reported_not_followed() -> None:
    from linkkit.mail.message import MAX_DEPTH

    message = b"Content-Type: message/rfc822\n\n" * (MAX_DEPTH + 5) + b"http://deep.example/\n"
    reading = read(message)
    assert any(problem.kind == "structure" and "deeper" in problem.message for problem in reading.problems)


def test_transfer_encoded_message_rfc822_is_read_decoded() -> None:
    # RFC 2046 5.2.1 forbids encoding a message/rfc822 part; clients do it, and its parts are still read
    import base64

    inner = base64.b64encode(b"Subject: in\n\nhttp://inner.example/\n")
    message = b"Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: message/rfc822\n"
    message += b"Content-Transfer-Encoding: base64\n\n" + inner + b"\n--b--\n"
    from linkkit import mail

    problems: list[mail.Problem] = []
    assert [(link.part, link.uri) for link in mail.links(message, on_problem=problems.append)] == [
        ("1.1", "http://inner.example/")
    ]
    assert [problem.kind for problem in problems] == ["structure"]


@pytest.mark.parametrize("row", load_table("mail/mbox.txt"))
def test_mbox_is_split_into_its_messages(row: list[str]) -> None:
    mbox, *expected = (unescape_bytes(field) for field in row)
    found = list(mail.messages(io.BytesIO(mbox)))
    assert [b"%d %s" % (m.offset, m.data) for m in found] == [e for e in expected if e != b"-"]
    assert [m.index for m in found] == list(range(len(found)))
    assert b"".join(m.record for m in found) == mbox
