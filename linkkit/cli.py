"""The command line: ``linkkit extract``, ``linkkit rewrite`` and ``linkkit absolutize`` over files or standard input.

Each subcommand is one ``add_*`` function that registers its parser and the function that runs it; adding a
subcommand is writing one such function and listing it in ``COMMANDS``. A text input's encoding is its BOM, else
``--encoding``, else UTF-8; it is decoded with ``surrogateescape``: undecodable bytes are reported with their
position and carried through unchanged, so no byte of an input is ever lost. Every write is checked. Exit status:
0 all inputs done, 1 some input failed (the others were still processed) or the output cannot be written, 2 usage
error, 141 (128 + SIGPIPE) the reader of the output went away.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import json
import os
import re
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any, TextIO, TypeAlias

from . import __version__, html, mail
from .errors import InputError, ResolutionError
from .io import (
    CHUNK_SIZE,
    ERRORS,
    HTML_SUFFIXES,
    SNIFF_SIZE,
    STDIN,
    UNDECODED,
    ByteLines,
    Input,
    Lines,
    Output,
    OutputError,
    Undecodable,
    decoded_chunks,
    encoded,
    looks_like_html,
    replacing,
    standard_output,
    text_encoding,
)
from .link import record
from .mail.mailbox import MAIL_SUFFIXES, Message, is_maildir, messages_after
from .text.reference import Reference
from .text.scan import ScanOptions
from .text.stream import finditer_stream, stream_reach
from .uri.normalization import normalize
from .uri.percent import percent_encode
from .uri.resolution import Base

Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"  # what add_subparsers() returns
EXIT_OK, EXIT_SOME_FAILED = 0, 1  # and 2 for a usage error, as argparse exits
EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE  # what a shell reports for a tool stopped by a closed pipe (`| head -1`)
# Never URI characters (RFC 3986 2; RFC 3987 2.2 leaves C1 controls and the line and paragraph separators out of
# ucschar): percent-encoded in plain output, so that one reference is always one line.
_LINE_BREAKING = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _error(message: str, stderr: IO[str]) -> None:
    print(f"linkkit: error: {message}", file=stderr)


def _scanner_options(args: argparse.Namespace) -> dict[str, Any]:
    return {"abbreviated": args.abbreviated, "emails": args.emails}


def _stream_reach(options: dict[str, Any]) -> int:
    """How far before the end of the text read a reference from :func:`finditer_stream` may still start."""
    return stream_reach(CHUNK_SIZE, ScanOptions(**options).max_length)


def _add_input_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", metavar="FILE", help="input files (standard input when none, or -)")
    parser.add_argument(
        "--encoding", help="input encoding when there is no BOM (default utf-8; bad bytes are kept; "
        "for HTML it overrides <meta charset>)",
    )


def _add_scanner_options(parser: argparse.ArgumentParser) -> None:
    _add_input_options(parser)
    parser.add_argument(
        "--no-abbreviated", dest="abbreviated", action="store_false",
        help="do not complete www. and ftp. hosts (RFC 3986 draft appendix F)",
    )
    parser.add_argument("--emails", action="store_true", help="also find bare e-mail addresses, as mailto: URIs")


def _add_target_options(parser: argparse.ArgumentParser, what: str) -> None:
    target = parser.add_mutually_exclusive_group()
    target.add_argument("-o", "--output", metavar="FILE", help="write the result to FILE instead of standard output")
    target.add_argument("--in-place", action="store_true", help=f"rewrite each input {what} atomically")
    parser.add_argument(
        "--force", action="store_true",
        help="replace read-only files too, and write files with several hard links or another owner through "
        "the file itself (not atomically)",
    )


def _inputs(args: argparse.Namespace) -> list[Input]:
    return [Input(name, args.encoding) for name in (args.files or [STDIN])]


# -- extract -----------------------------------------------------------------------------------------------------



def _text_records(chunks: Iterable[str], label: str, options: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """One JSON-ready record per reference of a text read in chunks, with its 1-based line and column."""
    lines = Lines(keep=_stream_reach(options))
    fed = (lines.feed(chunk) for chunk in chunks)
    for ref in finditer_stream(fed, chunk_size=CHUNK_SIZE, **options):
        line, column = lines.locate(ref.start())
        yield record(ref, input=label, line=line, column=column)


def _extract_from(source: Input, args: argparse.Namespace, stderr: IO[str]) -> Iterator[dict[str, Any]]:
    """The records of one input: the links of a message or a mailbox, of an HTML document, or the references of a
    text read in chunks."""
    if _is_maildir(source):
        yield from _mail_records(source, mail.messages(source.name), args, stderr)
        return
    with source.open_binary() as binary:
        head = source.read(binary, SNIFF_SIZE)
        if _is_mail(source, head):
            yield from _mail_records(source, messages_after(head, binary, source.label), args, stderr)
            return
        if looks_like_html(source, head):
            yield from _html_records(source, head + source.read(binary), args)
            return
        encoding = text_encoding(source, head)
        undecodable = Undecodable()
        chunks = decoded_chunks(source, encoding, head, binary, undecodable)
        yield from _text_records(chunks, source.label, _scanner_options(args))
    undecodable.warn(source, encoding, stderr)


def _json_line(record: dict[str, Any]) -> str:
    """*record* as one line of JSON; an undecodable byte stays a ``\\udcXX`` escape, so the line is valid UTF-8."""
    line = json.dumps(record, ensure_ascii=False)
    return UNDECODED.sub(lambda bad: "".join(f"\\u{ord(c):04x}" for c in bad.group()), line)


def _plain_line(uri: str) -> str:
    """*uri* on one line: the control characters and line separators it may hold (an ``href`` with a newline)
    are never URI characters, so they are percent-encoded (``%0A``), which is how a URI carries them."""
    return _LINE_BREAKING.sub(lambda character: percent_encode(character.group()), uri)


def run_extract(args: argparse.Namespace, stdout: TextIO, stderr: IO[str]) -> int:
    out = standard_output(stdout)
    seen: set[str] = set()
    failed = False
    for source in _inputs(args):
        try:
            for record in _extract_from(source, args, stderr):
                if args.unique:
                    if record["uri"] in seen:
                        continue
                    seen.add(record["uri"])
                line = _json_line(record) if args.format == "jsonl" else _plain_line(record["uri"])
                out.write((line + "\n").encode("utf-8", ERRORS))
        except InputError as error:
            _error(str(error), stderr)
            failed = True
    out.flush()
    return EXIT_SOME_FAILED if failed else EXIT_OK


def add_extract(commands: Subcommands) -> None:
    parser = commands.add_parser("extract", help="print the URI references found in text, HTML or e-mail")
    _add_scanner_options(parser)
    parser.add_argument("--format", choices=("text", "jsonl"), default="text", help="one URI per line, or JSON lines")
    parser.add_argument("--unique", action="store_true", help="print each URI once, at its first occurrence")
    parser.add_argument(
        "--base", metavar="URL", help="retrieval URL of HTML inputs and messages: their links are resolved against it"
    )
    parser.add_argument(
        "--headers", action="store_true",
        help="also the URLs of messages' List-* and Archived-At header fields (RFC 2369, RFC 5064)",
    )
    parser.set_defaults(run=run_extract, check=_check_base, parser=parser)


# -- rewrite -----------------------------------------------------------------------------------------------------


def _replacement(args: argparse.Namespace) -> Callable[[Reference], str]:
    """The text that replaces one reference's span, given the rewrite options."""

    def replace(ref: Reference) -> str:
        text = ref.group()
        if args.normalize:
            text = normalize(ref.uri)
        elif args.unwrap:
            text = ref.unwrapped  # wrapping whitespace and quoted-mail "> " markers dropped, as written otherwise
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


