"""Anything the user names, opened: each file told by its content (compressed, a web archive, a mailbox or
message, HTML, plain text, binary) and turned into documents, in order."""

from __future__ import annotations

import io
import os
import sys
import tempfile
from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING, cast

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer
from dataclasses import dataclass, field
from stat import S_ISREG

from ..errors import InputError
from ..io import (
    CHUNK_SIZE, HELD_LIMIT, HTML_SUFFIXES, NUL_IN_NAME, STDIN, read_some, starts_as_html, temporary_prefix, too_large,
)
from ..mail.mailbox import (
    MAIL_SUFFIXES, bundle_mbox, is_maildir, looks_like_mail, maildir_files, maildir_message, messages_after,
)
from .compressed import CORRUPT, compression, cut_short, decompressed, undecompressed
from .document import FILE, HTML, MAIL, TEXT, Document, Position, failure
from .files import BINARY_SNIFF, WalkOptions, is_binary, maildir_file, retrieval_url, walk
from .warc import ForwardStream
from .warc import documents as warc_documents
from .warc import is_gzip_warc, is_warc

# A name that says text or HTML is read as such even when the content looks like a message (a digest saved as .txt).
NOT_MAIL_SUFFIXES = frozenset({".txt", ".text", ".md", ".rst"}) | HTML_SUFFIXES
# Suffixes that name a compression; the name under them says what the content is (page.html.gz).
COMPRESSION_SUFFIXES = frozenset({".gz", ".gzip", ".bz2", ".xz", ".zst", ".zstd", ".tgz"})
# A file under this size (by the listing's stat) is opened once, by the process that finds its links, which tells
# its kind and reads it whole; a larger one is opened and told by the main process, which splits a container (a
# web archive, a mailbox) into its documents so that one large archive still spreads over the workers.
WHOLE_SIZE = 1 << 20


@dataclass
class Counts:
    """What a run of the sources met besides documents: files opened and binary files skipped."""

    files: int = 0
    binary: int = 0
    skipped: list[str] = field(default_factory=list)


def content_suffix(name: str) -> str:
    """The suffix that names the content, in lower case, under any compression suffix (``notes.TXT.gz`` ->
    ``.txt``); empty for standard input."""
    if name == STDIN:
        return ""
    stem = os.path.basename(name)
    # os.path.splitext's suffix, without its calls: from the last dot, unless only dots come before it (.bashrc)
    while (dot := stem.rfind(".")) > 0 and stem[:dot].lstrip("."):
        suffix = stem[dot:].lower()
        if suffix not in COMPRESSION_SUFFIXES:
            return suffix
        stem = stem[:dot]
    return ""


def is_mail(name: str, head: bytes) -> bool:
    """A message or an mbox: by its name (.eml, .mbox), else by its content, unless its name says text or HTML."""
    return _is_mail(content_suffix(name), head)


def _is_mail(suffix: str, head: bytes) -> bool:
    return suffix in MAIL_SUFFIXES or (suffix not in NOT_MAIL_SUFFIXES and looks_like_mail(head))


def kind_of(name: str, head: bytes) -> str:
    """``mail``, ``html`` or ``text``: what the finders should read a file (by its name and first bytes) as."""
    suffix = content_suffix(name)
    if _is_mail(suffix, head):
        return MAIL
    if suffix in HTML_SUFFIXES or starts_as_html(head):
        return HTML
    return TEXT


def documents(
    names: Iterable[str], walking: WalkOptions, counts: Counts, *, encoding: str | None = None, whole: int = 0,
    base_url: str | None = None,
) -> Iterator[Document]:
    """The documents of every input *names* stand for, in order; an input that cannot be read is a failure
    document in its place. *encoding* (``--encoding``) makes a file with NUL bytes text, not binary (UTF-16);
    a text or HTML file under *whole* bytes is read here at once (the one process of ``--jobs 1`` opens each
    file once), a longer one where it is processed. With *base_url*, the retrieval URL of the folders named, a
    file met under one has the URL its path implies as its base (:func:`walked`)."""
    for item, base in walked(names, walking, base_url):
        if isinstance(item, Document):
            if item.kind == FILE:  # a Maildir's message
                counts.files += 1
                yield maildir_document(item._replace(base=base))
            else:
                yield item
            continue
        counts.files += 1
        yield from based(file_documents(item, counts, encoding, whole=whole), base)


