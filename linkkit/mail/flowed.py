"""The soft line breaks of a ``format=flowed; delsp=yes`` text/plain part (RFC 3676), undone for finding links.

A flowed line ends in a space (4.1); with ``DelSp=yes`` that space was added by the writer and goes when the lines
are joined (4.2), so a writer may break a line inside a word, a URL included: ``http://a.example/lo`` SP CRLF
``ng/path`` is ``http://a.example/long/path``.  The next line joins only at the same quote depth (4.5), its quote
marks and its stuffed space going with the break (4.4).  Without ``DelSp=yes`` a soft break keeps its space, which
ends a bare reference anyway, and the text scanner already reads through one inside ``<...>``: nothing is joined.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from email.message import Message
from typing import NamedTuple

# A line that ends in a soft line break (4.1: SP CRLF, or SP LF as a mailbox keeps it), but the signature separator
# (4.3): its quote marks (4.5), the break, and, looked at only, as many quote marks starting the next line (no more,
# no fewer) and the space stuffed after them (4.4).  The next match starts with the next line, itself perhaps flowed.
_SOFT_BREAK = re.compile(r"^(>*+)(?! ?-- \r?$)[^\r\n]*?( \r?\n)(?=\1(?!>)( ?))", re.MULTILINE)


def delsp_flowed(type_field: Message | None) -> bool:
    """Whether a part's Content-Type says ``format=flowed`` with ``delsp=yes`` (RFC 3676 4.1, 4.2; both
    parameter values case-insensitive)."""
    if type_field is None:
        return False
    value = type_field.get("content-type")
    if not isinstance(value, str) or "flowed" not in value.lower():
        return False  # nearly every part: no parameter parsed (get_param takes some 13 us a call)
    try:
        form, delsp = type_field.get_param("format"), type_field.get_param("delsp")
    except Exception:
        return False
    return isinstance(form, str) and form.lower() == "flowed" and isinstance(delsp, str) and delsp.lower() == "yes"


class Unflowed(NamedTuple):
    """A part's text with its soft line breaks removed, and where each removal lies, to find the text as sent."""

    text: str
    joins: list[int]  # the position in ``text`` of each removal, ascending
    shifts: list[int]  # the characters removed up to and including that removal

    def original(self, position: int) -> int:
        """The position in the part's text of the character at *position* of the joined text."""
        at = bisect_right(self.joins, position)
        return position + (self.shifts[at - 1] if at else 0)

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the part's text that ``text[start:end]`` (not empty) was joined from, a break inside it
        included."""
        return self.original(start), self.original(end - 1) + 1


def unflow(text: str) -> Unflowed:
    """*text* with every soft line break of ``DelSp=yes`` removed: the space, the line break and the next line's
    quote marks and stuffed space (RFC 3676 4.2, 4.4, 4.5); the signature separator ``-- `` is no flowed line
    (4.3)."""
    pieces: list[str] = []
    joins: list[int] = []
    shifts: list[int] = []
    position = removed = 0
    for match in _SOFT_BREAK.finditer(text):
        start = match.start(2)
        end = match.end(2) + len(match.group(1)) + len(match.group(3))
        pieces.append(text[position:start])
        removed += end - start
        joins.append(start - (removed - (end - start)))
        shifts.append(removed)
        position = end
    if not joins:
        return Unflowed(text, joins, shifts)
    pieces.append(text[position:])
    return Unflowed("".join(pieces), joins, shifts)


__all__ = ["Unflowed", "delsp_flowed", "unflow"]
