"""Redaction: the secrets a URI carries (a userinfo password, token query parameters) masked before it is shared.

Logs and mail archives keep credentials in URLs (RFC 3986 7.5: "user:password" in userinfo; a session id or an
access token in the query, or in the fragment of an OAuth 2.0 implicit grant, RFC 6749 4.2.2). :func:`redact`
masks them in one URI and copies every other character; :func:`redact_text`, :func:`redact_html` and
:func:`redact_message` do it for every link of a text, an HTML document or a message, byte for byte elsewhere.

    >>> redact("https://alice:s3cret@example.com/cb?code=x&state=1#access_token=abc", query=["access_token", "code"])
    'https://alice:***@example.com/cb?code=***&state=1#access_token=***'
"""

from __future__ import annotations

import email.message
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

from ..link import LinkLike
from ..uri.model import split_match
from ..uri.percent import percent_decode
from .authority import browser_authority
from .refang import refanged

MASK = "***"  # RFC 3986 2.2: "*" is a sub-delim, so the masked URI stays valid in userinfo, query and fragment
Document = TypeVar("Document", str, bytes)


class Secret(NamedTuple):
    """One secret of a URI: ``uri[start:end]`` is replaced by ``text`` (the mask, or "" for a dropped userinfo)."""

    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Redaction:
    """What :func:`redact` masks: the userinfo's password (or, with *drop_userinfo*, the whole userinfo and its
    ``@``), and the values of the query (and fragment) parameters named in *query*, compared case-insensitively
    after percent-decoding (``Access_Token``, ``access%5Ftoken``). *mask* replaces each secret."""

    mask: str = MASK
    drop_userinfo: bool = False
    query: frozenset[str] = frozenset()

    @classmethod
    def of(cls, *, mask: str = MASK, drop_userinfo: bool = False, query: Iterable[str] = ()) -> Redaction:
        if isinstance(query, str):
            raise TypeError("query takes parameter names (a list), not one str")
        return cls(mask=mask, drop_userinfo=drop_userinfo, query=frozenset(_name(n) for n in query))


def _name(name: str) -> str:
    """A parameter name as compared: percent-decoded, "+" read as a space (application/x-www-form-urlencoded),
    case-folded."""
    return percent_decode(name.replace("+", " "), errors="replace").casefold()


def _userinfo(authority: str, start: int, redaction: Redaction) -> list[Secret]:
    """RFC 3986 3.2.1: the password of the userinfo of *authority* (which starts at *start* in its URI) to mask, or
    the userinfo and its "@" to drop."""
    at = authority.rfind("@")
    if at < 0:
        return []
    after = at + 1
    if authority[at - 1 : at + 2] == "[@]":  # a defanged "@" that refang leaves (no host after it) delimits it too
        at, after = at - 1, at + 2
    if redaction.drop_userinfo:
        return [Secret(start, start + after, "")]
    colon = authority.find(":", 0, at)
    if colon < 0 or colon == at - 1:
        return []  # no password, or an empty one: nothing to hide
    return [Secret(start + colon + 1, start + at, redaction.mask)]


def _named(name: str, redaction: Redaction) -> bool:
    """Whether the parameter *name* is one *redaction* masks; a name after "&amp;" (a URL copied from HTML source
    into a text or log, its "&" still escaped, HTML 13.1.4) is read without the "amp;" that the split at "&"
    left on it."""
    key = _name(name)
    return key in redaction.query or (key.startswith("amp;") and key[4:] in redaction.query)


# What separates the parameters of a query or fragment: "&", and ";", which HTML 4.01 B.2.2 asks servers to accept in
# its place (``?a=1;token=abc``); but not the ";" that ends the "amp" of an "&amp;" (HTML source copied into a log),
# which _named reads.
_SEPARATOR = re.compile(r"(&|(?<!&amp)(?<!;amp);)")


def _parameters(component: str, start: int, redaction: Redaction) -> list[Secret]:
    """The values of the named ``name=value`` parameters (split at "&" and ";") of a query or fragment
    *component*, which starts at *start* in its URI, to mask."""
    if "=" not in component:
        return []
    secrets = []
    position = start
    # parameters at even indices, the separators between them at odd ones
    for index, piece in enumerate(_SEPARATOR.split(component)):
        name, equals, value = piece.partition("=")
        if index % 2 == 0 and equals and value and _named(name, redaction):
            secrets.append(Secret(position + len(name) + 1, position + len(piece), redaction.mask))
        position += len(piece)
    return secrets


