"""Rewriting, one input at a time and in batch: a text's references replaced in a stream, an HTML document or a
message made absolute, and the pure function a driver maps over the files of a tree (each written atomically,
in place or into a mirror of the tree)."""

from __future__ import annotations

import codecs
import dataclasses
import os
import shutil
import stat
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TypeVar

from .. import html, mail
from ..errors import InputError
from ..io import (
    CHUNK_SIZE, SNIFF_SIZE, Input, Output, OutputError, Undecodable, decoded_chunks, encoded, looks_like_html,
    replacing, temporary_path, text_encoding,
)
from ..mail.mailbox import Message, maildir_message, messages_after
from ..security.defang import defang, defang_written, written_kind
from ..security.redact import Redaction, redacted
from ..sources.compressed import compression
from ..sources.document import FOLDER, LINK, Document
from ..sources.files import BINARY_SNIFF, is_binary, retrieval_url
from ..sources.inputs import is_mail
from ..sources.warc import is_warc
from ..text.reference import Reference
from ..uri.normalization import normalize
from .extract import (
    Outcome, RefangedStream, problem_warning, scanner_options, stream_reach, stream_references, warn_undecodable,
)

# A message's transformation (rewrite, absolutize): its bytes in, the new bytes out, each defect it read past given
# to the function passed with them.
MailTransform = Callable[[bytes, Callable[[mail.Problem], None]], bytes]
_Link = TypeVar("_Link")


class Tally:
    """How many links a batch rewrite read in one file: the count its summary line and progress report."""

    __slots__ = ("links",)

    def __init__(self) -> None:
        self.links = 0


def tallied(replace: Callable[[_Link], str], tally: Tally | None) -> Callable[[_Link], str]:
    """*replace*, counting into *tally* each link it is asked for (*replace* itself when there is no tally)."""
    if tally is None:
        return replace

    def counted(link: _Link) -> str:
        tally.links += 1
        return replace(link)

    return counted


def redaction(args: Any) -> Redaction | None:
    """What ``--redact``, ``--drop-userinfo`` and ``--redact-query NAME...`` ask to mask (either of the last two
    implies ``--redact``), or None."""
    query = tuple(getattr(args, "redact_query", None) or ())
    drop = bool(getattr(args, "drop_userinfo", False))
    if not (getattr(args, "redact", False) or drop or query):
        return None
    return Redaction.of(drop_userinfo=drop, query=query)


def secured(value: str, uri: str, kind: str, args: Any, masks: Redaction | None) -> str:
    """*value* (a link as it will be written) redacted and, with ``--defang``, defanged: from its *uri* for a
    reference read by the scanner (*kind*: its shape kept, ``www[.]example[.]org``), from *value* for an HTML
    attribute (*kind* ``url``: written as it was, a relative reference left alone)."""
    if getattr(args, "defang", False):
        if kind == "url":
            return defang(value if masks is None else redacted(value, masks))
        return defang_written(uri if masks is None else redacted(uri, masks), kind)
    return value if masks is None else redacted(value, masks)


def replacement(args: Any) -> Callable[[Reference], str]:
    """The text that replaces one reference's span, given the rewrite options (``normalize``, ``unwrap``,
    ``angle``, ``defang``, ``redact``)."""
    masks = redaction(args)

    def replace(ref: Reference) -> str:
        text = ref.group()
        if args.normalize:
            text = normalize(ref.uri)
        elif args.unwrap:
            text = ref.unwrapped  # wrapping whitespace and quoted-mail "> " markers dropped, as written otherwise
        if masks is not None or getattr(args, "defang", False):
            text = secured(text, normalize(ref.uri) if args.normalize else ref.uri, ref.kind, args, masks)
        if args.angle and not _in_angle_brackets(ref):
            text = f"<{text}>"
        return text

    return replace


def _in_angle_brackets(ref: Reference) -> bool:
    """Whether the reference is delimited by ``<...>`` already (``<URL:...>`` too)."""
    outer_start = ref.outer_span()[0]
    return ref.string.startswith("<", outer_start - ref.offset)


