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

from . import __version__, html
from .errors import InputError, ResolutionError
from .io import (
    CHUNK_SIZE,
    ERRORS,
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
from .text.reference import Reference
from .text.scan import ScanOptions
from .text.stream import finditer_stream
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
    """How far before the end of the text read a reference from :func:`finditer_stream` may still start: generous,
    twice the stream's bound of about ``chunk_size + max_length`` characters, and then doubled again."""
    return 4 * (CHUNK_SIZE + ScanOptions(**options).max_length)


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
    """The records of one input: the links of an HTML document, or the references of a text read in chunks."""
    with source.open_binary() as binary:
        head = source.read(binary, SNIFF_SIZE)
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
    parser = commands.add_parser("extract", help="print the URI references found in text or HTML")
    _add_scanner_options(parser)
    parser.add_argument("--format", choices=("text", "jsonl"), default="text", help="one URI per line, or JSON lines")
    parser.add_argument("--unique", action="store_true", help="print each URI once, at its first occurrence")
    parser.add_argument(
        "--base", metavar="URL", help="retrieval URL of HTML inputs: their links are resolved against it"
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
    """Rewrite one text input into *out*, in its own encoding and byte order; True when its text changed."""
    head = source.read(binary, SNIFF_SIZE)
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
    parser = commands.add_parser("rewrite", help="rewrite the URI references of text, leaving everything else as is")
    _add_scanner_options(parser)
    parser.add_argument("--normalize", action="store_true", help="normalize each reference (RFC 3986 6.2.2, 6.2.3)")
    parser.add_argument("--unwrap", action="store_true", help="re-join references that run over several lines")
    parser.add_argument("--angle", action="store_true", help="wrap each reference in <...> (RFC 3986 appendix C)")
    parser.add_argument("--as-text", action="store_true", help="rewrite HTML inputs as plain text too")
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
            with source.open_binary() as binary:
                data = source.read(binary)
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
        "absolutize", help="make every link of an HTML document absolute, leaving every other byte as it is"
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help="HTML files (standard input when none, or -)")
    parser.add_argument("--base", required=True, metavar="URL", help="the retrieval URL of the document(s)")
    parser.add_argument("--encoding", help="document encoding (default: BOM, <meta charset>, else UTF-8)")
    _add_target_options(parser, "HTML file")
    parser.set_defaults(run=run_absolutize, check=_check_absolutize_usage, parser=parser)


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