def _rewrite_stream(
    chunks: Iterable[str], replace: Callable[[Reference], str], options: dict[str, Any], write: Callable[[str], None]
) -> bool:
    """Write the text of *chunks* with each reference's span replaced (``linkkit.sub`` on the whole text), holding
    only about :func:`_stream_reach` characters; True when some reference was replaced by a different text."""
    held = _Held()
    reach = _stream_reach(options)

    def fed() -> Iterator[str]:
        for chunk in chunks:
            held.append(chunk)
            if held.end - reach > held.start:  # no reference starts that far back: that text is final
                write(held.cut(held.end - reach))
            yield chunk

    changed = False
    for ref in finditer_stream(fed(), chunk_size=CHUNK_SIZE, **options):
        start, end = ref.span()
        write(held.cut(start))
        new = replace(ref)
        changed |= new != held.cut(end)
        write(new)
    write(held.cut(held.end))
    return changed


def _rewrite_from(
    source: Input, binary: IO[bytes], args: argparse.Namespace, out: Output, stderr: IO[str]
) -> bool:
    """Rewrite one text input (or message, or mbox) into *out*, in its own encoding and byte order; True when its
    text changed."""
    head = source.read(binary, SNIFF_SIZE)
    if not args.as_text and _is_mail(source, head):
        return _rewrite_messages(source, messages_after(head, binary, source.label), _mail_rewriter(args), out)
    if looks_like_html(source, head) and not args.as_text:
        # Rewriting attribute values as prose would damage markup ("<" inside href="...").
        raise InputError(source.label, "looks like HTML; use 'linkkit absolutize', or --as-text")
    encoding = text_encoding(source, head)
    encoder = codecs.getincrementalencoder(encoding.codec)()
    undecodable = Undecodable()
    chunks = decoded_chunks(source, encoding, head, binary, undecodable)
    out.write(encoding.bom)
    try:
        changed = _rewrite_stream(
            chunks, _replacement(args), _scanner_options(args), lambda text: out.write(encoded(text, encoder))
        )
        out.write(encoder.encode("", final=True))
    except UnicodeEncodeError as error:  # a replacement the input's encoding cannot hold
        unencodable = error.object[error.start : error.end]
        raise InputError(source.label, f"cannot encode {unencodable!r} as {encoding.codec}") from None
    undecodable.warn(source, encoding, stderr)
    return changed