class _Held:
    """The text read and not yet written, from absolute offset *start* on, as a queue of chunks."""

    def __init__(self) -> None:
        self.chunks: deque[str] = deque()
        self.start = 0
        self.end = 0
        self.skip = 0  # characters of chunks[0] before *start*

    def append(self, chunk: str) -> None:
        self.chunks.append(chunk)
        self.end += len(chunk)

    def cut(self, offset: int) -> str:
        """Remove and return the text from *start* to *offset*, which is not before *start*."""
        if offset < self.start:
            raise ValueError(f"offset {offset} is before {self.start}, which was already written")
        pieces = []
        while self.start < offset:
            first = self.chunks[0]
            stop = min(len(first), self.skip + offset - self.start)
            pieces.append(first[self.skip:stop])
            self.start += stop - self.skip
            self.skip = stop
            if stop == len(first):
                self.chunks.popleft()
                self.skip = 0
        return "".join(pieces)


def rewrite_stream(
    chunks: Iterable[str], replace: Callable[[Reference], str], options: dict[str, Any], write: Callable[[str], None],
    *, refang: bool = False,
) -> bool:
    """Write the text of *chunks* with each reference's span replaced (``linkkit.sub`` on the whole text, its
    defanged references too with *refang*), holding only about :func:`stream_reach` characters; True when some
    reference was replaced by a different text."""
    held = _Held()
    reach = stream_reach(options)
    refanging = RefangedStream(reach) if refang else None

    def fed() -> Iterator[str]:
        for chunk in chunks:
            held.append(chunk)
            # no reference starts before this: the text before it is final
            settled = held.end - reach if refanging is None else refanging.settled()
            if settled > held.start:
                write(held.cut(settled))
            yield chunk

    changed = False
    for ref in stream_references(fed(), options, refanging=refanging, chunk_size=CHUNK_SIZE):
        start, end = ref.span()
        # read back, two references may share a spelling (hxxp cut by --max-length inside its "http"): the first
        # one's span covers it whole, and the next starts after it, as linkkit.sub copies them
        write(held.cut(max(start, held.start)))
        new = replace(ref)
        changed |= new != held.cut(end)
        write(new)
    write(held.cut(held.end))
    return changed


def mail_rewriter(args: Any, tally: Tally | None = None) -> MailTransform:
    """linkkit.mail.rewrite with the rewrite options: a text part's references as in text (--normalize, --unwrap,
    --angle); an HTML part's URLs normalized on --normalize (attributes as written, without resolving them)."""
    replace_text = replacement(args)

    masks = redaction(args)

    def replace(link: mail.MailLink) -> str:
        if isinstance(link.inner, Reference):
            return replace_text(link.inner)
        if args.normalize:
            text = normalize(link.raw if link.source == "html-attr" else link.uri)
        elif args.unwrap and link.source == "html-text":
            text = link.uri
        else:
            text = link.raw
        if masks is None and not getattr(args, "defang", False):
            return text
        kind = "url" if link.source == "html-attr" else written_kind(link.raw, link.uri)
        return secured(text, link.uri, kind, args, masks)

    # redacting or defanging reaches an anchor's text too, the address it shows made safe, and the message's own
    # header fields that hold URLs or free text (a List-Unsubscribe token, a password in a Subject's URL)
    secure = masks is not None or getattr(args, "defang", False)

    def rewritten(data: bytes, on_problem: Callable[[mail.Problem], None]) -> bytes:
        # a redaction reads defanged references, and what an HTML part carries unshown, as redact_message does
        return mail.rewrite(data, tallied(replace, tally), base_url=getattr(args, "base", None),
                            abbreviated=args.abbreviated, emails=args.emails, anchors=secure, headers=secure,
                            on_problem=on_problem, refang=masks is not None, hidden=masks is not None)

    return rewritten


def mail_absolutizer(args: Any, tally: Tally | None = None) -> MailTransform:
    """linkkit.mail.absolutize against the file's base (``--base``), its links counted into *tally*."""
    target = tallied(mail.absolute, tally)

    def absolutized(data: bytes, on_problem: Callable[[mail.Problem], None]) -> bytes:
        return mail.rewrite(data, target, base_url=args.base, on_problem=on_problem)

    return absolutized


def rewrite_messages(
    source: Input, messages: Iterable[Message], transform: MailTransform, out: Output, warnings: list[str]
) -> bool:
    """Write each message of an input transformed (an mbox record escaped again, RFC 4155), one at a time; True
    when some message changed. A message that does not change is written as the bytes it was read from; what was
    wrong with one (a part left as it was) goes to *warnings*, as ``extract`` reports it."""
    changed = False
    for message in messages:
        try:
            new = transform(message.data, warned_into(warnings, source.label, message.index))
        except ValueError as error:
            raise InputError(source.label, f"message {message.index}: {error}") from None
        changed |= new != message.data
        out.write(message.replaced(new))
    return changed