def listed(
    names: Iterable[str], walking: WalkOptions, counts: Counts, *, encoding: str | None = None,
    base_url: str | None = None,
) -> Iterator[Document]:
    """What :func:`documents` gives, except that a regular file under WHOLE_SIZE bytes (by its stat) stays one
    ``file`` document, opened and told by :func:`file_documents` where it is processed: a batch's main process
    only lists and stats it, and the file is opened once in all. A larger file, a folder or standard input is
    told here, so that a large container (a web archive, a mailbox) spreads over the workers as its documents."""
    for item, base in walked(names, walking, base_url):
        if isinstance(item, Document):
            if item.kind == FILE:  # a Maildir's message, read where it is processed (its size shares out the work)
                counts.files += 1
                item = item._replace(size=_size(item.name), base=base)
            yield item
            continue
        counts.files += 1
        if item != STDIN:
            try:
                status = os.stat(item)
            except (OSError, ValueError):  # told below, where opening it fails (ValueError: a NUL in the name)
                status = None
            if status is not None and S_ISREG(status.st_mode) and status.st_size < WHOLE_SIZE:
                yield Document(item, FILE, path=item, base=base, size=status.st_size)
                continue
        yield from based(file_documents(item, counts, encoding), base)


def walked(names: Iterable[str], walking: WalkOptions, base_url: str | None,
           ) -> Iterator[tuple[str | Document, str | None]]:
    """What :func:`~linkkit.sources.files.walk` gives for *names*, each with the retrieval URL of a file met under a
    folder named when *base_url* is that folder's (``extract -r --base``: the URL its path under the folder
    implies, as ``absolutize -r`` gives it, RFC 3986 5.1.3), else None: a file named is retrieved from *base_url*
    itself, which the caller falls back on."""
    for name in names:
        for item in walk((name,), walking):
            path = item if isinstance(item, str) else item.path
            yield item, None if base_url is None or path in (None, name) else retrieval_url(base_url, name, path)


def based(found: Iterable[Document], base: str | None) -> Iterable[Document]:
    """*found* (the documents of one file), each without a base of its own given *base* (the file's retrieval URL,
    :func:`walked`): a web archive's records keep their target URIs."""
    if base is None:
        return found
    return (document if document.base is not None else document._replace(base=base) for document in found)


def _size(name: str) -> int:
    """The size of the file *name* by its stat, 0 when it cannot be asked (reading it will say why)."""
    try:
        return os.stat(name).st_size
    except OSError:
        return 0


def file_documents(name: str, counts: Counts, encoding: str | None, *, whole: int = 0) -> Iterable[Document]:
    """The documents of the input *name* (a file, a folder, ``-``), told by its content; one that cannot be read
    is a failure document in its place. A stored text or HTML file of fewer than *whole* bytes is read whole here;
    a longer one is read from its path where it is processed. A small file's documents come as a tuple, told at
    once; a larger input's as it is read on."""
    try:
        found = _file_documents(name, counts, encoding, whole)
    except (InputError, OSError) as error:
        return (_failed(name, error),)
    return found if isinstance(found, tuple) else _caught(name, found)


def _caught(name: str, found: Iterable[Document]) -> Iterator[Document]:
    """*found*, then a failure document in place of the rest where reading on fails."""
    try:
        yield from found
    except (InputError, OSError) as error:
        yield _failed(name, error)


def _failed(name: str, error: InputError | OSError) -> Document:
    """The failure document of the input *name*: an input error's message, or a system error's reason."""
    if isinstance(error, InputError):
        return failure(error.source, str(error).removeprefix(f"{error.source}: "))
    return failure("<stdin>" if name == STDIN else name, error.strerror or str(error))