def _rewrite_in_place(source: Input, args: argparse.Namespace, stderr: IO[str]) -> None:
    with source.open_binary() as binary, replacing(Path(source.name), args.force) as target:
        target.changed = _rewrite_from(source, binary, args, target.output, stderr)


def _rewrite_all(sources: list[Input], args: argparse.Namespace, out: Output, stderr: IO[str]) -> bool:
    """Rewrite *sources* one after another into *out*; True when some input failed (the others are done)."""
    failed = False
    for source in sources:
        try:
            if _is_maildir(source):
                raise InputError(source.label, "a Maildir is rewritten with --in-place only (one file per message)")
            with source.open_binary() as binary:
                _rewrite_from(source, binary, args, out, stderr)
        except InputError as error:
            _error(str(error), stderr)
            failed = True
    out.flush()
    return failed


def run_rewrite(args: argparse.Namespace, stdout: TextIO, stderr: IO[str]) -> int:
    sources = _inputs(args)
    if args.in_place:
        failed = False
        for source in sources:
            try:
                if _is_maildir(source) and not args.as_text:
                    _rewrite_maildir(source, _mail_rewriter(args), args)
                else:
                    _rewrite_in_place(source, args, stderr)
            except (InputError, OutputError) as error:
                _error(str(error), stderr)
                failed = True
    elif args.output is not None:
        with replacing(Path(args.output), args.force) as target:
            failed = _rewrite_all(sources, args, target.output, stderr)
    else:
        failed = _rewrite_all(sources, args, standard_output(stdout), stderr)
    return EXIT_SOME_FAILED if failed else EXIT_OK