def warned_into(warnings: list[str], name: str, index: int) -> Callable[[mail.Problem], None]:
    """The ``on_problem`` of message *index* of *name*: each defect put into *warnings* as ``extract`` words it."""
    return lambda problem: warnings.append(problem_warning(name, index, problem))


def rewrite_text(
    source: Input, binary: IO[bytes], args: Any, out: Output, messages: list[str], tally: Tally | None = None
) -> bool:
    """Rewrite one text input (or message, or mbox) into *out*, in its own encoding and byte order, its links
    counted into *tally*; True when its text changed."""
    head = source.read(binary, SNIFF_SIZE)
    kind = container(head) or ("binary" if is_binary(head) and source.encoding is None else None)
    if kind is not None:
        # Its bytes are no text: rewriting them as text would damage the file (rewrite -r passes over such files,
        # but refuses a container when it redacts or defangs: _treatment).
        raise InputError(source.label, f"{kind}; not rewritten")
    if not args.as_text and is_mail(source.name, head):
        return rewrite_messages(source, messages_after(head, binary, source.label), mail_rewriter(args, tally), out,
                                messages)
    if looks_like_html(source, head) and not args.as_text:
        if redaction(args) is not None or getattr(args, "defang", False):
            return rewrite_html(source, head + binary.read(), args, out, tally)
        # Rewriting attribute values as prose would damage markup ("<" inside href="...").
        raise InputError(source.label, "looks like HTML; use 'linkkit absolutize', or --as-text")
    encoding = text_encoding(source, head)
    encoder = codecs.getincrementalencoder(encoding.codec)()
    undecodable = Undecodable()
    chunks = decoded_chunks(source, encoding, head, binary, undecodable)
    out.write(encoding.bom)
    scanner = scanner_options(args.abbreviated, args.emails, args.max_length)
    try:
        # a redaction reads defanged references as redact_text does: hxxp[:]//u:pw@evil[.]example/ holds a password
        changed = rewrite_stream(chunks, tallied(replacement(args), tally), scanner,
                                 lambda text: out.write(encoded(text, encoder)), refang=redaction(args) is not None)
        out.write(encoder.encode("", final=True))
    except UnicodeEncodeError as error:  # a replacement the input's encoding cannot hold
        unencodable = error.object[error.start : error.end]
        raise InputError(source.label, f"cannot encode {unencodable!r} as {encoding.codec}") from None
    warn_undecodable(undecodable, source.name, encoding, messages)
    return changed


def html_replacement(args: Any) -> Callable[[html.Link], str]:
    """``--defang`` and ``--redact`` for the links of an HTML document: an attribute value as written, a reference
    of the visible text as the scanner read it; every other link left as it is."""
    masks = redaction(args)

    def replace(link: html.Link) -> str:
        kind = written_kind(link.raw, link.uri) if link.tag == "#text" else "url"
        return secured(link.raw, link.uri, kind, args, masks)

    return replace


def rewrite_html(source: Input, data: bytes, args: Any, out: Output, tally: Tally | None = None) -> bool:
    """``rewrite --defang`` / ``--redact`` of an HTML document: its attribute values and visible-text references,
    an anchor's text included, replaced where they are (:func:`linkkit.html.rewrite`), every other byte copied,
    its links counted into *tally*; True when it changed."""
    try:
        # a redaction reads the visible text's defanged references, and what the page carries unshown (alt,
        # <title>, comments, scripts, an <iframe srcdoc>), as redact_html does
        redacting = redaction(args) is not None
        new = html.rewrite(data, tallied(html_replacement(args), tally), encoding=source.encoding, text=True,
                           abbreviated=args.abbreviated, emails=args.emails, anchors=True, refang=redacting,
                           hidden=redacting)
    except (LookupError, ValueError) as error:  # an unknown or unusable --encoding
        raise InputError(source.label, str(error)) from None
    out.write(new)
    return new != data


def absolutized(source: Input, data: bytes, base: str, encoding: str | None, tally: Tally | None = None) -> bytes:
    """The HTML document *data* made absolute against *base*, its links counted into *tally*."""
    try:
        result, count = html.absolutize_counted(data, base, encoding=encoding)
    except (LookupError, ValueError) as error:  # an unknown or unusable --encoding
        raise InputError(source.label, str(error)) from None
    assert isinstance(result, bytes)  # bytes in, bytes out
    if tally is not None:
        tally.links += count
    return result


