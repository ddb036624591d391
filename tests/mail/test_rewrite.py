"""linkkit.mail.rewrite: only parts holding a changed link change, each re-encoded as it was (RFC 2045 6.7, 6.8)."""

from __future__ import annotations

import base64
import binascii
import re

from linkkit import mail
from linkkit.mail.links import read

DEFANG = {"repl": lambda link: link.raw.replace("http", "hxxp", 1)}


def defang(message: bytes) -> bytes:
    return mail.rewrite(message, DEFANG["repl"])


def bodies(message: bytes) -> list[bytes]:
    return [entity.body for entity in read(message).root.walk() if not entity.children]


def outside_bodies(message: bytes) -> list[bytes]:
    """Everything of *message* but its leaves' bodies: headers, delimiters, preamble, epilogue (as read: a message
    of bare CR lines with LFs)."""
    root = read(message).root
    buffer, pieces, position = root.buffer, [], 0
    for entity in root.walk():
        if not entity.children and entity.buffer is buffer:
            pieces.append(buffer[position : entity.body_start])
            position = entity.body_end
    pieces.append(buffer[position:])
    return pieces


def test_quoted_printable_stays_quoted_printable_with_short_lines() -> None:
    text = "Voir " + "très long texte " * 8 + "http://a.example/" + "x" * 90 + "?q=1 é\r\nfin\r\n"
    body = binascii.b2a_qp(text.encode("utf-8"), istext=True)
    message = (b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
               + body)
    new = defang(message)
    head, new_body = new.split(b"\r\n\r\n", 1)
    assert head + b"\r\n\r\n" == message[: len(head) + 4]
    assert all(len(line) <= 76 for line in new_body.split(b"\r\n"))  # RFC 2045 6.7 rule 5
    assert binascii.a2b_qp(new_body).decode("utf-8") == text.replace("http://", "hxxp://")


def test_base64_keeps_its_line_length_and_line_ending() -> None:
    text = ("Lien : http://a.example/été " * 20).encode("iso-8859-1")
    for width, newline in ((76, b"\r\n"), (64, b"\n"), (72, b"\r\n")):
        encoded = base64.b64encode(text)
        body = newline.join(encoded[i : i + width] for i in range(0, len(encoded), width)) + newline
        message = (b"Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: base64\r\n\r\n"
                   + body)
        new_body = defang(message).split(b"\r\n\r\n", 1)[1]
        lines = new_body.split(newline)
        assert lines[-1] == b"" and all(len(line) == width for line in lines[:-2]) and len(lines[-2]) <= width
        assert newline == b"\r\n" or b"\r" not in new_body
        assert base64.b64decode(new_body) == text.replace(b"http://", b"hxxp://")


def test_quoted_printable_breaks_with_the_line_ending_of_its_message() -> None:
    # A part's body ends before the CRLF of the delimiter (RFC 2046 5.1.1): a one-line body holds no line end to
    # copy, and its soft breaks (RFC 2045 6.7 rule 5) take the CRLF of the message, never a bare LF.
    message = (b"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n"
               b"Content-Transfer-Encoding: quoted-printable\r\n\r\n"
               b"see http://a.example/" + b"x" * 80 + b"\r\n--b--\r\n")
    new = defang(message)
    assert b"\n" not in new.replace(b"\r\n", b"")
    (body,) = bodies(new)
    assert body.count(b"=\r\n") == 1 and all(len(line) <= 76 for line in body.split(b"\r\n"))
    assert binascii.a2b_qp(body) == b"see hxxp://a.example/" + b"x" * 80


def test_quoted_printable_keeps_a_cr_or_lf_of_the_text_that_is_no_line_break_encoded() -> None:
    # RFC 2045 6.7 rule 4: a CR or LF of the text that is not the part's line break is written =0D or =0A; the
    # text's line breaks stay its own, so the new body decodes to the new text exactly, with no bare CR or LF
    for newline, body in ((b"\r\n", b"a=0Ab http://a.example/ x\r\nc=0D\r\nd\r\n"),
                          (b"\n", b"a=0D\nb http://a.example/ x\nc=0D\n")):
        message = (b"Content-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\n".replace(b"\n", newline)
                   + body)
        (new_body,) = bodies(defang(message))
        assert binascii.a2b_qp(new_body) == binascii.a2b_qp(body).replace(b"http:", b"hxxp:")
        assert new_body.replace(b"hxxp", b"http") == body
        assert newline == b"\n" or b"\n" not in new_body.replace(b"\r\n", b"")