def _check_rewrite_usage(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    if args.in_place and (not args.files or STDIN in args.files):
        parser.error("--in-place needs file names (standard input cannot be rewritten in place)")
    if args.output is not None and any(
        name != STDIN and Path(name).resolve() == Path(args.output).resolve() for name in args.files
    ):
        parser.error(f"-o {args.output} is also an input; use --in-place to rewrite a file in place")


def add_rewrite(commands: Subcommands) -> None:
    parser = commands.add_parser(
        "rewrite", help="rewrite the URI references of text or e-mail, leaving everything else as is"
    )
    _add_scanner_options(parser)
    parser.add_argument("--normalize", action="store_true", help="normalize each reference (RFC 3986 6.2.2, 6.2.3)")
    parser.add_argument("--unwrap", action="store_true", help="re-join references that run over several lines")
    parser.add_argument("--angle", action="store_true", help="wrap each reference in <...> (RFC 3986 appendix C)")
    parser.add_argument("--as-text", action="store_true", help="rewrite HTML and e-mail inputs as plain text too")
    _add_target_options(parser, "file")
    parser.set_defaults(run=run_rewrite, check=_check_rewrite_usage, parser=parser)


# -- HTML: extract's HTML branch and absolutize -----------------------------------------------------------------


def _html_records(source: Input, data: bytes, args: argparse.Namespace) -> list[dict[str, Any]]:
    """One JSON-ready record per link of an HTML input; spans are byte offsets into the file."""
    try:  # HTML carries its encoding (BOM, <meta charset>): --encoding overrides the <meta>
        found = html.links(data, base_url=args.base, encoding=args.encoding)
    except (LookupError, ValueError) as error:  # an unknown or unusable --encoding
        raise InputError(source.label, str(error)) from None
    lines = ByteLines(data)
    return [
        record(link, input=source.label, line=line, column=column, unit="byte")
        for link in found
        for line, column in (lines.locate(link.start()),)
    ]


def _check_base(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    if args.base is not None:
        try:
            Base(args.base).resolve("")  # an absolute base: the HTML inputs resolve against it
        except ResolutionError as error:
            parser.error(f"--base: {error}")


def _absolutized(source: Input, data: bytes, args: argparse.Namespace) -> bytes:
    try:
        result = html.absolutize(data, args.base, encoding=args.encoding)
    except (LookupError, ValueError) as error:  # an unknown or unusable --encoding
        raise InputError(source.label, str(error)) from None
    assert isinstance(result, bytes)  # bytes in, bytes out
    return result


def run_absolutize(args: argparse.Namespace, stdout: TextIO, stderr: IO[str]) -> int:
    out = None if args.in_place or args.output is not None else standard_output(stdout)
    failed = False
    for source in _inputs(args):
        try:
            if _is_maildir(source):
                if not args.in_place:
                    raise InputError(source.label, "a Maildir is rewritten with --in-place only (one file per message)")
                _rewrite_maildir(source, _mail_absolutizer(args), args)
                continue
            with source.open_binary() as binary:
                head = source.read(binary, SNIFF_SIZE)
                if _is_mail(source, head):
                    messages = messages_after(head, binary, source.label)
                    if out is not None:
                        _rewrite_messages(source, messages, _mail_absolutizer(args), out)
                        continue
                    with replacing(Path(args.output or source.name), args.force) as target:
                        changed = _rewrite_messages(source, messages, _mail_absolutizer(args), target.output)
                        target.changed = args.output is not None or changed
                    continue
                data = head + source.read(binary)
            if args.base is None:
                raise InputError(source.label, "an HTML document needs --base, its retrieval URL")
            result = _absolutized(source, data, args)
            if out is not None:
                out.write(result)
                continue
            with replacing(Path(args.output or source.name), args.force) as target:
                target.output.write(result)
                target.changed = args.output is not None or result != data
        except InputError as error:
            _error(str(error), stderr)
            failed = True
        except OutputError as error:
            if not args.in_place:
                raise
            _error(str(error), stderr)
            failed = True
    if out is not None:
        out.flush()
    return EXIT_SOME_FAILED if failed else EXIT_OK


def _check_absolutize_usage(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    _check_base(args, parser)
    if args.base is None and any(not _mail_input(Input(name, None)) for name in args.files if name != STDIN):
        parser.error("--base is required for HTML inputs (messages and mailboxes may go without)")
    if args.in_place and (not args.files or STDIN in args.files):
        parser.error("--in-place needs file names (standard input cannot be rewritten in place)")
    if args.output is not None and len(args.files) > 1:
        parser.error("-o/--output takes one input; use --in-place to absolutize several files")
    if args.output is not None and any(
        name != STDIN and Path(name).resolve() == Path(args.output).resolve() for name in args.files
    ):
        parser.error(f"-o {args.output} is also the input; use --in-place to rewrite a file in place")


def add_absolutize(commands: Subcommands) -> None:
    parser = commands.add_parser(
        "absolutize",
        help="make every link of an HTML document or of a message's HTML parts absolute, leaving every other byte",
    )
    parser.add_argument(
        "files", nargs="*", metavar="FILE",
        help="HTML files, messages, mboxes, Maildirs (standard input when none, or -)",
    )
    parser.add_argument(
        "--base", metavar="URL",
        help="the retrieval URL of the document(s), required for HTML; for messages the last base (RFC 2557 5)",
    )
    parser.add_argument("--encoding", help="document encoding (default: BOM, <meta charset>, else UTF-8)")
    _add_target_options(parser, "HTML file")
    parser.set_defaults(run=run_absolutize, check=_check_absolutize_usage, parser=parser)


# -- e-mail: extract's mail branch, rewrite and absolutize of messages and mailboxes -------------------------------

# A name that says text or HTML is read as such even when the content looks like a message (a digest saved as .txt).
_NOT_MAIL_SUFFIXES = frozenset({".txt", ".text", ".md", ".rst"}) | HTML_SUFFIXES


def _mail_input(source: Input) -> bool:
    """Whether a named input is a Maildir, a message or an mbox (its first bytes are read to tell); an input that
    cannot be read is left to the run, which reports it."""
    if _is_maildir(source):
        return True
    try:
        with source.open_binary() as binary:
            return _is_mail(source, source.read(binary, SNIFF_SIZE))
    except InputError:
        return True


def _is_maildir(source: Input) -> bool:
    return source.name != STDIN and is_maildir(source.name)


def _is_mail(source: Input, head: bytes) -> bool:
    """Whether an input is a message or an mbox: by its name (.eml, .mbox), else by its content."""
    suffix = "" if source.name == STDIN else Path(source.name).suffix.lower()
    if suffix in MAIL_SUFFIXES:
        return True
    return suffix not in _NOT_MAIL_SUFFIXES and mail.looks_like_mail(head)


def _mail_records(
    source: Input, messages: Iterable[Message], args: argparse.Namespace, stderr: IO[str]
) -> Iterator[dict[str, Any]]:
    """One JSON-ready record per link of each message, one message at a time; spans are character offsets in the
    decoded text of the link's part (or header field), so line and column are not given."""
    for message in messages:
        label = message.path if message.path is not None and message.path != source.label else source.label
        problems: list[mail.Problem] = []
        try:
            found = mail.links(
                message.data, base_url=args.base, headers=args.headers, abbreviated=args.abbreviated,
                emails=args.emails, on_problem=problems.append,
            )
        except (LookupError, ValueError) as error:
            raise InputError(label, f"message {message.index}: {error}") from None
        for problem in problems:
            print(f"linkkit: {label}: message {message.index}: warning: {problem}", file=stderr)
        message_id = mail.message_id(message.data) if found else None
        for link in found:
            yield record(
                link, input=label, unit="character", message=message.index, message_id=message_id,
                offset=message.offset, part=link.part, content_type=link.content_type, source=link.source,
            )


def _mail_rewriter(args: argparse.Namespace) -> Callable[[bytes], bytes]:
    """linkkit.mail.rewrite with the rewrite options: a text part's references as in text (--normalize, --unwrap,
    --angle); an HTML part's URLs normalized on --normalize (attributes as written, without resolving them)."""
    replace_text = _replacement(args)

    def replace(link: mail.MailLink) -> str:
        if isinstance(link.inner, Reference):
            return replace_text(link.inner)
        if args.normalize:
            return normalize(link.raw if link.source == "html-attr" else link.uri)
        if args.unwrap and link.source == "html-text":
            return link.uri
        return link.raw

    def rewritten(data: bytes) -> bytes:
        return mail.rewrite(data, replace, base_url=getattr(args, "base", None), abbreviated=args.abbreviated,
                            emails=args.emails)

    return rewritten


def _mail_absolutizer(args: argparse.Namespace) -> Callable[[bytes], bytes]:
    def absolutized(data: bytes) -> bytes:
        return mail.absolutize(data, args.base)

    return absolutized


def _rewrite_messages(
    source: Input, messages: Iterable[Message], transform: Callable[[bytes], bytes], out: Output
) -> bool:
    """Write each message of an input transformed (an mbox record escaped again, RFC 4155), one at a time; True
    when some message changed. A message that does not change is written as the bytes it was read from."""
    changed = False
    for message in messages:
        try:
            new = transform(message.data)
        except ValueError as error:
            raise InputError(source.label, f"message {message.index}: {error}") from None
        changed |= new != message.data
        out.write(message.replaced(new))
    return changed


def _rewrite_maildir(source: Input, transform: Callable[[bytes], bytes], args: argparse.Namespace) -> None:
    """Rewrite each message file of a Maildir that changes, atomically (as --in-place writes any file)."""
    for message in mail.messages(source.name):
        assert message.path is not None  # a Maildir message is a file of its own
        try:
            new = transform(message.data)
        except ValueError as error:
            raise InputError(message.path, str(error)) from None
        if new != message.data:
            with replacing(Path(message.path), args.force) as target:
                target.output.write(new)
                target.changed = True


# -- main --------------------------------------------------------------------------------------------------------

COMMANDS: tuple[Callable[[Subcommands], None], ...] = (add_extract, add_rewrite, add_absolutize)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="linkkit", description=__doc__.split("\n\n")[0].replace("``", ""))
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in COMMANDS:
        add(commands)
    return parser


def _arguments(parser: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """The parsed command line; an unknown option is reported with the usage of its subcommand (exit 2)."""
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        args.parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    args.check(args, args.parser)  # usage errors argparse cannot express; exits with status 2
    return args


def main(argv: Iterable[str] | None = None) -> int:
    """Run the command line with *argv* (default ``sys.argv[1:]``) and return the exit status."""
    args = _arguments(build_parser(), None if argv is None else list(argv))
    try:
        return int(args.run(args, sys.stdout, sys.stderr))
    except OutputError as error:  # the output cannot be written: nothing more can be done
        _error(str(error), sys.stderr)
        return EXIT_SOME_FAILED
    except BrokenPipeError:  # `linkkit extract big.txt | head -1`: the reader went away; stop quietly
        # Python flushes standard output at exit: into /dev/null, not into the closed pipe (Python docs, signal).
        # OSError, ValueError: standard output is not a file descriptor (embedded, captured): nothing to flush.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        return 130
