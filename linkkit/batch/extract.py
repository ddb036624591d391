"""The pure function of a batch: one document in, its results out (link records, or an error record), formatted.

Nothing here depends on which driver runs it, or where: a local process, a pool worker, a Dask worker. What it
would print to standard error (warnings, errors) is returned with the results, so the driver prints it in input
order.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import io
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import IO, TYPE_CHECKING, Any, AnyStr, NamedTuple

from .. import io as linkkit_io
from ..errors import InputError, ResolutionError
from ..io import (
    CHUNK_SIZE, ERRORS, SNIFF_SIZE, Encoding, Input, Lines, Undecodable, decoded_chunks,
    temporary_prefix, text_codec, text_encoding, too_large,
)
from ..link import LinkLike, Unit, record
from ..sources.compressed import CORRUPT, cut_short, open_input
from ..sources.document import ERROR, FILE, HTML, MAIL, Document, HeaderLink
from ..sources.inputs import WHOLE_SIZE, Counts, based, file_documents, head_until_cut, maildir_document
from .formats import LINE, LinkLine, link_lines

if TYPE_CHECKING:
    from ..security.flags import Context
    from ..security.refang import Edit
    from ..text.reference import Reference


@functools.cache
def _text() -> ModuleType:
    """The plain-text scanner (linkkit.text), imported when a first text is scanned: a run of HTML or mail only (a
    web archive) does not load it; then a cached call, cheaper than an import statement each time."""
    from .. import text

    return text


@dataclass(frozen=True, slots=True, kw_only=True)
class ExtractOptions:
    """What ``linkkit extract`` asks of each document: the output *format*; *base* (``--base``) for documents
    without a base of their own; *encoding* (``--encoding``) over any the input declares; the scanner's
    *abbreviated*, *emails* and *max_length*; *headers* for messages' List-* fields; *unique* to return each
    line's URI."""

    format: str = "plain"
    base: str | None = None
    encoding: str | None = None
    abbreviated: bool = True
    emails: bool = False
    max_length: int | None = None  # None: the scanner's own (linkkit.text.ScanOptions)
    headers: bool = False
    unique: bool = False
    flags: bool = False  # each record's "flags" (linkkit.security.flags)
    refang: bool = False  # a text's defanged references read back (linkkit.finditer's refang)
    # Past SPILL_SIZE bytes, a document's output goes to a temporary file on this machine, which the writer copies
    # and removes: memory stays bounded whatever the document's size. Not for Dask, whose results travel.
    spill: bool = False
    # the scanner's keyword arguments, made once: every text of a batch is scanned with them
    scanner: dict[str, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "scanner", scanner_options(self.abbreviated, self.emails, self.max_length))


def scanner_options(abbreviated: bool, emails: bool, max_length: int | None) -> dict[str, Any]:
    """The keyword arguments of the text scanner's calls; *max_length* None leaves the scanner's own."""
    options: dict[str, Any] = {"abbreviated": abbreviated, "emails": emails}
    if max_length is not None:
        options["max_length"] = max_length
    return options


SPILL_SIZE = 1 << 20  # bytes of one document's output held in memory before it spills to a temporary file


class Outcome(NamedTuple):
    """The results of one input, or of a run of them: the output lines (bytes, each ending in LF; joined into one
    without *unique*); each line's URI when *unique* was asked (None for an error record, which is never dropped);
    what goes to standard error; how many records failed; how many links and records it gave, the bytes they
    stood for, and the binary files skipped."""

    lines: list[bytes]
    uris: list[str | None] | None
    messages: list[str]
    failed: int
    links: int
    records: int
    size: int
    spilled: str | None = None  # a temporary file holding the output after *lines*: copy it, then remove it
    binary: int = 0


def stream_reach(options: dict[str, Any]) -> int:
    """How far before the end of the text read a reference from :func:`linkkit.text.finditer_stream` may still
    start."""
    from ..text.stream import stream_reach as text_stream_reach

    return text_stream_reach(CHUNK_SIZE, _text().ScanOptions(**options).max_length)