def test_base64_of_one_line_wraps_at_76() -> None:
    # one line tells no line length: the new body is wrapped at RFC 2045 6.8's 76, not at the old line's length
    for newline in (b"\n", b"\r\n"):
        for trailer in (b"", newline):
            message = (b"Content-Type: text/plain" + newline + b"Content-Transfer-Encoding: base64" + newline
                       + newline + base64.b64encode(b"see http://a.example/") + trailer)
            new_body = defang(mail.rewrite(message, "http://a.example/" + "long/" * 31)).split(newline * 2, 1)[1]
            lines = new_body.split(newline)
            assert [len(line) for line in lines] == [76, 76, 76, 8] + ([0] if trailer else [])
            assert base64.b64decode(new_body) == b"see hxxp://a.example/" + b"long/" * 31


def test_base64_keeps_the_empty_lines_after_its_last_line() -> None:
    # the empty line some writers leave before the delimiter is no base64 data: it stays (RFC 2046 5.1.1 bodies)
    message = (b"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n"
               b"Content-Transfer-Encoding: base64\r\n\r\n" + base64.b64encode(b"http://a.example/")
               + b"\r\n\r\n\r\n--b--\r\n")
    (body,) = bodies(defang(message))
    assert body == base64.b64encode(b"hxxp://a.example/") + b"\r\n\r\n"  # the delimiter's CRLF follows

def test_x_uuencode_stays_uuencoded_with_its_begin_and_end_lines() -> None:
    # the private x-uuencode mechanism (RFC 2045 6.3), as mail readers decode it: new data lines of 45 octets, each
    # with the part's line ending and its way of writing a zero (` or space); what is around the data kept
    text = b'<p>Sign in: <a href="http://uu.example/login">account</a> ' + b"x" * 60 + b"</p>\r\n"
    for backtick in (True, False):
        data = b"".join(binascii.b2a_uu(text[i : i + 45], backtick=backtick) for i in range(0, len(text), 45))
        zero = b"`" if backtick else b" "
        body = b"begin 644 page.html\r\n" + data.replace(b"\n", b"\r\n") + zero + b"\r\nend\r\n"
        message = b"Content-Type: text/html\r\nContent-Transfer-Encoding: x-uuencode\r\n\r\n" + body
        (new_body,) = bodies(defang(message))
        lines = new_body.split(b"\r\n")
        assert lines[0] == b"begin 644 page.html" and lines[-3:] == [zero, b"end", b""]
        assert b"\n" not in new_body.replace(b"\r\n", b"") and (b"`" in new_body) == backtick
        assert b"".join(binascii.a2b_uu(line) for line in lines[1:-3]) == text.replace(b"http://", b"hxxp://")


def test_a_message_of_bare_cr_lines_is_written_back_with_them() -> None:
    # read with its CRs as line ends (RFC 5322 2.3 wants CRLF; the email package reads a bare CR as one), rewritten
    # with them: every byte outside the changed body as it was, the new body's line ends CRs
    message = (b"Content-Type: multipart/mixed; boundary=b\rSubject: x\r\r--b\rContent-Type: text/plain\r"
               b"Content-Transfer-Encoding: base64\r\r" + base64.encodebytes(b"see http://a.example/ " * 6)
               .replace(b"\n", b"\r") + b"--b--\r")
    new = defang(message)
    assert b"\n" not in new and outside_bodies(new) == outside_bodies(message)
    (body,) = bodies(new)
    assert base64.b64decode(body.replace(b"\r", b"")) == b"see hxxp://a.example/ " * 6
    assert mail.rewrite(message, lambda link: link.raw) == message


def test_only_the_changed_part_changes() -> None:
    message = (
        b"Subject: three parts\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\npreamble http://p.example/\r\n"
        b"--b\r\nContent-Type: text/plain\r\n\r\nnothing here\r\n"
        b"--b\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\nsee http://a.example/ now\r\n"
        b"--b\r\nContent-Type: application/octet-stream\r\n\r\nhttp://attachment.example/\r\n"
        b"--b--\r\nepilogue http://e.example/\r\n"
    )
    new = defang(message)
    assert outside_bodies(new) == outside_bodies(message)
    assert bodies(new) == [b"nothing here", b"see hxxp://a.example/ now", b"http://attachment.example/"]