def redact(uri: str, *, mask: str = MASK, drop_userinfo: bool = False, query: Iterable[str] = ()) -> str:
    """*uri* with its userinfo password masked (``user:***@``; the userinfo and its "@" dropped with
    *drop_userinfo*) and the values of the query and fragment parameters named in *query* masked; every other
    character is copied. A URI with nothing to mask is returned as it is.
    """
    return redacted(uri, Redaction.of(mask=mask, drop_userinfo=drop_userinfo, query=query))


def redacted(uri: str, redaction: Redaction) -> str:
    """:func:`redact` with its options held in a :class:`Redaction` (built once for many URIs). A defanged URI is
    read as :func:`linkkit.refang` reads it, each secret masked where it is written: ``hxxp[:]//u:***@evil[.]example/``
    (the appendix B split of ``hxxp[:]//...`` finds no authority, and a leak is no safe default)."""
    reading = refanged(uri)
    pieces: list[str] = []
    copied = 0
    for secret in _secrets(reading.text, redaction):
        start, end = reading.original_span(secret.start, secret.end) if reading.edits else (secret.start, secret.end)
        pieces += (uri[copied:start], secret.text)
        copied = end
    return "".join(pieces) + uri[copied:] if pieces else uri


# References redacted inside one URI, nested or side by side (a redirector's ?next=http://admin:pw@intranet/): the
# first 16, as defang reads them; each costs a scan of what follows it, so thousands nested would cost time
# quadratic in the URI's length.
_MAX_EMBEDDED = 16


def _secrets(uri: str, redaction: Redaction) -> list[Secret]:
    """What *redaction* masks in *uri* (a URI without defanged spellings), in URI order: its own secrets, and
    those of the references the scanner finds in its path, query and fragment (the first :data:`_MAX_EMBEDDED`),
    but where a secret of the URI holding them already covers them (``?url=http://u:p@h/`` with ``url`` named)."""
    secrets: list[Secret] = []
    pending = [(0, uri)]  # each reference to read, and where it starts in *uri*
    budget = _MAX_EMBEDDED
    while pending:
        offset, text = pending.pop()
        own, rest = _own_secrets(text, redaction)
        moved = [Secret(offset + secret.start, offset + secret.end, secret.text) for secret in own]
        secrets += [secret for secret in moved if not _overlaps(secret, secrets)]
        for start, raw in _embedded(text[rest:], budget):
            pending.append((offset + rest + start, raw))
            budget -= 1
    return sorted(secrets)


def _overlaps(secret: Secret, held: list[Secret]) -> bool:
    """Whether *secret* shares a character with one of *held*."""
    return any(other.start < secret.end and secret.start < other.end for other in held)


def _own_secrets(uri: str, redaction: Redaction) -> tuple[list[Secret], int]:
    """The secrets of *uri*'s own userinfo, query and fragment, and where what follows its scheme and authority
    (its host, for a reference written without either: ``www.example.com/``) starts."""
    match = split_match(uri)
    secrets = []
    authority = match.span(2)
    if authority[0] == authority[1]:  # none, or empty: a browser reads one in "http:\\u:pw@h", "http:///u:pw@h"
        authority = browser_authority(uri) or authority
    if authority[0] >= 0:
        secrets += _userinfo(uri[authority[0] : authority[1]], authority[0], redaction)
    if redaction.query:
        for group in (4, 5):  # RFC 3986 3.4, 3.5: the query, and the fragment (RFC 6749 4.2.2's access_token)
            if match.start(group) >= 0:
                secrets += _parameters(match.group(group), match.start(group), redaction)
    if authority[0] >= 0:
        rest = authority[1]
    elif match.start(1) >= 0:
        rest = match.start(3)
    else:
        rest = next((index for index, c in enumerate(uri) if c in "/?#"), len(uri))
    return secrets, rest