Row = tuple[LinkLike, int | None, int | None]  # a link, and the 1-based line and column where it starts (or None)


class Site(NamedTuple):
    """What the records of a run of links share: the input's name, the unit of their spans, the fields a finder
    adds to each (the document's position), and the link attributes it adds after those (an HTML link's tag and
    attribute, a mail part's). A tuple: one is made per document, and a small file's whole cost counts."""

    input: str
    unit: Unit
    extra: dict[str, Any]
    attributes: tuple[str, ...] = ()


Group = tuple[Site, Iterable[Row]]
# An HTML link's element and attribute (None for the text of <style>) in its record, after the one schema's keys:
# the record of issue 4's ``extract --format jsonl`` (tag, attr, raw, span), which "where" also spells.
HTML_ATTRIBUTES = ("tag", "attr")
# A text's records carry issue 3's ``extract --format jsonl`` keys too (file, line, column, span, uri, raw,
# delimiter, kind), after the one schema's, which spells them "input" and "where": its file and each delimiter.
TEXT_ATTRIBUTES = ("delimiter",)


def text_rows(chunks: Iterable[str], options: dict[str, Any], places: bool, *, refang: bool = False,
              ) -> Iterator[Row]:
    """Each reference of a text read in chunks, with its 1-based line and column when *places* asks for them; its
    defanged references too with *refang* (:class:`RefangedStream`)."""
    if not places:
        for ref in stream_references(chunks, options, refang=refang):
            yield ref, None, None
        return
    if not refang:
        lines = Lines(keep=stream_reach(options))
        fed = (lines.feed(chunk) for chunk in chunks)
        for ref in stream_references(fed, options):
            yield ref, *lines.locate(ref.start())
        return
    # a reference read back lags further behind in the text as written than the reach: the stream says how far
    refanging = RefangedStream(stream_reach(options))
    lines = Lines(keep=None)

    def settled() -> Iterator[str]:
        for chunk in chunks:
            lines.settle(refanging.settled())
            yield lines.feed(chunk)

    for ref in stream_references(settled(), options, refanging=refanging):
        yield ref, *lines.locate(ref.start())


def stream_references(chunks: Iterable[str], options: dict[str, Any], *, refang: bool = False,
                      refanging: RefangedStream | None = None, chunk_size: int | None = None) -> Iterator[Reference]:
    """The references :func:`linkkit.text.finditer_stream` finds in *chunks* (read *chunk_size* characters at a
    time, CHUNK_SIZE by default); with *refang* (or a *refanging* of the caller's, to ask how far it has settled)
    its defanged ones too, as ``finditer(text, refang=True)``."""
    finditer_stream = _text().finditer_stream
    size = CHUNK_SIZE if chunk_size is None else chunk_size
    if refanging is None and refang:
        refanging = RefangedStream(stream_reach(options))
    if refanging is None:
        return finditer_stream(chunks, chunk_size=size, **options)  # type: ignore[no-any-return]
    return map(refanging.as_written, finditer_stream(refanging.reading(chunks), chunk_size=size, **options))


# How far either side of a defanged spelling linkkit.security.refang reads to judge it (a character or a few, and
# back and ahead of a "(.)" a host name's 255, RFC 1034 3.1), with room to spare.
REFANG_CONTEXT = 512