def test_utf_16_is_written_back_in_the_byte_order_it_was_read_in() -> None:
    # RFC 2781 4.3: no byte order mark means big-endian; a mark is kept with the order it names
    for mark, codec in ((b"", "utf-16-be"), (b"\xfe\xff", "utf-16-be"), (b"\xff\xfe", "utf-16-le")):
        data = mark + "see http://a.example/ now\r\n".encode(codec)
        message = (b"Content-Type: text/plain; charset=utf-16\r\nContent-Transfer-Encoding: base64\r\n\r\n"
                   + base64.b64encode(data) + b"\r\n")
        assert [link.uri for link in mail.links(message)] == ["http://a.example/"]
        (body,) = bodies(defang(message))
        assert base64.b64decode(body) == mark + "see hxxp://a.example/ now\r\n".encode(codec)


def test_a_flowed_reference_is_replaced_where_it_is_written_and_its_soft_breaks_stay_when_it_is_not() -> None:
    # RFC 3676 4.2: the span is where the reference is sent, its soft line break included; repl giving it back as
    # written or as read (the break gone, as the command line's text options give it) leaves the part as it was
    message = (b"Content-Type: text/plain; format=flowed; delsp=yes\r\n\r\n> see http://a.example/lo \r\n"
               b"> ng/x now\r\n")
    (link,) = mail.links(message)
    assert (link.span(), link.raw, link.uri) == ((6, 34), "http://a.example/lo \r\n> ng/x", "http://a.example/long/x")
    for unchanged in (lambda link: link.raw, lambda link: link.uri):
        assert mail.rewrite(message, unchanged) == message
    assert bodies(defang(message)) == [b"> see hxxp://a.example/lo \r\n> ng/x now\r\n"]  # the break as written
    assert bodies(mail.rewrite(message, "https://b.example/")) == [b"> see https://b.example/ now\r\n"]


def test_refang_gives_repl_the_defanged_references_of_text_html_and_header_fields_as_links_gives_them() -> None:
    message = (b"Subject: see hxxp[:]//a[.]example/s\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n"
               b"--b\r\n\r\nhxxps[:]//a[.]example/t\r\n"
               b"--b\r\nContent-Type: text/html\r\n\r\n<p>www[.]a[.]example/h</p>\r\n--b--\r\n")
    seen: list[str] = []
    assert mail.rewrite(message, lambda link: seen.append(link.raw) or link.raw, headers=True) == message
    assert seen == []
    assert mail.rewrite(message, lambda link: seen.append(link.raw) or link.raw, headers=True, refang=True) == message
    assert seen == ["hxxp[:]//a[.]example/s", "hxxps[:]//a[.]example/t", "www[.]a[.]example/h"]
    assert seen[1:] == [link.raw for link in mail.links(message, refang=True)]
    new = mail.rewrite(message, lambda link: link.uri.upper(), refang=True)
    assert bodies(new) == [b"HTTPS://A.EXAMPLE/T", b"<p>HTTP://WWW.A.EXAMPLE/H</p>"]


def test_hidden_gives_repl_what_an_html_part_carries_unshown_as_html_rewrite_reads_it() -> None:
    # html.rewrite(hidden=True), redaction's reach: a <title>, an alt text and a comment are read only with hidden
    message = (b"Content-Type: text/html; charset=utf-8\r\n\r\n<title>http://t.example/</title>"
               b'<img src=a.png alt="see http://a.example/"><!-- http://c.example/ --><a href="http://h.example/">\r\n')
    seen: list[str] = []
    assert mail.rewrite(message, lambda link: seen.append(link.raw) or link.raw) == message
    assert seen == ["a.png", "http://h.example/"]
    seen.clear()
    assert mail.rewrite(message, lambda link: seen.append(link.raw) or link.raw, hidden=True) == message
    assert seen == ["http://t.example/", "a.png", "http://a.example/", "http://c.example/", "http://h.example/"]
    new = mail.rewrite(message, lambda link: link.raw.upper(), hidden=True)
    assert bodies(new) == [b"<title>HTTP://T.EXAMPLE/</title><img src=A.PNG alt=\"see HTTP://A.EXAMPLE/\">"
                           b"<!-- HTTP://C.EXAMPLE/ --><a href=\"HTTP://H.EXAMPLE/\">\r\n"]


