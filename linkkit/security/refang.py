"""Refanging what threat reports defang: the spellings read back, and where each applies.

Analysts write ``hxxps://evil[.]example/x`` so that nothing turns the URL into a link or resolves it; linkkit reads
those spellings back (:func:`refang`, and the scanner's ``refang=True``); :mod:`linkkit.security.defang` writes
them by the same rules, so that ``refang(defang(uri)) == uri``.  The spellings read are those found in published
reports:

==============================  =========  =====================================================================
written                         read as    where
==============================  =========  =====================================================================
``hxxp``, ``hXXp``, ``h**p``     ``http``   a scheme: where the scanner starts one (a word's start, after a
(and the same with ``s``)       ``https``  glued ``.``, ``1.hxxp``), before ``:``, ``[:]`` or ``[://]`` (``tt``
                                           takes the case of the ``p``: ``HXXP`` is ``HTTP``)
``fxp``, ``fxps``               ``ftp``    the same, before an authority's ``//`` (``FXP`` is ``FTP``)
``[://]``                       ``://``    after a scheme character
``[:]``                         ``:``      after a scheme or host character, before "//", a port or a path
                                           (``http[:]//``, ``host[:]8080``; not ``${p[:]?w}``, ``"kern[:]"``)
``[.]``                         ``.``      glued to the text before it, before a host character, another
                                           ``[.]`` or what ends a host (``example[.]com``, ``1[.]2[.]3[.]4``;
                                           not ``'[.]'``, ``$f[.]'``, ``OFFSET[.][b]``)
``[@]``, ``[at]`` (any case)     ``@``      glued to the text before it, before a host (``user[@]example[.]com``,
                                           ``decrypt[at]example[.]org``; not the ``${array[@]}`` of shell scripts)
``[/]``                         ``/``      glued to a host, port or path character, or right after a ``:``,
                                           ``[:]`` or ``[/]`` (``example[.]com[/]path``, ``hxxp[:][/][/]``;
                                           not ``[][/]`` or ``to [/]``)
``[dot]``, ``{.}``, ``{dot}``   ``.``      between two letters or digits (any case: ``[DOT]``)
``(.)``, ``(dot)``              ``.``      between two letters or digits of a host: the token holds no ``/``,
                                           ``?``, ``#`` or ``:`` before it and no ``@`` after it (``(`` and
                                           ``)`` are URI characters, so elsewhere they are data)
``(@)``, ``(at)`` (any case)     ``@``      glued before a host, where ``(.)`` is read but for a ``:`` before it
                                           (``nick(dot)t(at)mail(dot)example``, ``hxxp://u:pw(at)evil[.]example``;
                                           not a path's ``f(at)x``)
``\\/`` (JSON's escaped ``/``)   ``/``      in ``scheme:\\/\\/`` and after it in its token, no space or quote
                                           between (a MISP export's ``"https:\\/\\/evil.example\\/a"``;
                                           not sed's ``s/a\\/b/`` or a regex's ``https?:\\/\\/``)
``\\u0026`` (JSON's ``&``)       ``&``      after ``scheme://`` or ``scheme:\\/\\/`` in its token, no space or quote
                                           between (Go's and .NET's ``"https://h/?a=1\\u0026token=x"``)
==============================  =========  =====================================================================

``meow://`` and other playful schemes are no defanged spelling: a reader cannot tell which scheme was meant.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import NamedTuple

import regex

from ..uri.charset import SCHEME_CHARS

# Every defanged spelling, found by one search (a scheme spelling, or a bracketed mark); whether it applies where it
# stands is judged by its neighbours (_judged), only where one was found. A scheme spelling (hxxp, h**p, fxp) is
# matched from its first mask ("x" or "*"), what precedes each mask looked behind for: the search is then as fast as
# it was for hxxp and h**p alone from their "h" (CPU time on the text corpus). A text holding "scheme:\/\/" or
# "\u0026" is searched for those JSON escapes too (_holds_json_url).
_CANDIDATE = regex.compile(
    r"(?P<scheme>[xX*](?<=[hHfF][xX]|[hH]\*)(?:[xX*](?<=[hH][xX][xX]|[hH]\*\*))?[pP]"
    r"(?<=[fF][xX][pP]|[hH][xX][xX][pP]|[hH]\*\*[pP])[sS]?)"
    r"|\[(?:[.:@/]|://|(?i:dot|at))\]|\{(?:\.|(?i:dot))\}|\((?:[.@]|(?i:dot|at))\)"
)
_CANDIDATE_JSON = regex.compile(_CANDIDATE.pattern + r"|\\/|\\u0026")
_SCHEME_CHARS = frozenset(SCHEME_CHARS)
# Not glued to a "[.]" or "[@]" on its left: what starts a word of prose or code ('[.]' in a regex, "v[@]" ... ).
NOT_GLUED = frozenset(" \t\r\n\f\v\"'<>[{")
# After "[.]": not what ends a quotation or a bracket ($f[.]' in jq, [.] in a character class).
# After "[.]": a host character, or what ends a host (a port, a path, a query, a fragment, a mailto list's ","), or
# another "[.]" -- not a quote, a bracket or a "?" of shell and regex code (${a[.]}, [[+]OFFSET[.][b]]).
DOT_FOLLOWERS = frozenset("-_~%/:?#,")
# After "[:]": what starts an authority ("//", "[/][/]"), a port, or a path (http[:]//, host[:]8080, urn[:]isbn:...).
COLON_FOLLOWERS = frozenset("/%[+-_~.")
# Before "[/]": what ends a host, a port or a path segment (a letter or a digit aside), or the ":" of a scheme; not
# a bracket, a "/" or a space (find's "[][/]", bash's "${p/pattern[/[/]string]}", "from </> to [/]"); a "[:]" or
# "[/]" before it is judged apart ("hxxp[:][/][/]").
SLASH_AFTER = frozenset("-_~%.:")
# Walking back from a "(.)": what ends the host it would be in (RFC 3986 3.2.2: a reg-name holds none of them).
_HOST_STOP = frozenset(" \t\r\n\f\v/?#:@<>\"'`")
# Walking back from an "(@)" or "(at)": the same, but for the ":" of a "user:password" or of "mailto:" (RFC 3986 3.2.1).
_USER_STOP = _HOST_STOP - {":"}
_MAX_HOST = 255  # RFC 1034 3.1: a domain name is at most 255 octets


class Edit(NamedTuple):
    """One defanged spelling read: ``original[start:end]`` became ``refanged[new_start:new_start + len(text)]``."""

    start: int
    end: int
    new_start: int
    text: str


class Refanged(NamedTuple):
    """A text with its defanged spellings read back, and where each was, so spans map back to what was written."""

    original: str
    text: str
    edits: tuple[Edit, ...]
    starts: tuple[int, ...] = ()  # each edit's new_start, for bisecting: built once, not once per span mapped

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The span of ``original`` that ``text[start:end]`` was read from: an edit's replacement touched by the
        span is covered whole (``evil[.]com`` for ``evil.com``)."""
        return self._to_original(start, end=False), self._to_original(end, end=True)

    def _to_original(self, position: int, *, end: bool) -> int:
        edits = self.edits
        index = bisect_right(self.starts, position - (1 if end else 0)) - 1
        if index < 0:
            return position
        edit = edits[index]
        new_end = edit.new_start + len(edit.text)
        if edit.new_start <= position < new_end or (end and edit.new_start < position <= new_end):
            return edit.end if end else edit.start
        return edit.end + (position - new_end)


