"""The Document: one unit of work for a batch, whatever source it came from (a file, a member of a compressed
file, a message of a mailbox, a record of a web archive), and where in its input it lies."""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, NamedTuple

# What a document holds, as the finders read it; FILE is a whole file not opened yet, whose kind (and whether it
# holds several documents, or none: a binary file) is told by the process that reads it; LINK a symbolic link met
# while descending and not followed, which a batch rewrite's mirror holds as a link; FOLDER a folder that no file
# makes in that mirror (an empty one, a Maildir's tmp/), made there as it is.
TEXT, HTML, MAIL, ERROR, FILE, LINK, FOLDER = "text", "html", "mail", "error", "file", "link", "folder"


@dataclass(frozen=True, slots=True)
class Position:
    """Where a document lies in its input: what a user needs to find it again, and a link graph needs as its node.

    ``offset`` is the byte offset of the document in the input as stored (an mbox ``From `` line, the first byte of
    a WARC record, compressed or not); ``message`` the index of a message in a mailbox; ``record_id`` and
    ``target_uri`` a WARC record's ``WARC-Record-ID`` and ``WARC-Target-URI``.
    """

    offset: int | None = None
    message: int | None = None
    record_id: str | None = None
    target_uri: str | None = None

    def fields(self) -> dict[str, Any]:
        """The position as record fields: each that is known, then ``position``, issue 10's one-schema field for
        "file offset, message index, WARC record offset and WARC-Record-ID", as one object of those known (null for
        a document that is its whole input)."""
        if self is WHOLE_INPUT:  # a file's: nothing to look up
            return {"position": None}
        known = {name: value for name in POSITION_FIELDS if (value := getattr(self, name)) is not None}
        return {**known, "position": {name: known[name] for name in _LOCATING if name in known} or None}

    def __reduce__(self) -> tuple[type[Position], tuple[Any, ...]]:
        return Position, _POSITION_FIELDS(self)


POSITION_FIELDS = ("offset", "message", "record_id", "target_uri")
_LOCATING = POSITION_FIELDS[:3]  # what finds the document in its input: the target URI names the page instead
# The position of a document that is its whole input (a file): one shared value, not one made and pickled per file.
WHOLE_INPUT = Position()


@dataclass(frozen=True, slots=True)
class HeaderLink:
    """A URL an HTTP header field gives (``Location``, ``Content-Location``, ``Link``, ``Refresh``): ``where`` is
    ``"http FIELD"`` in lower case, ``raw`` the URL as written, ``span`` its byte offsets in the HTTP header block."""

    where: str
    raw: str
    span: tuple[int, int]


class Document(NamedTuple):
    """One document to find links in.

    ``name`` is the input as the user named it (a path, ``<stdin>``; for a Maildir message its own file);
    ``kind`` is ``text``, ``html`` or ``mail`` (``error`` for an input that could not be read, with ``error`` saying
    why; ``file`` for a file named by ``path`` and not opened yet); a document read in part (a web archive's payload
    that its content coding could not undo, read as it is) has its kind and ``error`` too, reported after its links;
    ``data`` is the bytes, or None when they are read from ``path`` (decompressed as its content says) when the
    document is processed, which keeps a large file out of memory until then and out of any pipe to a worker;
    ``base`` the retrieval URL where the input says it (RFC 3986 5.1.3) and ``charset`` the encoding it declares;
    ``header_links`` the links of an HTTP envelope; ``size`` the bytes it stands for, for progress;
    ``content_type`` the media type the input declares for it (a WARC record's), when it does; ``temporary`` that
    ``path`` names a temporary file holding it (standard input's text, which cannot be read twice), which the
    process that reads it removes.
    """

    name: str
    kind: str
    data: bytes | None = None
    path: str | None = None
    base: str | None = None
    charset: str | None = None
    position: Position = WHOLE_INPUT
    header_links: tuple[HeaderLink, ...] = ()
    error: str | None = None
    size: int = 0
    content_type: str | None = None
    temporary: bool = False


# Position's fields in order, read at once: what a position is pickled as (a slots dataclass's own __getstate__
# costs a Python call and a dict more).
_POSITION_FIELDS = attrgetter(*(item.name for item in fields(Position)))


def failure(name: str, message: str, position: Position | None = None) -> Document:
    """The document that stands for an input, or a part of one, that could not be read: it becomes an error
    record in its place in the output."""
    return Document(name, ERROR, error=message, position=position or WHOLE_INPUT)