# -- batch: a tree of files ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class TreeOptions:
    """A batch rewrite of the files under *root*: ``command`` ``rewrite`` or ``absolutize``; into *out_dir*
    (mirroring the tree; files left as they are copied too) or in place when it is None; *base_url* the URL the
    root was retrieved from (absolutize); the rewrite options as the command line names them."""

    command: str
    root: str
    out_dir: str | None
    base_url: str | None = None
    encoding: str | None = None
    force: bool = False
    normalize: bool = False
    unwrap: bool = False
    angle: bool = False
    as_text: bool = False
    abbreviated: bool = True
    emails: bool = False
    max_length: int | None = None  # None: the scanner's own (linkkit.text.ScanOptions)
    base: str | None = None  # a message's last base (RFC 2557 5): the file's retrieval URL
    defang: bool = False
    redact: bool = False
    drop_userinfo: bool = False
    redact_query: tuple[str, ...] = ()


def _target(options: TreeOptions, path: str) -> Path:
    if options.out_dir is None:
        return Path(path)
    return Path(options.out_dir) / os.path.relpath(path, options.root)


Transform = Callable[[IO[bytes], Output, list[str]], bool]  # a file read -> its new content written; changed?


def _treatment(options: TreeOptions, path: str, head: bytes, tally: Tally, message: int | None = None,
               ) -> Transform | None:
    """How the file *path*, whose first bytes are *head*, is rewritten into an output (True when it changed), its
    links counted into *tally*, or None when it is left as it is (binary, or not of the command's kind). A Maildir's
    message file (*message* its index) is that message, as when the Maildir is named, unless ``--as-text``."""
    source = Input(path, options.encoding)
    maildir = message is not None and (options.command == "absolutize" or not options.as_text)
    if not maildir and _skipped_binary(options, head):
        kind = container(head)
        secured = options.command == "rewrite" and (redaction(options) is not None or options.defang)
        if kind is not None and secured:
            # a redaction or defanging that passed over it would leave its secrets in the tree or mirror to share
            raise InputError(path, f"{kind}; not rewritten")
        return None
    base = retrieval_url(options.base_url, options.root, path) if options.base_url else None
    file_options = dataclasses.replace(options, base=base if base is not None else options.base)
    if maildir or (options.command == "absolutize" and is_mail(path, head)):
        transform = (mail_absolutizer if options.command == "absolutize" else mail_rewriter)(file_options, tally)
        return lambda binary, out, messages: rewrite_messages(
            source, _file_messages(source, binary, message), transform, out, messages)
    if options.command == "absolutize":
        if looks_like_html(source, head):
            if base is None:
                raise InputError(path, "an HTML document needs --base-url, its retrieval URL")
            return lambda binary, out, messages: _absolutized_into(source, binary.read(), base, options.encoding, out,
                                                                   tally)
        return None
    if looks_like_html(source, head) and not options.as_text and not is_mail(path, head):
        if redaction(options) is not None or options.defang:
            return lambda binary, out, messages: rewrite_html(source, binary.read(), file_options, out, tally)
        return None  # markup is absolutize's: rewriting it as prose would damage it
    # a text (or a mailbox) is read and written as a stream: memory stays bounded whatever the file's size
    return lambda binary, out, messages: rewrite_text(source, binary, file_options, out, messages, tally)


def _file_messages(source: Input, binary: IO[bytes], message: int | None) -> Iterable[Message]:
    """The messages of a file read from its start: a mailbox's or a message file's, or with *message* (its index)
    the one a Maildir's message file holds, whatever its first line (as :func:`linkkit.mail.messages` reads it)."""
    if message is None:
        return messages_after(b"", binary, source.label)
    return [maildir_message(source.name, message)]  # a compressed one (Dovecot's zlib) is written back compressed


def container(head: bytes) -> str | None:
    """What a file starting with *head* is when its bytes hold texts but are none (``gzip-compressed``, ``a web
    archive``: rewritten as text, a stream or a record's Content-Length and digests would be broken), or None."""
    packed = compression(head)
    if packed is not None:
        return f"{packed}-compressed"
    return "a web archive" if is_warc(head) else None


def _skipped_binary(options: TreeOptions, head: bytes) -> bool:
    """Whether a file starting with *head* is binary, left as it is and counted as skipped (as ripgrep does): a
    compressed file or a web archive, whatever its first bytes hold, or a NUL byte where ``--encoding`` does not
    say it is text."""
    return container(head) is not None or (options.encoding is None and is_binary(head))


