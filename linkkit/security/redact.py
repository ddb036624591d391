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
from typing import TypeVar

from ..link import LinkLike
from ..uri.model import split_match
from ..uri.percent import percent_decode

MASK = "***"  # RFC 3986 2.2: "*" is a sub-delim, so the masked URI stays valid in userinfo, query and fragment
Document = TypeVar("Document", str, bytes)


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


def _userinfo(authority: str, redaction: Redaction) -> str:
    """RFC 3986 3.2.1: the authority with the password of its userinfo masked, or the userinfo dropped."""
    at = authority.rfind("@")
    if at < 0:
        return authority
    after = at + 1
    if authority[at - 1 : at + 2] == "[@]":  # a defanged "@" (linkkit.security.defang) delimits it the same
        at, after = at - 1, at + 2
    if redaction.drop_userinfo:
        return authority[after:]
    userinfo = authority[:at]
    colon = userinfo.find(":")
    if colon < 0 or colon == len(userinfo) - 1:
        return authority  # no password, or an empty one: nothing to hide
    return userinfo[: colon + 1] + redaction.mask + authority[at:]


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


def _parameters(component: str, redaction: Redaction) -> str:
    """A query or fragment with the values of the named ``name=value`` parameters (split at "&" and ";") masked."""
    if "=" not in component:
        return component
    pieces = _SEPARATOR.split(component)  # parameters at even indices, the separators between them at odd ones
    changed = False
    for index in range(0, len(pieces), 2):
        name, equals, value = pieces[index].partition("=")
        if equals and value and _named(name, redaction):
            pieces[index] = name + "=" + redaction.mask
            changed = True
    return "".join(pieces) if changed else component


def redact(uri: str, *, mask: str = MASK, drop_userinfo: bool = False, query: Iterable[str] = ()) -> str:
    """*uri* with its userinfo password masked (``user:***@``; the userinfo and its "@" dropped with
    *drop_userinfo*) and the values of the query and fragment parameters named in *query* masked; every other
    character is copied. A URI with nothing to mask is returned as it is.
    """
    return redacted(uri, Redaction.of(mask=mask, drop_userinfo=drop_userinfo, query=query))


def redacted(uri: str, redaction: Redaction) -> str:
    """:func:`redact` with its options held in a :class:`Redaction` (built once for many URIs)."""
    match = split_match(uri)
    authority, query, fragment = match.group(2), match.group(4), match.group(5)
    if authority is not None and "@" in authority:
        new = _userinfo(authority, redaction)
        if new != authority:
            uri = uri[: match.start(2)] + new + uri[match.end(2) :]
            match = split_match(uri)
            query, fragment = match.group(4), match.group(5)
    if not redaction.query or (query is None and fragment is None):
        return uri
    pieces = [uri[: match.end(3)]]
    if query is not None:
        pieces.append("?" + _parameters(query, redaction))
    if fragment is not None:
        pieces.append("#" + _parameters(fragment, redaction))
    return "".join(pieces)


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
    redacts one URI (the same keywords, or a :class:`Redaction` built once)."""
    from ..text import sub

    redaction = _chosen(redaction, mask=mask, drop_userinfo=drop_userinfo, query=query)
    return sub(replacer(redaction), text, abbreviated=abbreviated, emails=emails)


def redact_html(
    document: Document, *, mask: str = MASK, drop_userinfo: bool = False, query: Iterable[str] = (),
    redaction: Redaction | None = None, encoding: str | None = None,
) -> Document:
    """An HTML *document* (str or bytes) with every URL it holds redacted in place, the links of its visible text
    too, an anchor's text included (:func:`linkkit.html.rewrite`): a secret shown is a secret leaked. Every other
    byte is copied. The keywords are :func:`redact_text`'s."""
    from .. import html

    redaction = _chosen(redaction, mask=mask, drop_userinfo=drop_userinfo, query=query)
    return html.rewrite(document, replacer(redaction), encoding=encoding, text=True, anchors=True)


def redact_message(
    message: bytes | email.message.Message, *, mask: str = MASK, drop_userinfo: bool = False,
    query: Iterable[str] = (), redaction: Redaction | None = None,
) -> bytes:
    """A message with every link of its text parts redacted in place, an HTML anchor's text included
    (:func:`linkkit.mail.rewrite`): a part without a secret, headers and attachments are copied byte for byte. The
    keywords are :func:`redact_text`'s."""
    from .. import mail

    redaction = _chosen(redaction, mask=mask, drop_userinfo=drop_userinfo, query=query)
    return mail.rewrite(message, replacer(redaction), anchors=True)