class RefangedStream:
    """A text read in chunks with its defanged spellings read back (:func:`linkkit.security.refanged`) a window
    at a time, and each reference found in that reading put back where it is written: what
    ``finditer(text, refang=True)`` finds, in bounded memory (a log too large to hold, redacted). A spelling is
    judged by at most REFANG_CONTEXT characters around it, so a window with that much text on either side reads
    it as the whole text does; the spans map back as :meth:`Refanged.original_span` maps them."""

    def __init__(self, reach: int) -> None:
        self.reach = reach  # how far back in the reading the next reference found may start (stream_reach)
        self.window = ""  # the text as written from *window_start* on: what is read back next, with its context
        self.window_start = 0
        self.done = 0  # the text as written is read back up to here,
        self.read = 0  # which is this far into the reading
        self.edits: list[Edit] = []  # each spelling read back (offsets from the start), from one before *settled*
        self.starts: list[int] = []  # each edit's offset in the reading, for bisecting
        self.spellings: list[str] = []  # each edit's text as written

    def reading(self, chunks: Iterable[str]) -> Iterator[str]:
        """The text of *chunks*, its defanged spellings read back."""
        pending: list[str] = []  # joined once they are worth a window: tiny chunks are not copied one by one
        unread = len(self.window)
        for chunk in chunks:
            pending.append(chunk)
            unread += len(chunk)
            if unread > 4 * REFANG_CONTEXT:
                self.window += "".join(pending)
                pending.clear()
                yield self._read_back(final=False)
                unread = self.window_start + len(self.window) - self.done
        self.window += "".join(pending)
        last = self._read_back(final=True)
        if last:
            yield last

    def _read_back(self, *, final: bool) -> str:
        """The reading of the window's text after *done*, less its last REFANG_CONTEXT characters (their context
        is still to come) unless the text ends there."""
        from ..security.refang import Edit, refanged  # loaded when refanging is asked for

        base, window = self.window_start, self.window
        stop = base + len(window) - (0 if final else REFANG_CONTEXT)
        floor = self.read - self.reach  # no reference found from now on starts before this in the reading
        pieces: list[str] = []
        copied, read = self.done, self.read
        for edit in refanged(window).edits:
            start = base + edit.start
            if start < self.done:
                continue  # context read back already
            if start >= stop:
                break
            pieces.append(window[copied - base : edit.start])
            read += len(pieces[-1])
            self.edits.append(Edit(start, base + edit.end, read, edit.text))
            self.starts.append(read)
            self.spellings.append(window[edit.start : edit.end])
            pieces.append(edit.text)
            read += len(edit.text)
            copied = base + edit.end
        stop = max(stop, copied)  # a spelling that starts before the stop is read whole
        pieces.append(window[copied - base : stop - base])
        self.done, self.read = stop, read + len(pieces[-1])
        kept = max(0, stop - REFANG_CONTEXT - base)
        self.window, self.window_start = window[kept:], base + kept
        self._forget(floor)
        return "".join(pieces)

    def _forget(self, floor: int) -> None:
        """Let go of the edits before the last one at or before *floor* in the reading (no span maps through them),
        once they are half of those held."""
        before = bisect.bisect_right(self.starts, floor) - 1
        if before > len(self.edits) // 2:
            del self.edits[:before], self.starts[:before], self.spellings[:before]

    def settled(self) -> int:
        """The offset in the text as written before which no reference found from now on starts."""
        from ..security.refang import Refanged

        position = self.read - self.reach
        index = bisect.bisect_right(self.starts, position) - 1
        if position <= 0 or index < 0:
            return max(0, position)
        last = Refanged("", "", (self.edits[index],), (self.starts[index],))
        return last.original_span(position, position)[0]

    def as_written(self, ref: Reference) -> Reference:
        """*ref*, found in the reading, with its spans and its text (``.raw``, ``.string``) as written; ``.uri``
        is still the reading's."""
        from ..security.refang import Refanged
        from ..text.reference import Reference

        outer_start, outer_end = ref.outer_span()
        first = max(0, bisect.bisect_right(self.starts, outer_start - 1) - 1)
        last = bisect.bisect_right(self.starts, outer_end)
        if first == last:
            return ref  # no spelling read back before it or in it
        reading = Refanged("", "", tuple(self.edits[first:last]), tuple(self.starts[first:last]))
        start, end = reading.original_span(*ref.span())
        written_start, written_end = reading.original_span(outer_start, outer_end)
        string, offset = ref.string, ref.offset
        pieces: list[str] = []
        at = outer_start
        for index in range(first, last):
            edit = self.edits[index]
            if edit.new_start + len(edit.text) <= outer_start:
                continue  # the spelling before the reference: it only shifts the offsets
            # a spelling the reference starts inside of is written whole, as its span covers it
            pieces += (string[at - offset : max(at, edit.new_start) - offset], self.spellings[index])
            at = edit.new_start + len(edit.text)
        pieces.append(string[at - offset : outer_end - offset])
        return Reference("".join(pieces), written_start, start, end, written_start, written_end, ref.uri,
                         ref.delimiter, ref.kind, ref.alternatives, ref.truncated)


