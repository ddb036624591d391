"""The messages of a mailbox, one at a time: an mbox (RFC 4155), a Maildir, a mailbox bundle (Apple Mail's export
of an mbox), or a single message file (.eml).

An mbox is read line by line, so memory holds one message, whatever the mailbox's size.  A message starts at a
``From `` line at the start of the file or after an empty line (RFC 4155 appendix A: the writer ends each message
with an empty line); that empty line belongs to the separator, not to the message.  When the first ``From `` line
carries its timestamp (RFC 4155 appendix A: ``From`` addr-spec timestamp), a later one must too: a body line such as
``From now on...`` after an empty line, left unescaped by an mboxo writer, stays body (as mutt's ``is_from`` reads
it).  A message whose header carries a ``Content-Length`` (the mboxcl and mboxcl2 variants, RFC 4155 appendix A; mutt
writes it) has a body of that many bytes when a separator (an empty line, then a ``From `` line) or the end of the
file follows them, as mutt checks it: a ``From `` line inside that body, which an mboxcl2 writer leaves unescaped,
stays body; a length that does not end so is passed over.  An empty file holds no message.  Bodies are unescaped as
mboxrd writers escape them: a line ``>From `` (or ``>>From ``, ...) loses one ``>``.  An mboxo file escapes
without the extra ``>``, so a line written ``>From `` in an mboxo body is read as ``From ``: the two formats
cannot be told apart, and mboxrd's reading is the reversible one.
"""

from __future__ import annotations

import io
import itertools
import os
import re
from collections.abc import Iterable, Iterator
import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from ..io import HELD_LIMIT, too_large
from .errors import MailError