def _span(match: regex.Match[str]) -> tuple[int, int]:
    """The span of the candidate *match*: a scheme spelling's starts at the "h" or "f" before its first mask."""
    start, end = match.span()
    return (start - 1, end) if match.group("scheme") is not None else (start, end)


def _judged(text: str, match: regex.Match[str]) -> str | None:
    """What the candidate *match* reads as where it stands in *text* (the module's table), or None: no spelling."""
    start, end = _span(match)
    before = text[start - 1] if start > 0 else ""
    after = text[end] if end < len(text) else ""
    if match.group("scheme") is not None:
        # where a scheme starts, before ":", "[:]" or "[://]" (fxp: before an authority's "//"); "tt" takes the case
        # of the "p"
        if not _starts_scheme(text, start) or not (after == ":" or text.startswith(("[:]", "[://]"), end)):
            return None
        written = text[start:end]
        stem = written.rstrip("sS")  # up to the "p"
        if len(stem) == 3 and not text.startswith(_FTP_AUTHORITY, end):
            return None  # "FXP: ..." of FTP servers' documentation (server-to-server transfer) is no URL
        return stem[0] + ("t" if stem[-1].islower() else "T") * (len(stem) - 2) + written[len(stem) - 1 :]
    mark = match.group().lower()
    if mark in _JSON_ESCAPES:
        return _JSON_ESCAPES[mark] if _json_escaped(text, start, mark) else None
    if mark == "[://]":
        return "://" if before in _SCHEME_CHARS and before else None
    if mark == "[:]":
        glued = before and (before in _SCHEME_CHARS or before == "]")
        return ":" if glued and (after.isalnum() or after in COLON_FOLLOWERS) and after else None
    if mark == "[.]":
        if not before or before in NOT_GLUED:
            return None
        ends = not after or after.isalnum() or after in DOT_FOLLOWERS or text.startswith("[.]", end)
        return "." if ends else None
    if mark == "[/]":
        glued = before.isalnum() or before in SLASH_AFTER or text.endswith(("[:]", "[/]"), 0, start)
        return "/" if before and glued else None
    if mark in ("[@]", "[at]", "(@)", "(at)"):
        if not before or before in NOT_GLUED or not (after.isalnum() or after in "[%_~") or not after:
            return None
        return "@" if mark[0] == "[" or _in_host(text, start, end, _USER_STOP) else None
    if not (before.isalnum() and after.isalnum()):
        return None  # [dot], {.}, {dot}, (.), (dot): between two letters or digits
    if mark in ("(.)", "(dot)") and not _in_host(text, start, end):
        return None
    return "."