class HeaderURI(NamedTuple):
    """A URL of an HTTP header field, resolved: :class:`linkkit.link.LinkLike`, spans in the HTTP header block."""

    link: HeaderLink
    uri: str
    base: str | None

    def span(self, group: int = 0) -> tuple[int, int]:
        return self.link.span

    def start(self, group: int = 0) -> int:
        return self.link.span[0]

    def end(self, group: int = 0) -> int:
        return self.link.span[1]

    def group(self, group: int = 0) -> str:
        return self.link.raw

    @property
    def raw(self) -> str:
        return self.link.raw

    @property
    def where(self) -> str:
        return self.link.where

    @property
    def kind(self) -> str:
        return "url"


def _header_rows(document: Document, fallback: str | None) -> Group:
    """The header links of an HTTP envelope, resolved against the target URI (never against Content-Location), or
    where the record has none that is a base, against *fallback* (``--base``), as its body's links are."""
    from ..uri.resolution import Base  # the URI core, loaded by the first web archive record with header links

    base = None
    if (retrieval := document.base or fallback) is not None:
        try:
            base = Base(retrieval)
            base.resolve("")
        except ResolutionError:
            base = None
    found: list[Row] = []
    for link in document.header_links:
        uri = link.raw
        if base is not None:
            with contextlib.suppress(ResolutionError):
                uri = base.resolve(link.raw)
        found.append((HeaderURI(link, uri, None if base is None else base.uri), None, None))
    return Site(document.name, "byte", document.position.fields()), found


def _usable_charset(label: str | None) -> str | None:
    """A declared charset Python knows as a text encoding (:func:`linkkit.io.text_codec`), else None: the
    declaration is then ignored."""
    if not label:
        return None
    try:
        text_codec(_DECLARED, label)
    except InputError:
        return None
    return label


_DECLARED = Input("", None)  # what text_codec names in an error _usable_charset does not show


def _html_rows(document: Document, data: bytes, options: ExtractOptions, places: bool) -> Group:
    from .. import html  # each finder loaded on first use: a run loads only those its documents need

    encoding = options.encoding or _usable_charset(document.charset)
    # --refang reads the visible text too, the text of links included, for the defanged references a threat
    # report's page shows (issue 12)
    read = functools.partial(html.links, base_url=document.base or options.base, text=options.refang,
                             anchors=options.refang, refang=options.refang, abbreviated=options.abbreviated,
                             emails=options.emails)
    try:  # HTML carries its encoding (BOM, <meta charset>): --encoding, or the HTTP charset, overrides the <meta>
        found = read(data, encoding=encoding)
    except (LookupError, ValueError) as error:  # an unknown or unusable encoding
        if options.encoding is not None:
            raise InputError(document_label(document), str(error)) from None
        found = read(data)  # a charset the Encoding Standard lacks: as if undeclared
    if options.refang:
        found = [link for link in found if link.tag != "#text" or _is_defanged(link.raw)]
    site = Site(document.name, "byte", document.position.fields(), HTML_ATTRIBUTES)
    return site, _placed(data, b"\n", found) if places else [(link, None, None) for link in found]


def _is_defanged(written: str) -> bool:
    """Whether a reference of a page's text is *written* defanged: those are what ``--refang`` adds, not the
    text's other references, which a page's policy leaves out (its links are its markup's, issue 4)."""
    from ..security import refang

    return refang(written) != written