def _embedded(rest: str, budget: int) -> list[tuple[int, str]]:
    """The first *budget* references the scanner finds in *rest* (a URI's path, query and fragment), each as where
    it starts and what is written."""
    lowered = rest.lower()
    if budget <= 0 or (":" not in rest and "www." not in lowered and "ftp." not in lowered):
        return []  # every reference the scanner finds has a scheme's ":" or starts with "www." or "ftp."
    from ..text import finditer

    return [(ref.start(), ref.raw) for ref, _ in zip(finditer(rest), range(budget), strict=False)]


def replacer(redaction: Redaction) -> Callable[[LinkLike], str]:
    """The ``repl`` of :func:`linkkit.sub`, :func:`linkkit.html.rewrite` and :func:`linkkit.mail.rewrite` that
    redacts each link as written (``link.raw``), leaving every link without a secret untouched."""
    return lambda link: redacted(link.raw, redaction)


def _chosen(
    redaction: Redaction | None, *, mask: str = MASK, drop_userinfo: bool = False, query: Iterable[str] = ()
) -> Redaction:
    """The :class:`Redaction` the text, HTML and mail forms apply: *redaction* when one is given (built once for many
    documents), else the one :func:`redact`'s keywords describe; giving both is an error, since one would be
    ignored."""
    if redaction is None:
        return Redaction.of(mask=mask, drop_userinfo=drop_userinfo, query=query)
    if mask != MASK or drop_userinfo or query:
        raise TypeError("give either redaction= or mask / drop_userinfo / query, not both")
    return redaction


def redact_text(
    text: str, *, mask: str = MASK, drop_userinfo: bool = False, query: Iterable[str] = (),
    redaction: Redaction | None = None, abbreviated: bool = True, emails: bool = False,
) -> str:
    """*text* with every reference the scanner finds redacted in place (:func:`linkkit.sub`), as :func:`redact`
    redacts one URI (the same keywords, or a :class:`Redaction` built once); defanged references too
    (``refang=True``: a threat report's ``hxxp[:]//user:pw@evil[.]example/`` carries the same password)."""
    from ..text import sub

    redaction = _chosen(redaction, mask=mask, drop_userinfo=drop_userinfo, query=query)
    return sub(replacer(redaction), text, abbreviated=abbreviated, emails=emails, refang=True)


def redact_html(
    document: Document, *, mask: str = MASK, drop_userinfo: bool = False, query: Iterable[str] = (),
    redaction: Redaction | None = None, encoding: str | None = None,
) -> Document:
    """An HTML *document* (str or bytes) with every URL it holds redacted in place, the links of its visible text
    too, an anchor's text included, and the defanged references of that text, as :func:`redact_text` reads them
    (:func:`linkkit.html.rewrite`): a secret shown is a secret leaked. So is one a shared archive carries unshown:
    the text of attribute values (``alt``, ``title``...), ``<title>``, comments, ``<script>`` and ``<style>``, and
    the links of an ``<iframe srcdoc>`` document (``hidden=True``). Every other byte is copied. The keywords are
    :func:`redact_text`'s."""
    from .. import html

    redaction = _chosen(redaction, mask=mask, drop_userinfo=drop_userinfo, query=query)
    return html.rewrite(document, replacer(redaction), encoding=encoding, text=True, anchors=True, refang=True,
                        hidden=True)


def redact_message(
    message: bytes | email.message.Message, *, mask: str = MASK, drop_userinfo: bool = False,
    query: Iterable[str] = (), redaction: Redaction | None = None,
) -> bytes:
    """A message with every link of its text parts redacted in place, an HTML anchor's text included and what an
    HTML part carries unshown (as :func:`redact_html` reads it), and those of its own header fields that hold URLs
    or free text (List-*, Archived-At, Subject, Comments: a List-Unsubscribe token; :func:`linkkit.mail.rewrite`),
    defanged references too, as :func:`redact_text` finds them: a part without a secret, other fields and
    attachments are copied byte for byte. The keywords are :func:`redact_text`'s."""
    from .. import mail

    redaction = _chosen(redaction, mask=mask, drop_userinfo=drop_userinfo, query=query)
    return mail.rewrite(message, replacer(redaction), anchors=True, headers=True, refang=True, hidden=True)