def _file_documents(name: str, counts: Counts, encoding: str | None, whole: int) -> Iterable[Document]:
    """The documents of the input *name*, told by its content: the file is opened once, and its first bytes read
    once, for every question asked of them; a file object is made only to read on past them (a small file, read
    whole by its first read, costs an open, a read and a close, and its documents are told at once)."""
    if name == STDIN:
        return _stdin_documents(counts, encoding)
    descriptor = _opened(name)
    if descriptor is None:
        return _maildir_documents(name, counts, encoding, whole)
    try:
        head = _head(descriptor)
    except IsADirectoryError:  # a folder, told by opening and reading it: no stat first
        os.close(descriptor)
        return _maildir_documents(name, counts, encoding, whole)
    except BaseException:
        os.close(descriptor)
        raise
    compressed = compression(head)
    if compressed is None and len(head) < BINARY_SNIFF and not is_warc(head):  # the whole file, as stored
        os.close(descriptor)
        return _head_documents(name, name, head, None, counts, encoding, stored=True, whole=whole)
    # on from where the first read left it; closing the file object closes the descriptor
    return _read_on(open(descriptor, "rb"), name, head, compressed, counts, encoding, whole)


def _read_on(raw: IO[bytes], name: str, head: bytes, compressed: str | None, counts: Counts, encoding: str | None,
             whole: int) -> Iterator[Document]:
    """The documents of a stored file longer than its first bytes *head*, or compressed: read on from *raw*,
    which is closed after."""
    with raw:
        if not S_ISREG(os.fstat(raw.fileno()).st_mode):  # a pipe named (<(...), a FIFO): read once, as stdin is
            yield from _piped_documents(name, head, raw, counts, encoding)
            return
        if is_gzip_warc(head) if compressed == "gzip" else compressed is None and is_warc(head):
            # FastWARC reads gzip members itself, so each record's offset is its offset in the stored file, and a
            # truncated last member does not hide the records before it
            raw.seek(0)
            yield from warc_documents(raw, name, path=name)
            return
        if compressed is None:
            yield from _head_documents(name, name, head, raw, counts, encoding, stored=True, whole=whole)
            return
        raw.seek(0)
        try:
            stream = decompressed(raw)
        except CORRUPT as error:
            raise InputError(name, undecompressed(error)) from None
        with stream:
            yield from _stream_documents(name, name, stream, counts, encoding)


_READ_ONLY = os.O_RDONLY | getattr(os, "O_BINARY", 0)  # (O_BINARY: Windows, which would translate line ends)


def _opened(name: str) -> int | None:
    """The file *name* opened for reading, as a descriptor, or None for a folder where opening one fails."""
    try:
        return os.open(name, _READ_ONLY)
    except IsADirectoryError:
        return None
    except ValueError:  # the system call refuses a NUL byte in a name
        raise InputError(name, NUL_IN_NAME) from None


def _head(descriptor: int) -> bytes:
    """The first BINARY_SNIFF bytes of the file open as *descriptor*, fewer only at its end (a pipe or a FIFO may
    give fewer at a time)."""
    head = os.read(descriptor, BINARY_SNIFF)
    while head and len(head) < BINARY_SNIFF:
        more = os.read(descriptor, BINARY_SNIFF - len(head))
        if not more:
            break
        head += more
    return head


def _maildir_documents(name: str, counts: Counts, encoding: str | None, whole: int) -> Iterator[Document]:
    """The messages of the Maildir *name*, named as an input (and counted as one file): each of its message files
    is counted instead, as when the Maildir is met under ``-r``. An Apple Mail bundle (``NAME.mbox/``) named is
    the mbox file it holds, read as that file is (:func:`linkkit.mail.messages` reads it so)."""
    if not is_maildir(name):
        bundled = bundle_mbox(name)
        if bundled is None:
            raise InputError(name, "Is a directory")
        yield from _file_documents(bundled, counts, encoding, whole)
        return
    counts.files -= 1
    for index, path in enumerate(maildir_files(name)):
        counts.files += 1
        yield maildir_document(maildir_file(path, index))