_ESCAPED_FROM = re.compile(rb"^>(>*From )", re.MULTILINE)  # RFC 4155 appendix A, mboxrd
_FROM = re.compile(rb"^(>*From )", re.MULTILINE)
_EMPTY_LINES = (b"\n", b"\r\n")
_CONTENT_LENGTH = re.compile(rb"\nContent-Length:[ \t]*+(\d{1,12})[ \t]*+\r?\n", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Message:
    """One message of a mailbox.

    ``index`` counts from 0 in mailbox order; ``offset`` is the byte offset of its ``From `` line in an mbox (0 for
    a message that is a file of its own); ``data`` is the message itself (RFC 5322 bytes, mboxrd-unescaped);
    ``path`` the file it was read from; ``record`` its bytes as the mailbox holds them (``From `` line, escaped
    body and the empty line that ends it, or the whole file, compressed when ``compression`` names the codec a
    Maildir message file was stored with).
    """

    index: int
    offset: int
    data: bytes
    path: str | None
    record: bytes
    from_line: bytes | None = None
    trailer: bytes = b""  # the empty line that ends an mbox record
    compression: str | None = None  # a Maildir message file stored compressed: gzip, bzip2, xz or zstd

    def replaced(self, data: bytes) -> bytes:
        """The record that holds *data* in place of this message: the record itself when *data* is the message; a
        compressed Maildir message file compressed again as it was."""
        if data == self.data:
            return self.record
        if self.from_line is None:
            return data if self.compression is None else _compressed(data, self.compression)
        if self.from_line.endswith(b"\r"):  # an mbox of bare CR lines: its From lines escaped where a CR ends a line
            return self.from_line + _FROM.sub(rb">\1", data.replace(b"\r", b"\n")).replace(b"\n", b"\r") + self.trailer
        return self.from_line + _FROM.sub(rb">\1", data) + self.trailer


def _compressed(data: bytes, codec: str) -> bytes:
    """*data* compressed with *codec* (one of :data:`linkkit.sources.compressed.MAGIC`'s); each compressor is
    loaded when a message written again needs it (reading a mailbox loads none)."""
    if codec == "gzip":
        import gzip

        return gzip.compress(data)
    if codec == "bzip2":
        import bz2

        return bz2.compress(data)
    if codec == "xz":
        import lzma

        return lzma.compress(data)
    import zstandard

    return zstandard.ZstdCompressor().compress(data)


def is_mbox(head: bytes) -> bool:
    """Whether a file starting with *head* is an mbox (RFC 4155: it starts with a ``From `` line); ``From : a@...``
    is a message's From field, whitespace before its colon (RFC 5322 4.5.3)."""
    return head.startswith(b"From ") and _FROM_FIELD.match(head) is None


_FROM_FIELD = re.compile(rb"From[ \t]*+:")


# RFC 4155 appendix A: "From " addr-spec SP timestamp, the timestamp as asctime writes it ("Mon Nov 16 09:00:00 2026"),
# read as mutt's is_from reads it: a weekday, a month, a day, a time, perhaps a zone or two, a year; also as RFC 5322
# 3.3 writes a date ("Mon, 16 Nov 2026 09:00:00 +0000"). The sender may hold spaces (pipermail's "a at example.org")
# or be missing.  A line of prose ("From 9:00 to 17:00 on 16 Nov 2026...") is none.
_WEEKDAY = rb"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)"
_MONTH = rb"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
_TIME = rb"\d{1,2}:\d\d(?::\d\d)?"
_ASCTIME = rb" +" + _MONTH + rb" +\d{1,2} +" + _TIME + rb"(?: +[^ \r\n]++){0,2}? +\d{4}"  # zones before the year
_RFC5322_DATE = rb", +\d{1,2} +" + _MONTH + rb" +\d{4} +" + _TIME
_FROM_LINE = re.compile(rb"From (?:[^\r\n]*? )??" + _WEEKDAY + rb"(?:" + _ASCTIME + rb"|" + _RFC5322_DATE
                        + rb")(?![^ \r\n])")
# RFC 5322 2.2: a header field (4.5.3: whitespace may stand before its colon), or the continuation of one (a folded
# line starts with whitespace).
_FIELD = re.compile(rb"([\x21-\x39\x3b-\x7e]++)[ \t]*+:|[ \t]")
_MESSAGE_FIELDS = frozenset({
    b"from", b"to", b"cc", b"subject", b"date", b"message-id", b"mime-version", b"received", b"return-path",
    b"delivered-to", b"content-type", b"reply-to", b"in-reply-to", b"references", b"sender",
    b"content-transfer-encoding",  # RFC 2045 6: a MIME entity saved alone (Content-Type and its encoding)
})
MAIL_SUFFIXES = frozenset({".eml", ".mbox", ".mbx"})


def looks_like_mail(head: bytes) -> bool:
    """Whether a file starting with *head* is a message or an mbox, judged by content: an mbox ``From `` line
    with its date (RFC 4155), or a header block (RFC 5322 2.2) of at least two fields a message has (From, To,
    Subject, Date, Message-ID, MIME-Version, Received...), up to its empty line or the end of *head*, also after a
    ``From `` line without a date (an mbox written by hand: ``From alice@example.org``)."""
    if _FROM_LINE.match(head):
        return True
    lines = head.splitlines()
    if is_mbox(head):
        del lines[0]
    known = 0
    for line in lines[:-1] or lines:
        if not line.strip():
            break
        field = _FIELD.match(line)
        if field is None:
            return False
        known += (field[1] or b"").lower() in _MESSAGE_FIELDS
    return known >= 2


def is_maildir(path: str | os.PathLike[str]) -> bool:
    """Whether *path* is a Maildir: a directory holding ``cur`` or ``new``."""
    folder = Path(path)
    return folder.is_dir() and ((folder / "cur").is_dir() or (folder / "new").is_dir())


def bundle_mbox(path: str | os.PathLike[str]) -> str | None:
    """The mbox file of a mailbox bundle *path*, None when it is none: Apple Mail exports a mailbox as a directory
    ``NAME.mbox`` holding the mbox itself, a file named ``mbox`` (beside ``Info.plist`` and ``table_of_contents``)."""
    folder = os.fspath(path)
    inside = os.path.join(folder, "mbox")
    named = os.path.basename(os.path.normpath(folder)).lower().endswith(".mbox")
    return inside if named and os.path.isfile(inside) else None


def _is_separator(line: bytes, dated: bool) -> bool:
    """Whether *line*, after an empty line, starts a message: a ``From `` line, with its timestamp when *dated*."""
    return line.startswith(b"From ") and (not dated or _FROM_LINE.match(line) is not None)


def _counted_body(lines: Iterator[bytes], length: int, dated: bool) -> tuple[list[bytes] | None, list[bytes]]:
    """The body lines of exactly *length* bytes read from *lines* when what follows them is a separator (an empty line,
    then a ``From `` line) or the end, as mutt checks a Content-Length, else None; and the lines read that are to be
    read again (those after the body, or every line read when it is None)."""
    body: list[bytes] = []
    size = 0
    while size < length:
        line = next(lines, None)
        if line is None:
            break
        body.append(line)
        size += len(line)
    after = [line for line in (next(lines, None),) if line is not None]
    if after and after[0] in _EMPTY_LINES:
        after.extend(line for line in (next(lines, None),) if line is not None)
    ends = size == length and (not after or (after[0] in _EMPTY_LINES and (len(after) == 1
                                                                            or _is_separator(after[1], dated))))
    return (body, after) if ends else (None, body + after)


def _content_length(header: list[bytes]) -> int | None:
    """The length the ``Content-Length`` field of a record's *header* lines gives (the first one), None without one
    or for a length no message may have."""
    found = _CONTENT_LENGTH.search(b"".join(header))  # header[0] is the From line: a field follows a "\n"
    return None if found is None or int(found[1]) > HELD_LIMIT else int(found[1])


def _mbox(lines: Iterable[bytes], path: str | None, dated: bool) -> Iterator[Message]:
    """The messages of an mbox of *lines*; *dated*: its separators carry a timestamp (as its first line does).

    A record's header ``Content-Length`` is trusted when :func:`_counted_body` confirms it; the lines it read ahead
    are read again (before the rest, through a chain: a line at a time costs no Python call), and no record
    starting inside what a wrong one read ahead trusts its own, so each line is read ahead at most once."""
    rest = iter(lines)
    again: list[bytes] = []  # lines read ahead, to be read before the rest
    index = 0
    offset = 0
    start = 0
    record: list[bytes] = []
    after_empty = True
    in_header = True
    trusted_from = 0  # records starting before this offset trust no Content-Length
    reading = True
    while reading:
        reading = False
        queued = iter(again)
        source = itertools.chain(queued, rest) if again else rest
        for line in source:
            if after_empty and line.startswith(b"From ") and record and _is_separator(line, dated):  # startswith: fast
                yield _message(record, index, start, path)
                index += 1
                record = []
                start = offset
                in_header = True
            record.append(line)
            offset += len(line)
            after_empty = line in _EMPTY_LINES
            if in_header and after_empty:  # the header's end
                in_header = False
                length = _content_length(record) if start >= trusted_from else None
                if length is not None:
                    body, read_ahead = _counted_body(source, length, dated)
                    if body is None:
                        trusted_from = offset + length
                    else:
                        record.extend(body)
                        offset += length
                        after_empty = not body or body[-1] in _EMPTY_LINES
                        if offset - start > HELD_LIMIT:
                            raise _too_large(path, index, start)
                    again = read_ahead + list(queued)
                    reading = True
                    break
            if offset - start > HELD_LIMIT:
                raise _too_large(path, index, start)
    if record:
        yield _message(record, index, start, path)


def _with_bare_crs(message: Message) -> Message:
    """*message*, read from an mbox whose lines all end in a bare CR (a classic Mac OS mailbox) with those as LFs
    (one byte for one: the offsets hold), with its CRs again: the mailbox was one record, its messages' data empty."""
    return dataclasses.replace(message, data=message.data.replace(b"\n", b"\r"),
                               record=message.record.replace(b"\n", b"\r"),
                               from_line=(message.from_line or b"").replace(b"\n", b"\r"),
                               trailer=message.trailer.replace(b"\n", b"\r"))


def _too_large(path: str | None, index: int, offset: int) -> MailError:
    """The error of a message longer than HELD_LIMIT bytes, naming the mailbox, the message and its offset: a
    message is held whole, so reading stops there (a compressed mailbox may decompress to gigabytes)."""
    return MailError(path or "<mailbox>", f"message {index} at offset {offset}: {too_large('a message')}")


def _message(record: list[bytes], index: int, offset: int, path: str | None) -> Message:
    from_line = record[0]
    body = record[1:]
    trailer = b""
    if body and body[-1] in _EMPTY_LINES:  # the separator's empty line (RFC 4155 appendix A)
        trailer = body.pop()
    data = _ESCAPED_FROM.sub(rb"\1", b"".join(body))
    return Message(index, offset, data, path, b"".join(record), from_line, trailer)


def messages(path_or_file: str | os.PathLike[str] | IO[bytes]) -> Iterator[Message]:
    """The messages of an mbox, a Maildir (``cur/`` then ``new/``, each in name order), a mailbox bundle (Apple Mail's
    export, :func:`bundle_mbox`) or a single message file, told apart by content: a directory with ``cur`` or ``new``
    is a Maildir, a file starting ``From `` an mbox, anything else one message.  A binary file object is read from
    where it stands."""
    if not isinstance(path_or_file, (str, os.PathLike)):
        if isinstance(path_or_file, io.TextIOBase):  # its lines are str: the byte offsets and bodies need bytes
            raise TypeError("messages() reads a mailbox as bytes: open the file in binary mode ('rb')")
        name = getattr(path_or_file, "name", None)
        yield from _file_messages(path_or_file, name if isinstance(name, str) and name else None)  # gzip gives ""
        return
    path = os.fspath(path_or_file)
    if os.path.isdir(path):
        bundled = bundle_mbox(path)
        if bundled is not None:
            with open(bundled, "rb") as handle:
                yield from _file_messages(handle, bundled)
            return
        if not is_maildir(path):
            raise MailError(path, "a directory that is not a Maildir (no cur/ or new/) nor a mailbox bundle "
                            "(NAME.mbox/mbox)")
        for index, file_path in enumerate(maildir_files(path)):
            yield maildir_message(file_path, index)
        return
    with open(path, "rb") as handle:
        yield from _file_messages(handle, path)


def maildir_files(path: str) -> Iterator[str]:
    """The message files of the Maildir *path*, in its order: ``cur/`` then ``new/``, each in name order; dot files
    and what is no file are none, and ``tmp/`` holds messages still being delivered (the Maildir specification)."""
    for sub in ("cur", "new"):
        folder = os.path.join(path, sub)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            file_path = os.path.join(folder, name)
            if not name.startswith(".") and os.path.isfile(file_path):
                yield file_path


def maildir_message(path: str, index: int) -> Message:
    """Message *index* of a Maildir, the file *path* (one of :func:`maildir_files`), read whole: the file is the
    message, whatever its first line; a file stored compressed, as Dovecot's zlib plugin stores one (gzip, bzip2, xz
    or Zstandard, told by its first bytes as Dovecot tells it; its name carries the flag Z), is the message it
    decompresses to."""
    with open(path, "rb") as handle:
        data = handle.read(HELD_LIMIT + 1)
    if len(data) > HELD_LIMIT:
        raise _too_large(path, index, 0)
    from ..sources.compressed import MAGIC_SIZE, compression

    codec = compression(data[:MAGIC_SIZE])
    if codec is None:
        return Message(index, 0, data, path, data)
    return Message(index, 0, _decompressed(data, codec, path, index), path, data, compression=codec)


def _decompressed(data: bytes, codec: str, path: str, index: int) -> bytes:
    """The message the Maildir file *path* holds compressed with *codec*, at most HELD_LIMIT bytes of it."""
    from ..sources.compressed import CORRUPT, decompressing

    try:
        with decompressing(io.BytesIO(data), codec) as stream:
            message = stream.read(HELD_LIMIT + 1)
    except CORRUPT as error:
        raise MailError(path, f"message {index}: cannot decompress its {codec} data: {error}") from None
    if len(message) > HELD_LIMIT:
        raise _too_large(path, index, 0)
    return message


def _file_messages(file: IO[bytes], path: str | None, head: bytes = b"") -> Iterator[Message]:
    lines = _lines_after(head, file)
    first = next(lines, b"")
    if not first:
        return
    if is_mbox(first):
        if b"\n" not in first and b"\r" in first and next(lines, None) is None:  # all of it, its lines ending in CR
            yield from map(_with_bare_crs, _mbox(io.BytesIO(first.replace(b"\r", b"\n")), path,
                                                 dated=_FROM_LINE.match(first) is not None))
            return
        yield from _mbox(_chain(first, lines), path, dated=_FROM_LINE.match(first) is not None)
        return
    held = [first]
    size = len(first)
    for line in lines:
        held.append(line)
        size += len(line)
        if size > HELD_LIMIT:
            raise _too_large(path, 0, 0)
    data = b"".join(held)
    yield Message(0, 0, data, path, data)


def messages_after(head: bytes, file: IO[bytes], name: str | None = None) -> Iterator[Message]:
    """The messages of a file of which *head* was already read (a sniffed start), the rest still in *file*."""
    yield from _file_messages(file, name, head)


def _lines_after(head: bytes, file: IO[bytes]) -> Iterator[bytes]:
    """The lines of *head* and then of *file*, line endings kept."""
    buffered = head
    while True:
        end = buffered.find(b"\n")
        if end >= 0:
            yield buffered[: end + 1]
            buffered = buffered[end + 1 :]
            continue
        more = file.readline(HELD_LIMIT + 1)
        if not more:
            if buffered:
                yield buffered
            return
        buffered += more
        if len(buffered) > HELD_LIMIT:  # longer than a message may be: given as read, for the reader to refuse it
            yield buffered
            buffered = b""


def _chain(first: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    yield first
    yield from rest


__all__ = [
    "MAIL_SUFFIXES", "Message", "bundle_mbox", "is_maildir", "is_mbox", "looks_like_mail", "maildir_files",
    "maildir_message", "messages", "messages_after",
]