def test_a_new_character_the_part_cannot_carry_is_percent_encoded() -> None:
    # RFC 3987 3.1: UTF-8, percent-encoded; a 7bit part stays ASCII (RFC 2045 2.7), a charset keeps what it has
    cases = [
        (b"Content-Type: text/plain\n\n<http://a.example/>", "http://a.example/caf\u00e9", b"<http://a.example/caf%C3%A9>"),
        (b"Content-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: 8bit\n\n<http://a.example/>",
         "http://a.example/\u00e9\u20ac", b"<http://a.example/\xe9%E2%82%AC>"),
        (b"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n<http://a.example/>",
         "http://a.example/\u20ac", "<http://a.example/\u20ac>".encode()),
        # ISO-2022-JP is a 7bit charset (RFC 1468): what it has is written in it, what it lacks percent-encoded
        (b"Content-Type: text/plain; charset=iso-2022-jp\nContent-Transfer-Encoding: 7bit\n\n<http://a.example/>",
         "http://a.example/\u8cc7\u6599/\u00e9", "<http://a.example/\u8cc7\u6599/%C3%A9>".encode("iso-2022-jp")),
        # an undecodable byte (PEP 383, as linkkit reads one) is that octet again, not the surrogate's UTF-8
        (b"Content-Type: text/plain\n\n<http://a.example/>", "http://a.example/\udce9", b"<http://a.example/%E9>"),
    ]
    for message, value, expected in cases:
        assert mail.rewrite(message, value).split(b"\n\n", 1)[1] == expected


def test_a_7bit_part_that_holds_8bit_bytes_takes_new_characters_as_its_charset_writes_them() -> None:
    # no Content-Transfer-Encoding is 7bit (RFC 2045 6.1), yet hand-written messages put UTF-8 there: the part is
    # 8bit in fact, and the resolved href keeps its characters (resolution percent-encodes nothing, issue 9)
    message = 'Content-Type: text/html; charset=utf-8\n\n<a href="café.html">x</a>'.encode()
    assert mail.absolutize(message, "http://b.example/") == message.replace(b'"caf', b'"http://b.example/caf')
    ascii_only = b"Content-Type: text/html; charset=utf-8\n\n<a href=\"cafe.html\">x</a>"
    assert mail.rewrite(ascii_only, "caf\u00e9.html").endswith(b'"caf%C3%A9.html">x</a>')  # truly 7bit: stays ASCII
    message = b'Content-Type: text/html\n\n<p>see http://a.example/x <a href="http://b.example/">b</a>'
    new = mail.rewrite(message, lambda link: link.raw + "?a=1&b=<2>")
    assert new.split(b"\n\n", 1)[1] == (b'<p>see http://a.example/x?a=1&amp;b=&lt;2&gt; '
                                        b'<a href="http://b.example/?a=1&amp;b=<2>">b</a>')
    assert [link.uri for link in mail.links(new)] == ["http://a.example/x?a=1&b=", "http://b.example/?a=1&b=<2>"]


def test_repl_sees_the_links_links_gives() -> None:
    message = open_corpus("alternative-content-location.eml")
    seen = []
    mail.rewrite(message, lambda link: seen.append(link) or link.raw)  # type: ignore[func-returns-value]
    assert seen == mail.links(message)


def test_absolutize_resolves_html_links_and_leaves_text_and_headers() -> None:
    message = (b"List-Archive: <http://l.example/>\nContent-Type: text/html\nContent-Location: http://h.example/d/\n\n"
               b'<a href="x">www.example.org/y</a> www.example.org/z')
    assert mail.absolutize(message) == message.replace(b'href="x"', b'href="http://h.example/d/x"')


def test_transfer_encoded_message_rfc822_is_encoded_again() -> None:
    inner = b"Subject: in\r\nContent-Type: text/html\r\n\r\n<a href=\"rel\">x</a>\r\n"
    encoded = base64.encodebytes(inner)
    message = (b"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: message/rfc822\r\n"
               b"Content-Transfer-Encoding: base64\r\n\r\n" + encoded + b"--b--\r\n")
    new = mail.absolutize(message, "http://r.example/")
    new_inner = base64.b64decode(re.search(rb"base64\r\n\r\n(.*)--b--", new, re.S).group(1))  # type: ignore[union-attr]
    assert new_inner == inner.replace(b'"rel"', b'"http://r.example/rel"')
    # and x-uuencode, between its own begin and end lines
    data = b"".join(binascii.b2a_uu(inner[i : i + 45]) for i in range(0, len(inner), 45)).replace(b"\n", b"\r\n")
    message = (b"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: message/rfc822\r\n"
               b"Content-Transfer-Encoding: x-uuencode\r\n\r\nbegin 644 m.eml\r\n" + data + b" \r\nend\r\n--b--\r\n")
    new = mail.absolutize(message, "http://r.example/")
    lines = re.search(rb"m\.eml\r\n(.*)\r\n \r\nend\r\n--b--", new, re.S).group(1).split(b"\r\n")  # type: ignore[union-attr]
    assert b"".join(map(binascii.a2b_uu, lines)) == inner.replace(b'"rel"', b'"http://r.example/rel"')