def maildir_document(file: Document) -> Document:
    """The message of a Maildir's message *file* (a :func:`linkkit.sources.files.maildir_file` document), read
    whole as :func:`linkkit.mail.messages` reads it: the Maildir says it is a message, whatever its first bytes; a
    failure document with its index when it cannot be read."""
    assert file.path is not None and file.position.message is not None
    try:
        message = maildir_message(file.path, file.position.message)
    except (InputError, OSError) as error:
        return _failed(file.path, error)._replace(position=file.position)
    return Document(file.path, MAIL, message.data, base=file.base, position=file.position, size=len(message.data))


def _stdin_documents(counts: Counts, encoding: str | None) -> Iterator[Document]:
    try:
        stream = decompressed(cast(IO[bytes], _Unclosed(sys.stdin.buffer)))
    except CORRUPT as error:
        if isinstance(error, OSError) and error.errno is not None:  # a system error reading it (a closed stdin)
            raise
        raise InputError("<stdin>", undecompressed(error)) from None
    with stream:
        yield from _stream_documents(STDIN, "<stdin>", stream, counts, encoding, again=False)


def _piped_documents(name: str, head: bytes, raw: IO[bytes], counts: Counts,
                     encoding: str | None) -> Iterator[Document]:
    """The documents of the pipe or FIFO *name*, whose first bytes *head* were read from *raw*: decompressed and
    told as standard input is, since what was read of it cannot be read again (nor a pipe opened by a worker)."""
    try:
        stream = decompressed(cast(IO[bytes], _Rejoined(head, raw)))
    except CORRUPT as error:
        raise InputError(name, undecompressed(error)) from None
    with stream:
        yield from _stream_documents(name, name, stream, counts, encoding, again=False)


def _stream_documents(name: str, label: str, stream: IO[bytes], counts: Counts, encoding: str | None, *,
                      again: bool = True) -> Iterator[Document]:
    """The documents of a decompressed file, of standard input or of a pipe, read from *stream*; *again* when the
    input can be read again from *name* (a file), not when it is read once (standard input, a pipe). Cut short
    within its first bytes (a damaged member), what decompressed before the cut is still read, as text, HTML or a
    mailbox, then the error document."""
    head, cut = head_until_cut(stream, BINARY_SNIFF)
    if cut is not None and not head:
        raise InputError(label, undecompressed(cut))
    if is_warc(head):  # the archive's reader tells a record cut short itself; a file can be read again after one
        yield from warc_documents(cast(IO[bytes], _Rejoined(head, stream)), label, reread=name if again else None)
        return
    if cut is None:
        yield from _head_documents(name, label, head, stream, counts, encoding, stored=False, again=again)
        return
    yield from _head_documents(name, label, head, None, counts, encoding, stored=False)
    yield failure(label, cut_short(stream, cut))


def head_until_cut(stream: IO[bytes], size: int) -> tuple[bytes, BaseException | None]:
    """The first *size* bytes of *stream* (fewer at its end), read a ``read1`` at a time so that a damaged compressed
    stream keeps what decompressed before the damage: those bytes, and the failure that cut them short, if any."""
    pieces: list[bytes] = []
    held = 0
    try:
        while held < size and (piece := read_some(stream, size - held)):
            pieces.append(piece)
            held += len(piece)
    except CORRUPT as error:
        return b"".join(pieces), error
    return b"".join(pieces), None


def _head_documents(name: str, label: str, head: bytes, stream: IO[bytes] | None, counts: Counts,
                    encoding: str | None, *, stored: bool, whole: int = 0, again: bool = True) -> Iterable[Document]:
    """The documents of an input that is no web archive, whose first bytes *head* were read from *stream* (None
    when *head* is the whole file), which reads the file as *stored* or decompressed. A file longer than *head* is
    read whole here when it is stored and shorter than *whole*, else by the worker from *name* (its size is asked
    only then: no fstat for a small file). A mailbox's messages are read as they are asked for; any other file is
    one document or none (binary), given at once."""
    if is_binary(head) and encoding is None:
        counts.binary += 1
        counts.skipped.append(label)
        return ()
    kind = kind_of(name, head)
    if kind == MAIL:
        return _messages(head, stream or io.BytesIO(), label)
    if stream is None or len(head) < BINARY_SNIFF:  # the whole file: no need to open it again
        return (Document(label, kind, head, size=len(head)),)
    if not again:
        return _standard_input(label, kind, head, stream)
    size = os.fstat(stream.fileno()).st_size if stored else os.path.getsize(name)
    if stored and size < whole:
        # one byte more than the file held when asked: a file that grew since then is read from its path
        rest = stream.read(size - len(head) + 1)
        if len(head) + len(rest) <= size:
            return (Document(label, kind, head + rest, size=len(head) + len(rest)),)
    return (Document(label, kind, None, path=name, size=size),)


