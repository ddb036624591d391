"""The base URI of a part (RFC 2557 5, RFC 2110 4.2, RFC 3986 5.1).

For an HTML part: a ``<base href>`` in the part first (``linkkit.html`` applies it); else the part's own absolute
``Content-Location``, or its ``Content-Base``; else those of the enclosing multipart entities, innermost first;
else the retrieval URL the caller gives (``base_url``, RFC 3986 5.1.3).  A relative ``Content-Location`` is
resolved against the next base out (RFC 2557 4.4.2): the entity's own ``Content-Base`` when it has one (RFC 2110
4.2), else the base of the entities around it; one that cannot be resolved is passed over.  An encapsulated
``message/rfc822`` takes the base of the entities around it like any other part: RFC 3986 5.1.2, "the base URI of
the entity in which the representation is encapsulated".
"""

from __future__ import annotations

import re

import linkkit
from linkkit.errors import LinkkitError
from linkkit.uri.charset import SCHEME

from .message import Entity, header
from .parts import header_text


# RFC 2557 4.1: Content-Location = [CFWS] URI [CFWS]: comments before the URI, and after it past whitespace (a
# URI's own "(" follows no whitespace: http://a.example/Foo_(bar)); matched from either end, in linear time.
_LEADING_COMMENTS = re.compile(r"(?:\((?:[^()\\]|\\.)*+\)\s*+)++")


def _without_comments_around(text: str) -> str:
    """*text* (stripped) without the comments before it and those after it that whitespace sets apart."""
    text = text.strip()
    leading = _LEADING_COMMENTS.match(text)
    if leading is not None:
        text = text[leading.end() :]
    end = len(text)
    while end and text[end - 1] == ")":
        opening = text.rfind("(", 0, end)
        if opening <= 0 or not text[opening - 1].isspace() or text.find(")", opening, end - 1) != -1:
            break
        end = opening - 1
        while end and text[end - 1].isspace():
            end -= 1
    return text[:end]


def _field_uri(entity: Entity, name: str) -> str | None:
    """The URI of a Content-Location / Content-Base field: unfolded, RFC 2047-decoded, the comments around it and
    folding whitespace removed (RFC 2557 4.1, 4.4.1), a quoted-string's quotes (RFC 2110 4.1's examples) or angle
    brackets taken off."""
    value = header(entity.headers, name)
    if value is None:
        return None
    text = "".join(_without_comments_around(header_text(value)).split())
    if (len(text) >= 2 and text[0] == text[-1] == '"') or (text[:1] == "<" and text[-1:] == ">"):
        text = text[1:-1]
    return text or None


_SCHEME = re.compile(SCHEME + ":")  # RFC 3986 3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )


def is_absolute(reference: str) -> bool:
    """Whether *reference* starts with a scheme (RFC 3986 4.3), so it can be a base."""
    return _SCHEME.match(reference) is not None


def _absolute(reference: str | None, outer: str | None) -> str | None:
    """*reference* made absolute against *outer* (RFC 3986 5.2); None when there is none or it cannot be."""
    if reference is None or is_absolute(reference):
        return reference
    if outer is None:
        return None
    try:
        target = linkkit.resolve(outer, reference)
    except LinkkitError:
        return None
    return target if is_absolute(target) else None  # one that merely looks resolved ("\0http:...") is passed over


def entity_base(entity: Entity, outer: str | None) -> str | None:
    """The base *entity* gives its content, *outer* being the base of the entities around it.

    The entity's own Content-Base (RFC 2110 4.2: "a base for relative URIs occurring in other heading fields")
    is the next base out for its relative Content-Location (RFC 2557 4.4.2); the Content-Location, made
    absolute, comes first.
    """
    heading = _absolute(_field_uri(entity, "content-base"), outer) or outer
    return _absolute(_field_uri(entity, "content-location"), heading) or heading


__all__ = ["entity_base", "is_absolute"]