def _mail_rows(document: Document, data: bytes, options: ExtractOptions, messages: list[str]) -> Group:
    from .. import mail

    index = document.position.message or 0
    problems: list[mail.Problem] = []
    try:
        found = mail.links(data, base_url=document.base or options.base, headers=options.headers,
                           abbreviated=options.abbreviated, emails=options.emails, on_problem=problems.append,
                           refang=options.refang, unique=options.unique)
    except (LookupError, ValueError) as error:
        raise InputError(document.name, f"message {index}: {error}") from None
    messages.extend(problem_warning(document.name, index, problem) for problem in problems)
    message_id = mail.message_id(data) if found else None
    offset = document.position.offset or 0
    site = Site(document.name, "character", {"message": index, "message_id": message_id, "offset": offset,
                                             "position": {"offset": offset, "message": index}},
                ("part", "content_type", "source"))
    return site, [(link, None, None) for link in found]


def problem_warning(name: str, index: int, problem: object) -> str:
    """The standard-error line of a defect linkkit read past in message *index* of *name* (a ``mail.Problem``):
    ``extract``, ``rewrite`` and ``absolutize`` report one alike (issue 9: "reported with what went wrong")."""
    return f"linkkit: {name}: message {index}: warning: {problem}"


def _whole_text(document: Document, source: Input, options: ExtractOptions, messages: list[str], places: bool,
                ) -> list[Row] | None:
    """The references of a text held whole (a small file, a WARC record): decoded at once and scanned by
    :func:`linkkit.finditer`, which finds what the stream finds; None when its bytes need the stream's account of
    what cannot be decoded (an odd byte of UTF-16)."""
    data = document.data or b""
    encoding = text_encoding(source, data)
    body = data[len(encoding.bom):] if encoding.bom else data
    try:  # most texts decode strictly: then nothing is undecodable, and no search for what was kept is needed
        text, clean = body.decode(encoding.codec), True
    except UnicodeDecodeError:
        try:
            text, clean = body.decode(encoding.codec, ERRORS), False
        except UnicodeDecodeError:
            return None
    refs = _text().finditer(text, **options.scanner, refang=options.refang)
    found: list[Row] = _placed(text, "\n", refs) if places else [(ref, None, None) for ref in refs]
    if not clean:
        undecodable = Undecodable()
        undecodable.check(text, 0, 1, 0)
        warn_undecodable(undecodable, source.label, encoding, messages)
    return found


def warn_undecodable(undecodable: Undecodable, name: str, encoding: Encoding, messages: list[str]) -> None:
    """The warning about the bytes of the input *name* that did not decode, if any, added to *messages* (which the
    driver prints in input order)."""
    if undecodable.count:
        warning = io.StringIO()
        undecodable.warn(Input(name, None), encoding, warning)
        messages.append(warning.getvalue().rstrip("\n"))


def _placed(text: AnyStr, newline: AnyStr, links: Iterable[LinkLike]) -> list[Row]:
    """Each link of a document held whole (*text*, its characters or its bytes, as the links' spans count), in
    order, with the 1-based line and column where it starts: a running count of *newline* since the previous one."""
    count, rfind = text.count, text.rfind
    placed: list[Row] = []
    line, line_start, cursor = 1, 0, 0
    for link in links:
        start = link.start()
        if start < cursor:
            raise ValueError(f"offset {start} is before {cursor}, which was already passed")
        newlines = count(newline, cursor, start)
        if newlines:
            line += newlines
            line_start = rfind(newline, cursor, start) + 1
        cursor = start
        placed.append((link, line, start - line_start + 1))
    return placed


def _text_rows(document: Document, options: ExtractOptions, messages: list[str], places: bool) -> Iterable[Row]:
    """The rows of a text: a list when it is held whole and decodes, else read as a stream."""
    source = Input(document.path or document_label(document), options.encoding or _usable_charset(document.charset))
    if document.data is not None:
        whole = _whole_text(document, source, options, messages, places)
        if whole is not None:
            return whole
    return _streamed_rows(document, source, options, messages, places)


