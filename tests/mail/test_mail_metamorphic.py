"""Hypothesis, metamorphic: a text part's links do not depend on how the part is sent.  The same text, written in
any charset that holds it (RFC 2046 4.1.2), with any Content-Transfer-Encoding (RFC 2045 6: quoted-printable with
a soft line break anywhere, base64 of any line length, x-uuencode), CRLF or LF line ends, alone, in a multipart/mixed,
alternative or related, or inside an attached message/rfc822, its base in its own Content-Location or its
multipart's Content-Base (RFC 2557 5, folded or RFC 2047-encoded), gives the links the part gives as UTF-8, 8bit,
alone; and a rewrite of those links changes the part's body only, which reads back as the new links."""

from __future__ import annotations

import base64
import binascii
from typing import NamedTuple
from urllib.parse import quote

from hypothesis import given
from hypothesis import strategies as st

from linkkit import mail
from linkkit.mail.links import read

BASE = "http://base.example/dir/index.html"
# (charset, what it can write besides ASCII): each charset is the whole text's; utf-16 only travels as base64.
CHARSETS = [
    ("utf-8", "äéüßπжす漢"), ("iso-8859-1", "äéüßÿ"), ("iso-8859-15", "äéü€"), ("windows-1252", "äéü€Š"),
    ("koi8-r", "жизньЖ"), ("shift_jis", "すし漢字ア"), ("iso-2022-jp", "すし漢字ア"), ("utf-16", "äжす漢"),
]
# The base's place: (header of the leaf, header of the multipart around it); a single part carries the leaf's.
BASES = [
    (f"Content-Location: {BASE}", ""),
    ("Content-Location: \n http://base.example/\n dir/index.html", ""),  # folded, whitespace removed (RFC 2557 4.4.1)
    ("", 'Content-Base: "http://base.example/dir/"'),
    ("", "Content-Base: =?us-ascii?Q?http=3A//base.example/dir/?="),
    ("Content-Location: dir/index.html", "Content-Base: http://base.example/"),  # relative: against the next out
]


class Case(NamedTuple):
    html: bool
    text: str
    charset: str
    letters: str


@st.composite
def cases(draw: st.DrawFn) -> Case:
    charset, letters = draw(st.sampled_from(CHARSETS))
    words = st.text(alphabet=letters + "abcXYZ09", min_size=1, max_size=8)
    html = draw(st.booleans())

    def url(word: str) -> str:
        return draw(st.sampled_from(["http://a.example/", "https://b.example/p/", "www.c.example/"])) + word

    pieces = []
    for _ in range(draw(st.integers(1, 6))):
        word, kind = draw(words), draw(st.integers(0, 4))
        if html:
            pieces.append([word, url(word), f'<a href="{word}/x.html">{word}</a>', f'<img src="i/{word}.png">',
                           f"<!-- {url(word)} -->"][kind])
        else:  # wrapped in <...> (RFC 3986 appendix C), after a hyphen, in a quoted reply, in parentheses
            pieces.append([word, url(word), f"<{url(word)}/\n {word}>", f"{url(word)}/a-\n{word}",
                           f"> see {url(word)}.\n> <{url(word)}/\n> {word}>"][kind])
    separators = st.sampled_from([" ", "\n", " (", ") ", ", "] + (["<br>\n", "<p>"] if html else []))
    text = "".join(piece + draw(separators) for piece in pieces) + "\n"
    if html:  # the charset declared in the document too, also past the prescan's 1024 bytes (HTML 13.2.3.2)
        text = draw(st.sampled_from(["", "<!--" + " padding" * 130 + " -->"])) + f"<meta charset={charset}>" + text
    return Case(html, text, charset, letters)


def body(case: Case, newline: bytes, draw: st.DrawFn) -> tuple[str, bytes]:
    """The part's Content-Transfer-Encoding and body, the text in the case's charset with *newline* line ends."""
    text = case.text.replace("\n", newline.decode())
    data = text.encode("utf-16") if case.charset == "utf-16" else text.encode(case.charset)
    encodings = ["base64"] if case.charset == "utf-16" else ["8bit", "quoted-printable", "base64", "x-uuencode"]
    encoding = draw(st.sampled_from(encodings + (["7bit"] if data.isascii() else [])))
    if encoding == "quoted-printable":
        written = newline.join(binascii.b2a_qp(line, istext=False).replace(b"=\n", b"=" + newline)
                               for line in data.split(newline))
        # a soft line break wherever one can go: not inside an =XX triplet or a line break
        places = [k for k in range(1, len(written)) if b"=" not in written[max(k - 2, 0) : k]
                  and written[k - 1 : k + 1].isascii() and not {written[k - 1], written[k]} & {0x0D, 0x0A}]
        if places:
            at = draw(st.sampled_from(places))
            written = written[:at] + b"=" + newline + written[at:]
        return encoding, written
    if encoding == "base64":
        encoded, width = base64.b64encode(data), draw(st.sampled_from([4, 60, 76, 1000]))
        return encoding, newline.join(encoded[i : i + width] for i in range(0, len(encoded), width)) + newline
    if encoding == "x-uuencode":  # RFC 2045 6.3's private mechanism, as mail readers decode it
        backtick = draw(st.booleans())
        lines = b"".join(binascii.b2a_uu(data[i : i + 45], backtick=backtick) for i in range(0, len(data), 45))
        written = b"begin 644 part\n" + lines + (b"`" if backtick else b" ") + b"\nend\n"
        return encoding, written.replace(b"\n", newline)
    return encoding, data