def _starts_scheme(text: str, start: int) -> bool:
    """Whether a scheme spelling at *start* of *text* begins a scheme where the scanner reads one (RFC 3986 3.1: a
    scheme begins with a letter; the separators glued before it are no part of it): at a word's start, after a "."
    ("1.hxxp://", "e.g.hxxp://", "see...hxxp://"), or after a "-" or "+" that no letter precedes in its word
    ("-hxxp://"); not after a letter or a digit ("xhxxp", "1hxxp") nor inside a longer scheme ("x-hxxp")."""
    before = text[start - 1] if start > 0 else ""
    if before not in _SCHEME_CHARS or before == ".":
        return True
    if before not in "+-":
        return False
    at = start - 1
    while at > 0 and text[at - 1] in _SCHEME_CHARS:
        at -= 1
        if text[at].isalpha():
            return False
    return True


# What follows "fxp" read as "ftp": the "//" of an authority, which every ftp URL has (RFC 1738 3.2), in any
# spelling read here.
_FTP_AUTHORITY = ("://", ":[/]", ":\\/", "[://]", "[:]//", "[:][/]")
# A JSON string's escapes of URL characters (RFC 8259 7): "\/", which PHP's json_encode writes for every "/" (MISP
# exports), and "\u0026", which Go's encoding/json and .NET's System.Text.Json write for every "&" (a query's
# separator, before a token in a log): read in a URL whose "scheme:\/\/" (for "\u0026", or "scheme://") starts at
# most _MAX_JSON_URL characters back, no space or quote between.
_JSON_ESCAPES = {"\\/": "/", "\\u0026": "&"}
_JSON_SLASHES = ":\\/\\/"
_MAX_JSON_URL = 400  # within linkkit.batch.extract.REFANG_CONTEXT, which a streamed reading keeps around a spelling
_NOT_IN_JSON_URL = regex.compile(r"[\s\"'<>`]")


def _json_escaped(text: str, start: int, mark: str) -> bool:
    """Whether the JSON escape *mark* at *start* of *text* is one of a URL's: a "\\/" is one of a "scheme:\\/\\/",
    or follows one in the same token (``"https:\\/\\/evil.example\\/a"``; a regex's or sed's "\\/" is left); a
    "\\u0026" follows a "scheme://" or "scheme:\\/\\/" in the same token (``"https://h/?a=1\\u0026token=x"``)."""
    low = max(0, start - _MAX_JSON_URL)
    if mark == "\\/":
        colon = text.rfind(_JSON_SLASHES, low, start + len(_JSON_SLASHES) - 1)
    else:
        colon = max(text.rfind(_JSON_SLASHES, low, start), text.rfind("://", low, start))
    if colon < 1 or text[colon - 1] not in _SCHEME_CHARS:
        return False
    return _NOT_IN_JSON_URL.search(text, colon, start) is None