def _streamed_rows(document: Document, source: Input, options: ExtractOptions, messages: list[str], places: bool,
                   ) -> Iterator[Row]:
    try:
        stream: IO[bytes] = io.BytesIO(document.data or b"") if document.data is not None else _opened(document)
        with stream:
            head, error = head_until_cut(stream, SNIFF_SIZE)
            cut = [] if error is None else [error]
            encoding = text_encoding(source, head)
            undecodable = Undecodable()
            rest = io.BytesIO() if cut else stream  # cut within its first bytes: the text is those bytes
            chunks = _until_cut(decoded_chunks(source, encoding, head, rest, undecodable), cut)
            yield from text_rows(chunks, options.scanner, places, refang=options.refang)
            if cut:  # a compressed file cut short: every link of the text before the cut is out already
                raise InputError(source.label, cut_short(stream, cut[0]))
    finally:
        if document.temporary and document.path is not None:  # standard input's text, spooled: read once
            with contextlib.suppress(FileNotFoundError):
                os.remove(document.path)
    warn_undecodable(undecodable, source.label, encoding, messages)


def document_label(document: Document) -> str:
    """How a message names *document*: its input, and for a record of a web archive the record's offset, as the
    archive's own errors name it (``crawl.warc.gz: record at offset 305``); a message of a mailbox names its index
    itself."""
    position = document.position
    if position.offset is None or position.message is not None:
        return document.name
    return f"{document.name}: record at offset {position.offset}"


def _until_cut(chunks: Iterator[str], cut: list[BaseException]) -> Iterator[str]:
    """*chunks* until reading on fails (a damaged compressed file), the failure then put in *cut*: the text ends
    there, so the scan gives every reference before the cut, the last ones included."""
    try:
        yield from chunks
    except CORRUPT as error:
        cut.append(error)


def _opened(document: Document) -> IO[bytes]:
    assert document.path is not None
    try:
        # a temporary file holds standard input as it was decompressed already
        return open(document.path, "rb") if document.temporary else open_input(document.path)
    except CORRUPT as error:
        raise _unreadable(document, error) from None


def _data(document: Document) -> tuple[bytes, str | None]:
    """The bytes of *document*, an HTML page or a message held whole, and the error to report after its links when
    its compressed file was cut short: what decompressed before the damage is read, as a text's is (bad input loses
    no data: the whole page's links were lost with the error)."""
    if document.data is not None:
        return document.data, None
    with _opened(document) as stream:
        limit = linkkit_io.HELD_LIMIT  # read where it is used, as read_held reads it
        data, cut = head_until_cut(stream, limit + 1)
        if len(data) > limit:
            raise InputError(document.name, too_large("an HTML document" if document.kind == HTML else "a message"))
        return data, None if cut is None else cut_short(stream, cut)


def _unreadable(document: Document, error: BaseException) -> InputError:
    """The error of a document whose file cannot be opened or read (a system error's reason, else its message)."""
    return InputError(document.name, getattr(error, "strerror", None) or str(error))


def flag_records(uri: str, context: Context) -> list[dict[str, Any]]:
    """The ``flags`` of a record: each :class:`linkkit.security.Flag` of *uri* as a JSON-ready dict."""
    from ..security.flags import flags

    return [
        {"name": flag.name, "span": list(flag.span), "reason": flag.reason, "detail": flag.detail}
        for flag in flags(uri, context=context)
    ]


def error_record(document: Document, message: str) -> dict[str, Any]:
    """The record that stands for a document that failed, where its links would be: the one schema, with ``kind``
    ``"error"`` and the message in ``error``."""
    return {
        "input": document.name, "line": None, "column": None, "span": None, "unit": None, "kind": ERROR,
        "where": None, "raw": None, "uri": None, "base": None, **document.position.fields(), "error": message,
    }