@st.composite
def messages(draw: st.DrawFn, case: Case) -> tuple[bytes, str, str]:
    """A message holding the case's part, the part's number (RFC 3501 6.4.5) and Content-Transfer-Encoding."""
    newline = draw(st.sampled_from([b"\n", b"\r\n"]))
    encoding, data = body(case, newline, draw)
    own, around = draw(st.sampled_from(BASES))
    structure = draw(st.sampled_from(["single", "mixed", "alternative", "related", "rfc822"]))
    if structure == "single":
        own = "\n".join(line for line in (around, own) if line)
        around = ""
    ctype = "text/html" if case.html else "text/plain"
    # a text/html part without a charset parameter is in the charset the document declares (RFC 6657 3); a
    # <meta> saying UTF-16 means UTF-8 (HTML 13.2.3.2)
    declared = case.html and case.charset != "utf-16" and draw(st.booleans())
    parameter = "" if declared else f";\n\tcharset=\"{case.charset}\""
    fields = [f"Content-Type: {ctype}{parameter}", f"Content-Transfer-Encoding: {encoding}", own]
    leaf = "".join(f"{field}\n" for field in fields if field).replace("\n", newline.decode()).encode() + newline + data
    if structure == "single":
        return b"MIME-Version: 1.0" + newline + leaf, "1", encoding
    other = b"Content-Type: text/plain" + newline + newline + b"no links" + newline
    parts, number = ([leaf, other], "1") if structure == "related" else ([other, leaf], "2")
    multipart = [f"Content-Type: multipart/{'mixed' if structure == 'rfc822' else structure}; boundary=\"=_b\"",
                 around]
    head = "".join(f"{field}\n" for field in multipart if field).replace("\n", newline.decode()).encode()
    delimited = b"".join(b"--=_b" + newline + part + newline for part in parts) + b"--=_b--" + newline
    message = head + newline + b"preamble" + newline + delimited
    if structure != "rfc822":
        return message, number, encoding
    outer = (b"Content-Type: multipart/mixed; boundary=outer" + newline + newline + b"--outer" + newline
             + b"Content-Type: message/rfc822" + newline + newline + message + newline + b"--outer--" + newline)
    return outer, "1." + number, encoding


def seen(message: bytes, part: str) -> list[tuple[str, str, str, str]]:
    return [(link.uri, link.raw.replace("\r", ""), link.where, link.source) for link in mail.links(message)
            if link.part == part]


@given(st.data())
def test_a_parts_links_do_not_depend_on_how_it_is_sent(data: st.DataObject) -> None:
    case = data.draw(cases())
    ctype = "text/html" if case.html else "text/plain"
    plain = (f"Content-Type: {ctype}; charset=utf-8\nContent-Location: {BASE}\n\n{case.text}").encode()
    message, part, encoding = data.draw(messages(case))
    assert seen(message, part) == seen(plain, "1")
    assert mail.problems(message) == []
    new_values = [f"https://new.example/{index}/{case.letters[index % len(case.letters)]}x"
                  for index in range(len(seen(message, part)))]
    values = iter(new_values)
    rewritten = mail.rewrite(message, lambda link: next(values) if link.part == part else link.raw)
    if encoding == "7bit" and case.charset != "iso-2022-jp":  # a 7bit part's new non-ASCII is percent-encoded
        new_values = [quote(value, safe=":/") for value in new_values]
    assert [uri for uri, _, _, _ in seen(rewritten, part)] == new_values
    before, after = read(message).root, read(rewritten).root
    old = next(entity for entity in before.walk() if entity.part == part and not entity.children)
    new = next(entity for entity in after.walk() if entity.part == part and not entity.children)
    assert (message[: old.body_start], message[old.body_end :]) == (rewritten[: new.body_start],
                                                                      rewritten[new.body_end :])
