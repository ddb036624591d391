"""The authority a browser reads in a URL (URL Standard 4.4, basic URL parser), which RFC 3986 appendix B may not.

After a special scheme a browser reads "\\" as "/" and opens the authority with any run of them, so that
``http:\\\\user:pw@0x7f.1/`` sends a password to 127.0.0.1 where appendix B sees a path, and
``http://0x7f.1\\@evil.example/`` reaches 127.0.0.1 where appendix B sees the host ``evil.example``.
"""

from __future__ import annotations

import re


# URL Standard 4.4: after a special scheme but file, any run of "/" and "\\" opens the authority (special authority
# slashes, special authority ignore slashes states), none or one too, as read without a base or against one of
# another scheme (a mail link, an https page's ``http:0x7f.1``); a reference without a scheme opens it with two, as
# "//" does against a web page's base (relative slash state); file with exactly two (file slash, file host states).
# The authority ends at the first "/", "\\", "?" or "#" (authority state).
_BROWSER_AUTHORITY = re.compile(
    r"(?:(?:[Hh][Tt][Tt][Pp][Ss]?|[Ww][Ss][Ss]?|[Ff][Tt][Pp]):[/\\]*+|[/\\]{2}[/\\]*+|[Ff][Ii][Ll][Ee]:[/\\]{2})"
    r"([^/\\?#]*)"
)


def browser_authority(uri: str) -> tuple[int, int] | None:
    r"""Where the authority a browser reads in *uri* lies (``uri[start:end]``, userinfo and port included), or None
    when a browser reads none (another scheme, or a path).

    >>> [browser_authority(u) for u in ("http:\\\\h/", "http://0x7f.1\\\\@e/", "mailto:a@b")]
    [(7, 8), (7, 13), None]
    """
    match = _BROWSER_AUTHORITY.match(uri)
    return None if match is None else match.span(1)