def _groups(document: Document, options: ExtractOptions, messages: list[str], places: bool) -> Iterator[Group]:
    """The links of *document* in document order (HTTP header links first), in runs that share a :class:`Site`;
    the line and column of each where *places* asks for them; raises InputError."""
    if document.kind == ERROR:
        yield _header_rows(document, options.base)
        raise InputError(document.name, document.error or "cannot be read")
    if document.header_links:
        yield _header_rows(document, options.base)
    if document.kind in (HTML, MAIL):
        data, cut = _data(document)
        if document.kind == HTML:
            yield _html_rows(document, data, options, places)
        else:
            yield _mail_rows(document, data, options, messages)
        if cut is not None:
            raise InputError(document.name, cut)
    elif document.data != b"":
        site = Site(document.name, "character", {**document.position.fields(), "file": document.name},
                    TEXT_ATTRIBUTES)
        yield site, _text_rows(document, options, messages, places)
    if document.error is not None:  # read in part: its links, then the error (bad input loses no data)
        raise InputError(document.name, document.error)


def _line_writer(options: ExtractOptions, site: Site, context: Context) -> LinkLine:
    """How each link of *site* becomes an output line: straight from the link where the format can (plain,
    jsonl), else through its record, with its ``flags`` under ``--flags``."""
    if not options.flags:
        direct = link_lines(options.format, site.input, site.unit, site.extra, site.attributes)
        if direct is not None:
            return direct
    line_of = LINE[options.format]

    def through_record(link: LinkLike, line: int | None, column: int | None) -> str:
        found = record(link, input=site.input, line=line, column=column, unit=site.unit, **site.extra,
                       **{name: getattr(link, name) for name in site.attributes})
        if options.flags:
            found["flags"] = flag_records(found["uri"], context)
        return line_of(found)

    return through_record


def _encoded(lines: list[str]) -> bytes:
    """Output lines as the bytes written, each ending in LF."""
    return ("\n".join(lines) + "\n").encode("utf-8", ERRORS) if lines else b""


def extract(document: Document, options: ExtractOptions) -> Outcome:
    """The one pure function of a batch: *document*'s records as formatted output lines, an error record in place
    of what could not be read. A ``file`` document is opened here, told by its content and each document it holds
    done in turn (none for a binary file, which the outcome counts)."""
    counts = Counts()
    return _extracted(_opened_documents([document], counts, options), options, counts, cut=False)[0]


def extract_all(documents: list[Document], options: ExtractOptions) -> list[Outcome]:
    """:func:`extract` over a chunk of documents, the task a driver gives a worker: the outcome of each run of
    documents, cut after a document with messages so that they follow its lines. One value per run for the main
    process to receive and write, not one per file."""
    counts = Counts()
    return _extracted(_opened_documents(documents, counts, options), options, counts, cut=True)


def _opened_documents(documents: list[Document], counts: Counts, options: ExtractOptions) -> Iterator[Document]:
    """*documents*, each ``file`` document opened and replaced by the documents it holds (*counts* the binary
    files among them)."""
    for document in documents:
        if document.kind != FILE:
            yield document
        elif document.position.message is not None:  # a Maildir's message
            yield maildir_document(document)
        else:
            yield from based(file_documents(document.path or document.name, counts, options.encoding, whole=WHOLE_SIZE),
                             document.base)