def _holds_json_url(text: str) -> bool:
    """Whether *text* holds a "scheme:\\/\\/" or a "\\u0026" (then searched for JSON escapes too): its backslashes,
    rare in text, are visited at memchr's speed, four times faster than a substring search goes over the text."""
    at = text.find("\\")
    while at >= 0:
        if at > 1 and text.startswith(_JSON_SLASHES, at - 1) and text[at - 2] in _SCHEME_CHARS:
            return True
        if text.startswith("\\u0026", at):
            return True
        at = text.find("\\", at + 1)
    return False


def _in_host(text: str, start: int, end: int, stops: frozenset[str] = _HOST_STOP) -> bool:
    """Whether ``text[start:end]`` (a "(.)", or an "(@)" before a host) lies in a host name: back to the token's
    start, the "//" of an authority or an "@" there is none of *stops* ("/", "?", "#", ":" or "@": it would be a
    path, a query, a port), and ahead, before the host ends, no "@" (it would be a userinfo). An "@" spelled "(at)"
    or "[at]" before the host counts where it stands as it is read itself (``mailto:u(at)example(dot)com``)."""
    low = max(0, start - _MAX_HOST)
    at = _host_start(text, start, low, stops)
    if at is not None and _after_spelled_at(text, at):
        at = _host_start(text, at - 4, low, _USER_STOP)
    if at is None:
        return False
    high = min(len(text), end + _MAX_HOST)
    ahead = end
    while ahead < high and text[ahead] not in _HOST_STOP:
        ahead += 1
    return not text.startswith("@", ahead) and not text.startswith("[@]", ahead - 1)


def _host_start(text: str, start: int, low: int, stops: frozenset[str]) -> int | None:
    """Where the host (or userinfo) holding *start* begins, walking back no further than *low* over none of
    *stops*; None unless a space, a delimiter, an "@" (or "(at)", "[at]") or an authority's "//" precedes it."""
    at = start
    while at > low and text[at - 1] not in stops and not _after_spelled_at(text, at):
        at -= 1
    if at == low and low > 0:
        return None
    if at == 0 or text[at - 1] in " \t\r\n\f\v<>\"'`@" or text[at - 2 : at] == "//" or _after_spelled_at(text, at):
        return at
    return None


def _after_spelled_at(text: str, at: int) -> bool:
    """Whether ``text[:at]`` ends with an "@" spelled "(at)" or "[at]", which ends a userinfo or a local part before
    its host as "@" does (``mailto:u(at)example(dot)com``)."""
    return text[at - 1 : at] in (")", "]") and text[at - 4 : at].lower() in ("(at)", "[at]")


def refanged(text: str) -> Refanged:
    """*text* with every defanged spelling read back (see the module's table), and the edits that did it."""
    if not isinstance(text, str):
        raise TypeError(f"refang() takes a str, not {type(text).__name__}")
    pieces: list[str] = []
    edits: list[Edit] = []
    copied = length = 0
    for match in (_CANDIDATE_JSON if _holds_json_url(text) else _CANDIDATE).finditer(text):
        new = _judged(text, match)
        if new is None:
            continue
        start, end = _span(match)
        pieces.append(text[copied:start])
        length += start - copied
        edits.append(Edit(start, end, length, new))
        pieces.append(new)
        length += len(new)
        copied = end
    if not edits:
        return Refanged(text, text, ())
    pieces.append(text[copied:])
    return Refanged(text, "".join(pieces), tuple(edits), tuple(edit.new_start for edit in edits))


def refang(text: str) -> str:
    """*text* with the defanged spellings of threat reports read back: ``hxxps://evil[.]example/`` is
    ``https://evil.example/``. Everything else is left as it is.

    >>> refang("beacon to hXXps[:]//203.0.113[.]7/gate and evil(dot)example")
    'beacon to https://203.0.113.7/gate and evil.example'
    """
    return refanged(text).text