def _standard_input(label: str, kind: str, head: bytes, stream: IO[bytes]) -> tuple[Document, ...]:
    """Standard input's (or a pipe's) text or HTML after its first bytes *head*, read here since it cannot be read
    twice. A text longer than WHOLE_SIZE bytes goes on into a temporary file that its reader removes, so that a
    run's memory stays bounded whatever is piped in (HTML is held whole, as its finder reads a file). Input cut
    short (a damaged gzip member) is an error document after the text read before the cut, as for a compressed
    file; HTML cut short gives the error alone, as a file does."""
    pieces, held = [head], len(head)
    try:
        while kind != TEXT or held <= WHOLE_SIZE:
            chunk = read_some(stream, CHUNK_SIZE)
            if not chunk:
                return (Document(label, kind, b"".join(pieces), size=held),)
            pieces.append(chunk)
            held += len(chunk)
            if held > HELD_LIMIT:  # HTML: a text this long went on into a temporary file
                return (failure(label, too_large("an HTML document")),)
    except CORRUPT as error:
        cut = failure(label, cut_short(stream, error))
        return (cut,) if kind == HTML else (Document(label, kind, b"".join(pieces), size=held), cut)
    return _spooled(label, pieces, stream)  # a text past WHOLE_SIZE, with more to come


def _spooled(label: str, pieces: list[bytes], stream: IO[bytes]) -> tuple[Document, ...]:
    """Standard input's text, *pieces* read and the rest of *stream*, in a temporary file (removed again when it
    cannot be written); cut short, the error document after it."""
    cut = None
    with tempfile.NamedTemporaryFile(prefix=temporary_prefix("stdin"), suffix=".txt", delete=False) as spool:
        try:
            spool.writelines(pieces)
            while True:
                try:
                    chunk = read_some(stream, CHUNK_SIZE)
                except CORRUPT as error:  # a read error, not the temporary file's: the text before it is kept
                    cut = failure(label, cut_short(stream, error))
                    break
                if not chunk:
                    break
                spool.write(chunk)
        except BaseException:
            os.remove(spool.name)
            raise
        document = Document(label, TEXT, None, path=spool.name, size=spool.tell(), temporary=True)
    return (document,) if cut is None else (document, cut)


def _messages(head: bytes, stream: IO[bytes], label: str) -> Iterator[Document]:
    """The messages of a mailbox or a message whose first bytes *head* were read from *stream*, one document each."""
    try:
        for message in messages_after(head, stream, label):
            yield Document(label, MAIL, message.data, size=len(message.record),
                           position=Position(offset=message.offset, message=message.index))
    except CORRUPT as error:
        raise InputError(label, cut_short(stream, error)) from None


class _Rejoined(ForwardStream):
    """*head*, already read, then the rest of *stream*: one stream again."""

    def __init__(self, head: bytes, stream: IO[bytes]) -> None:
        self.head = head
        self.stream = stream

    def readinto(self, target: WriteableBuffer) -> int:
        buffer = memoryview(target).cast("B")
        if self.head:
            size = min(len(buffer), len(self.head))
            buffer[:size] = self.head[:size]
            self.head = self.head[size:]
            self.position += size
            return size
        data = read_some(self.stream, len(buffer))
        buffer[: len(data)] = data
        self.position += len(data)
        return len(data)


class _Unclosed(io.RawIOBase):
    """Standard input, read through layers that close what they wrap, left open for the rest of the run."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, target: WriteableBuffer) -> int:
        buffer = memoryview(target).cast("B")
        data = read_some(self.stream, len(buffer))
        buffer[: len(data)] = data
        return len(data)