def _extracted(documents: Iterable[Document], options: ExtractOptions, counts: Counts, *, cut: bool,
               ) -> list[Outcome]:
    """The output lines of *documents*, in order, as outcomes: one for them all, or with *cut* one for each run,
    which ends after a document whose messages must follow its lines, or before one once it holds SPILL_SIZE bytes;
    *counts* what their source met besides them."""
    places = options.format != "plain"  # one URI per line: no line and column to find
    outcomes: list[Outcome] = []
    run = _Run(options.unique)
    for document in documents:
        if cut:  # a run ends before a document once it holds SPILL_SIZE bytes: only one document's lines spill
            if run.held > SPILL_SIZE:
                outcomes.append(run.outcome(counts))
                run = _Run(options.unique)
            run.mark = run.held
        run.records += 1
        run.size += document.size
        context: Context = "html" if document.kind == HTML else "mail" if document.kind == MAIL else "text"
        try:
            for site, rows in _groups(document, options, run.messages, places):
                run.add_links(rows, _line_writer(options, site, context), options.spill, kept=context == "mail")
        except InputError as error:
            run.failed += 1
            run.messages.append(f"linkkit: error: {error}")
            if options.format != "plain":
                run.add_error(LINE[options.format](error_record(document, str(error))))
        if cut and run.messages:
            outcomes.append(run.outcome(counts))
            run = _Run(options.unique)
    if run.records or counts.binary or not outcomes:
        outcomes.append(run.outcome(counts))
    return outcomes


class _Run:
    """The output of a run of documents as it is made: its lines held in memory, written to a temporary file
    (where *spill* allows) once the lines of one document pass SPILL_SIZE bytes (of all its documents, from
    :func:`extract`); the URIs of the lines with *unique*; its messages and counts."""

    def __init__(self, unique: bool) -> None:
        self.lines: list[str] = []
        self.uris: list[str | None] | None = [] if unique else None
        self.messages: list[str] = []
        self.failed = self.links = self.held = self.records = self.size = 0
        self.mark = 0  # the bytes held when the document being done began (0: the run's lines spill as one)
        self.spill: IO[bytes] | None = None
        self.spill_path = ""

    def add_links(self, rows: Iterable[Row], line_of: LinkLine, spill: bool, *, kept: bool = False) -> None:
        """The output line of each link of *rows*, made by *line_of*; *kept*: lines ``--unique`` never drops (a
        message's links, made unique within the message by ``linkkit.mail.links``, issue 9). The loop keeps its
        counts in locals (a method call or an attribute update per link cost 4% of a web archive's extract), stored
        back however it ends."""
        lines, uris, held, mark, links = self.lines, self.uris, self.held, self.mark, 0
        try:
            for link, line, column in rows:
                text = line_of(link, line, column)
                lines.append(text)
                links += 1
                if uris is not None:
                    uris.append(None if kept else link.uri)
                    continue
                held += len(text)
                if held - mark > SPILL_SIZE and spill:
                    self._spill_out()
                    lines, held, mark = self.lines, 0, 0
        finally:
            self.held, self.mark, self.links = held, mark, self.links + links

    def _spill_out(self) -> None:
        """The lines held so far written to the run's temporary file (made on the first call), and let go."""
        if self.spill is None:
            import tempfile

            descriptor, self.spill_path = tempfile.mkstemp(prefix=temporary_prefix("spill"), suffix=".out")
            self.spill = os.fdopen(descriptor, "wb")
        self.spill.write(_encoded(self.lines))
        self.lines = []

    def add_error(self, line: str) -> None:
        """The output line of an error record (never dropped by ``--unique``: its URI is None)."""
        self.lines.append(line)
        if self.uris is not None:
            self.uris.append(None)

    def outcome(self, counts: Counts) -> Outcome:
        """The run's outcome, with the binary files *counts* met since the previous one (taken from it)."""
        binary, counts.binary = counts.binary, 0
        if self.spill is not None:
            self.spill.write(_encoded(self.lines))
            self.spill.close()
            return Outcome([], None, self.messages, self.failed, self.links, self.records, self.size,
                           self.spill_path, binary)
        if self.uris is not None:
            return Outcome([_encoded([text]) for text in self.lines], self.uris, self.messages, self.failed,
                           self.links, self.records, self.size, None, binary)
        # one value to send back from a worker, not one per link
        return Outcome([_encoded(self.lines)] if self.lines else [], None, self.messages, self.failed, self.links,
                       self.records, self.size, None, binary)