def _absolutized_into(source: Input, data: bytes, base: str, encoding: str | None, out: Output, tally: Tally) -> bool:
    new = absolutized(source, data, base, encoding, tally)
    out.write(new)
    return new != data


def rewrite_file(document: Document, options: TreeOptions) -> Outcome:
    """The pure function of a batch rewrite: one file rewritten into its target atomically (``linkkit.io.replacing``),
    or copied there unchanged; a failure leaves the target as it was. Its outcome's messages say what failed."""
    path = document.path or document.name
    messages: list[str] = []
    try:
        if document.error is not None:
            raise InputError(document.name, document.error)
        if document.kind == LINK:
            _mirror_link(path, _target(options, path))
            return Outcome([], None, messages, 0, 0, 0, 0)
        if document.kind == FOLDER:
            mirror_folder(_target(options, path))
            return Outcome([], None, messages, 0, 0, 0, 0)
        source = Input(path, None)
        with source.open_binary() as binary:
            opened = os.fstat(binary.fileno())  # in place: a file that changes from here on is left as it is then
            size = opened.st_size
            head = source.read(binary, BINARY_SNIFF)
            tally = Tally()
            transform = _treatment(options, path, head, tally, document.position.message)
            skipped = int(transform is None and _skipped_binary(options, head))
            if transform is None and options.out_dir is None:
                return Outcome([], None, messages, 0, 0, 1, size, binary=skipped)
            binary.seek(0)
            target = _target(options, path)
            if options.out_dir is not None:
                mirror_folder(target.parent)
            with replacing(target, options.force, since=opened if options.out_dir is None else None) as written:
                if options.out_dir is not None:
                    _mirrored_mode(written.output, opened)
                if transform is None:  # a mirror's copy of a file left as it is
                    shutil.copyfileobj(binary, written.output)
                    changed = False
                else:
                    changed = transform(binary, written.output, messages)
                written.changed = options.out_dir is not None or changed
        if options.out_dir is not None:  # a file the mirror held already kept its own mode: the source's now
            _mirrored_mode_after(target, opened)
    except (InputError, OutputError) as error:
        messages.append(f"linkkit: error: {error}")
        return Outcome([], None, messages, 1, 0, 1, document.size)
    return Outcome([], None, messages, 0, tally.links, 1, size, binary=skipped)


def _mirror_link(path: str, target: Path) -> None:
    """The symbolic link *path* (not followed) made again at *target* in the mirror, pointing where it points, as
    ``cp -R`` and ``rsync -a`` copy one; a file or link the mirror holds there is replaced atomically."""
    mirror_folder(target.parent)
    try:
        pointed = os.readlink(path)
        temporary = temporary_path(target, os.getpid())
        temporary.unlink(missing_ok=True)
        os.symlink(pointed, temporary)
        os.replace(temporary, target)
    except OSError as error:
        raise OutputError(f"{target}: cannot write: {error.strerror or error}") from None


def mirror_folder(target: Path) -> None:
    """A folder of the mirror made at *target*: its root, a file's folder, or one that no file makes (an empty one,
    a Maildir's ``tmp/``), as ``cp -R`` and ``rsync -a`` make it (a mirror of a Maildir without its ``new/`` and
    ``tmp/`` was none); one that cannot be made (a file in its place) is an output error naming it."""
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"{target}: cannot make the folder: {error.strerror or error}") from None


def _mirrored_mode(output: Output, source: os.stat_result) -> None:
    """A mirror's new file takes the mode of the file it mirrors before a byte is written to it, so that a private
    file (0600) stays private there, rewritten or copied; a device or pipe the mirror holds is left as it is."""
    descriptor = output.stream.fileno()
    if stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.fchmod(descriptor, stat.S_IMODE(source.st_mode))


def _mirrored_mode_after(target: Path, source: os.stat_result) -> None:
    """The mode of the file a mirror's *target* copies (its status *source*, taken when it was opened: the file
    may be gone since) given to *target*, which may have been in the mirror with its own mode already; a device or
    pipe the mirror holds is left as it is, as :func:`_mirrored_mode` leaves it."""
    try:
        if stat.S_ISREG(os.stat(target).st_mode):
            os.chmod(target, stat.S_IMODE(source.st_mode))
    except OSError as error:
        raise OutputError(f"{target}: cannot write: {error.strerror or error}") from None


def rewrite_files(documents: list[Document], options: TreeOptions) -> list[Outcome]:
    """:func:`rewrite_file` over a chunk of files: the task a worker is given."""
    return [rewrite_file(document, options) for document in documents]