def test_a_malformed_part_is_left_as_it_was_and_reported() -> None:
    # issue 9: a malformed message is reported with what went wrong, every part that can be read is still read
    broken = (b"Content-Type: multipart/alternative; boundary=never\n\n--other\nContent-Type: text/html\n\n"
              b'<a href="lost.html">x</a>\n--other--\n')
    message = (b"Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/html; charset=x-bogus\n\n"
               b'<a href="ok.html">ok</a>\n--b\n' + broken + b"--b--\n")
    problems: list[mail.Problem] = []
    new = mail.absolutize(message, "http://r.example/", on_problem=problems.append)
    assert new == message.replace(b'"ok.html"', b'"http://r.example/ok.html"')
    assert problems == mail.problems(message)
    assert [(problem.part, problem.kind) for problem in problems] == [("2", "structure"), ("1", "charset")]


def test_repl_must_return_a_str() -> None:
    import pytest

    with pytest.raises(TypeError, match="repl must return a str"):
        mail.rewrite(b"\nhttp://a.example/", lambda link: None)  # type: ignore[arg-type, return-value]


def open_corpus(name: str) -> bytes:
    from fixtures_loader import ROOT

    return (ROOT / "corpora" / "mail" / name).read_bytes()


HEADED = (
    b"Received: from www.relay.example by mx.example; Mon, 1 Jan 2024 00:00:00 +0000\r\n"
    b"Message-ID: <id@www.example.org>\r\n"
    b"List-Unsubscribe: <https://h.example/unsub?token=abc>,\r\n <mailto:u@h.example?subject=unsub>\r\n"
    b"Subject: see http://u:pw@x.example/ and =?utf-8?q?http://q.example/?=\r\n"
    b"X-Note: http://x.example/kept\r\n"
    b"Content-Type: text/plain\r\n\r\n"
    b"body http://b.example/\r\n"
)


def test_headers_rewrites_the_references_of_the_fields_that_hold_urls_or_free_text_only() -> None:
    seen: list[mail.MailLink] = []

    def hxxp(link: mail.MailLink) -> str:
        seen.append(link)
        return link.raw.replace("http", "hxxp", 1)

    new = mail.rewrite(HEADED, hxxp, headers=True)
    # List-* (RFC 2369), folded, and Subject (RFC 5322 3.6.5); not Received, Message-ID, X-*, nor an encoded-word
    assert [(link.where, link.raw, link.source, link.part) for link in seen[:3]] == [
        ("List-Unsubscribe", "https://h.example/unsub?token=abc", "header", "HEADER"),
        ("List-Unsubscribe", "mailto:u@h.example?subject=unsub", "header", "HEADER"),
        ("Subject", "http://u:pw@x.example/", "header", "HEADER"),
    ]
    assert new == (HEADED.replace(b"<https://h.", b"<hxxps://h.").replace(b"see http://u", b"see hxxp://u")
                   .replace(b"body http", b"body hxxp"))
    assert mail.rewrite(HEADED, hxxp) == HEADED.replace(b"body http", b"body hxxp")  # headers left by default
    assert mail.rewrite(HEADED, lambda link: link.raw, headers=True) == HEADED  # identity: every byte kept


FORWARDED = (
    b"Subject: Fwd: see http://top.example/\r\nContent-Type: multipart/mixed; boundary=o\r\n\r\n"
    b"--o\r\n\r\nforwarded as an attachment\r\n"
    b"--o\r\nContent-Type: message/rfc822\r\n\r\n"
    b"Subject: reset at http://u:pw@in.example/\r\nList-Unsubscribe: <https://l.example/unsub?token=abc>\r\n"
    b"Message-ID: <http://no.example/>\r\n\r\nbody\r\n"
    b"--o--\r\n"
)


def test_headers_rewrites_the_fields_of_an_attached_message_too_as_links_reads_them() -> None:
    # links(headers=True) gives an attached message's List-* fields as part 2.HEADER (RFC 3501 6.4.5); a redacted or
    # defanged forward (an analyst's report, a list archive) must not keep that message's token or live link
    seen: list[mail.MailLink] = []

    def hxxp(link: mail.MailLink) -> str:
        seen.append(link)
        return link.raw.replace("http", "hxxp", 1)

    new = mail.rewrite(FORWARDED, hxxp, headers=True)
    assert [(link.part, link.where, link.raw) for link in seen] == [
        ("HEADER", "Subject", "http://top.example/"),
        ("2.HEADER", "Subject", "http://u:pw@in.example/"),
        ("2.HEADER", "List-Unsubscribe", "https://l.example/unsub?token=abc"),
    ]
    assert new == FORWARDED.replace(b"see http", b"see hxxp").replace(b"at http", b"at hxxp").replace(
        b"<https://l", b"<hxxps://l")
    assert [(link.part, link.uri) for link in mail.links(new, headers=True)] == [
        ("2.HEADER", "hxxps://l.example/unsub?token=abc")]
    assert mail.rewrite(FORWARDED, hxxp) == FORWARDED  # headers left by default
    # a message/rfc822 part sent base64-encoded (RFC 2046 5.2.1 forbids it) is encoded again around the new header
    inner = FORWARDED.split(b"message/rfc822\r\n\r\n")[1].split(b"--o--")[0]
    encoded = FORWARDED.replace(b"message/rfc822\r\n\r\n" + inner, b"message/rfc822\r\nContent-Transfer-Encoding: "
                                b"base64\r\n\r\n" + base64.encodebytes(inner).replace(b"\n", b"\r\n"))
    (attached,) = [e for e in read(mail.rewrite(encoded, hxxp, headers=True)).root.walk() if e.part == "2"]
    assert base64.b64decode(attached.body) == inner.replace(b"at http", b"at hxxp").replace(b"<https", b"<hxxps")


def test_an_iso_2022_jp_part_read_with_its_windows_rows_is_written_back_with_them() -> None:
    # ESC $ B 0x2D21 is ① (NEC row 13, the Encoding Standard's index jis0208), which Python's iso2022_jp lacks: the
    # part is read and written with linkkit.mail.iso2022jp, Japanese staying JIS X 0208 in a 7bit part (RFC 1468)
    message = (b"Content-Type: text/html; charset=ISO-2022-JP\r\nContent-Transfer-Encoding: 7bit\r\n\r\n"
               b"\x1b$B-!\x1b(B<a href=\"\x1b$BF|K\\\x1b(B.html\">\x1b(I1\x1b(B</a>\r\n")
    (link,) = mail.links(message)
    assert (link.raw, link.charset_fallback) == ("\u65e5\u672c.html", False)
    new = mail.absolutize(message, "http://b.example/")
    assert new == message.replace(b'href="', b'href="http://b.example/')
    assert mail.rewrite(message, "http://b.example/\u8cc7\u6599/\u00e9").endswith(
        b'href="http://b.example/\x1b$B;qNA\x1b(B/%C3%A9">\x1b(I1\x1b(B</a>\r\n')


def test_base64_keeps_the_blank_lines_before_its_first_line_and_its_line_length() -> None:
    # a writer's blank line between the header and the data (two empty lines) is no base64 data (RFC 2045 6.8): it
    # stays, and the line length is the first data line's (the empty first line made it 0: range() raised)
    text = b"see http://a.example/x " * 8
    for newline in (b"\n", b"\r\n"):
        encoded = base64.b64encode(text)
        data = newline.join(encoded[i : i + 64] for i in range(0, len(encoded), 64)) + newline
        for lead in (newline, newline + b" \t" + newline):
            message = (b"Content-Type: text/plain" + newline + b"Content-Transfer-Encoding: base64" + newline
                       + newline + lead + data)
            (body,) = bodies(defang(message))
            assert body.startswith(lead) and body[len(lead) :].split(newline)[0] == base64.b64encode(
                text.replace(b"http", b"hxxp"))[:64]
            assert base64.b64decode(body) == text.replace(b"http", b"hxxp")


def test_a_part_python_reads_but_cannot_write_back_falls_back_and_is_rewritten() -> None:
    # a stray ESC in ISO-2022-JP: Python's decoder passes the next 8-bit byte as Latin-1, its encoder refuses it, and
    # rewriting the part raised UnicodeEncodeError; it is read as a charset fallback, written back byte for byte
    message = (b"Content-Type: text/plain; charset=ISO-2022-JP\nContent-Transfer-Encoding: 7bit\n\n"
               b"\x1b\xaa see http://a.example/x\n")
    (link,) = mail.links(message)
    assert link.charset_fallback
    assert mail.rewrite(message, "http://b.example/") == message.replace(b"http://a.example/x", b"http://b.example/")
