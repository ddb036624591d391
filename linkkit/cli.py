"""The command line: ``linkkit extract``, ``linkkit rewrite`` and ``linkkit absolutize`` over files or standard input.

Each subcommand is one ``add_*`` function that registers its parser and the function that runs it; adding a
subcommand is writing one such function and listing it in ``COMMANDS``. Inputs are decoded as UTF-8 (or
``--encoding``) with ``surrogateescape``: undecodable bytes are reported with their position and carried through
unchanged, so no byte of an input is ever lost. Exit status: 0 all inputs done, 1 some input failed (the others
were still processed), 2 usage error.
"""

from __future__ import annotations

import argparse
import codecs
import json
import os
import re
import sys
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TypeAlias

from . import html
from .errors import InputError, ResolutionError
from .normalize import normalize
from .reference import Reference
from .resolve import resolve
from .scanner import ScanOptions, finditer_stream, sub

Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"  # what add_subparsers() returns
EXIT_OK, EXIT_SOME_FAILED = 0, 1  # and 2 for a usage error, as argparse exits
STDIN = "-"
ERRORS = "surrogateescape"  # undecodable bytes become lone surrogates and are written back as the same bytes
CHUNK_SIZE = 1 << 20  # bytes extract reads at a time: memory stays bounded on a file of any size
SNIFF_SIZE = 1024  # bytes looked at to tell an HTML input from plain text


@dataclass(frozen=True)
class Input:
    """One input named on the command line: a path, or ``-`` for standard input."""

    name: str
    encoding: str

    @property
    def label(self) -> str:
        return "<stdin>" if self.name == STDIN else self.name

    def open_binary(self) -> IO[bytes]:
        """The input as a binary stream (standard input is left open when the stream is done with)."""
        if self.name == STDIN:
            return nullcontext(sys.stdin.buffer)  # type: ignore[return-value]
        try:
            return open(self.name, "rb")  # noqa: SIM115
        except OSError as error:
            raise InputError(self.label, error.strerror or str(error)) from None

    def read_bytes(self) -> bytes:
        """The whole input, as it is."""
        if self.name == STDIN:
            return sys.stdin.buffer.read()
        try:
            return Path(self.name).read_bytes()
        except OSError as error:
            raise InputError(self.label, error.strerror or str(error)) from None

    def decode(self, data: bytes) -> str:
        """*data* read from this input as text, undecodable bytes kept as lone surrogates (PEP 383)."""
        try:
            return data.decode(self.encoding, ERRORS)
        except LookupError:
            raise InputError(self.label, f"unknown encoding {self.encoding!r}") from None


@dataclass
class _Undecodable:
    """The bytes of an input that did not decode: how many, and the line and column of the first."""

    count: int = 0
    line: int = 0
    column: int = 0

    def check(self, text: str, offset: int, line: int, line_start: int) -> None:
        """Look at *text*, which starts at *offset* on *line*; that line starts at offset *line_start*."""
        if text.isascii():
            return
        bad = _UNDECODED.findall(text)
        if bad and not self.count:
            at = _UNDECODED.search(text).start()  # type: ignore[union-attr]
            newlines = text.count("\n", 0, at)
            if newlines:
                line, line_start = line + newlines, offset + text.rfind("\n", 0, at) + 1
            self.line, self.column = line, offset + at - line_start + 1
        self.count += len(bad)

    def warn(self, source: Input, stderr: IO[str]) -> None:
        if self.count:
            print(
                f"linkkit: {source.label}:{self.line}:{self.column}: warning: {self.count} byte(s) not valid "
                f"{source.encoding}; kept unchanged",
                file=stderr,
            )


_UNDECODED = re.compile("[\udc80-\udcff]")  # PEP 383: the lone surrogates surrogateescape decodes bad bytes to


def _write(stream: IO[str], text: str) -> None:
    """Write *text*, turning lone surrogates back into the input's original bytes."""
    buffer = getattr(stream, "buffer", None)
    if buffer is None or text.isascii():
        stream.write(text)
        return
    stream.flush()
    buffer.write(text.encode(getattr(stream, "encoding", None) or "utf-8", ERRORS))


def _error(message: str, stderr: IO[str]) -> None:
    print(f"linkkit: error: {message}", file=stderr)


def _scanner_options(args: argparse.Namespace) -> dict[str, Any]:
    return {"abbreviated": args.abbreviated, "emails": args.emails}


def _add_scanner_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", metavar="FILE", help="input files (standard input when none, or -)")
    parser.add_argument("--encoding", default="utf-8", help="input encoding (default utf-8; bad bytes are kept)")
    parser.add_argument(
        "--no-abbreviated", dest="abbreviated", action="store_false",
        help="do not complete www. and ftp. hosts (RFC 3986 draft appendix F)",
    )
    parser.add_argument("--emails", action="store_true", help="also find bare e-mail addresses, as mailto: URIs")


def _inputs(args: argparse.Namespace) -> list[Input]:
    return [Input(name, args.encoding) for name in (args.files or [STDIN])]


# -- extract -----------------------------------------------------------------------------------------------------


class _Lines:
    """Line and column of increasing offsets into a text read in chunks, holding only the latest chunks.

    A reference from :func:`linkkit.scanner.finditer_stream` starts at most about ``chunk_size + max_length``
    characters before the end of what the stream has read (its memory bound), so older chunks are only counted.
    """

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.chunks: deque[str] = deque()
        self.held = 0
        self.base = 0  # offset of chunks[0]
        self.cursor = 0  # newlines are counted up to here
        self.line = 1
        self.line_start = 0

    def feed(self, chunk: str) -> str:
        self.chunks.append(chunk)
        self.held += len(chunk)
        while len(self.chunks) > 1 and self.held - len(self.chunks[0]) >= self.keep:
            self._advance(self.base + len(self.chunks[0]))
        return chunk

    def locate(self, offset: int) -> tuple[int, int]:
        """The 1-based line and column of *offset*, which is not before the last offset located."""
        if offset < self.cursor:
            raise ValueError(f"offset {offset} is before {self.cursor}, which was already passed")
        self._advance(offset)
        return self.line, offset - self.line_start + 1

    def _advance(self, offset: int) -> None:
        while self.cursor < offset:
            first = self.chunks[0]
            end = self.base + len(first)
            stop = min(offset, end)
            newlines = first.count("\n", self.cursor - self.base, stop - self.base)
            if newlines:
                self.line += newlines
                self.line_start = self.base + first.rfind("\n", self.cursor - self.base, stop - self.base) + 1
            self.cursor = stop
            if stop == end:
                self.chunks.popleft()
                self.held -= len(first)
                self.base = end


def _decoded_chunks(source: Input, head: bytes, binary: IO[bytes], undecodable: _Undecodable) -> Iterator[str]:
    """The text of *head* and the rest of *binary*, decoded chunk by chunk, noting bytes that do not decode."""
    try:
        decoder = codecs.getincrementaldecoder(source.encoding)(errors=ERRORS)
    except LookupError:
        raise InputError(source.label, f"unknown encoding {source.encoding!r}") from None
    offset, line, line_start = 0, 1, 0
    data, final = head, False
    while not final:
        final = not data
        chunk = decoder.decode(data, final=final)
        if chunk:
            undecodable.check(chunk, offset, line, line_start)
            newlines = chunk.count("\n")
            if newlines:
                line, line_start = line + newlines, offset + chunk.rfind("\n") + 1
            offset += len(chunk)
            yield chunk
        if not final:
            try:
                data = binary.read(CHUNK_SIZE)
            except OSError as error:
                raise InputError(source.label, error.strerror or str(error), position=line) from None


def _text_records(chunks: Iterable[str], label: str, options: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """One JSON-ready record per reference of a text read in chunks, with its 1-based line and column."""
    lines = _Lines(keep=4 * (CHUNK_SIZE + ScanOptions().max_length))  # generous: twice the stream's bound
    fed = (lines.feed(chunk) for chunk in chunks)
    for ref in finditer_stream(fed, chunk_size=CHUNK_SIZE, **options):
        line, column = lines.locate(ref.start())
        yield {
            "file": label, "line": line, "column": column, "span": list(ref.span()),
            "uri": ref.uri, "raw": ref.raw, "delimiter": ref.delimiter, "kind": ref.kind,
        }


def _extract_from(source: Input, args: argparse.Namespace, stderr: IO[str]) -> Iterator[dict[str, Any]]:
    """The records of one input: the links of an HTML document, or the references of a text read in chunks."""
    with source.open_binary() as binary:
        try:
            head = binary.read(SNIFF_SIZE)
        except OSError as error:  # e.g. a directory
            raise InputError(source.label, error.strerror or str(error)) from None
        if _looks_like_html(source, head):
            try:
                document = head + binary.read()
            except OSError as error:
                raise InputError(source.label, error.strerror or str(error)) from None
            yield from _html_records(source, document, args)
            return
        undecodable = _Undecodable()
        chunks = _decoded_chunks(source, head, binary, undecodable)
        yield from _text_records(chunks, source.label, _scanner_options(args))
        undecodable.warn(source, stderr)


def _json_line(record: dict[str, Any]) -> str:
    """*record* as one line of JSON; an undecodable byte stays a ``\\udcXX`` escape, so the line is valid UTF-8."""
    return _UNDECODED.sub(lambda bad: f"\\u{ord(bad.group()):04x}", json.dumps(record, ensure_ascii=False))


def run_extract(args: argparse.Namespace, stdout: IO[str], stderr: IO[str]) -> int:
    seen: set[str] = set()
    failed = False
    for source in _inputs(args):
        try:
            for record in _extract_from(source, args, stderr):
                if args.unique:
                    if record["uri"] in seen:
                        continue
                    seen.add(record["uri"])
                _write(stdout, (_json_line(record) if args.format == "jsonl" else record["uri"]) + "\n")
        except InputError as error:
            _error(str(error), stderr)
            failed = True
    return EXIT_SOME_FAILED if failed else EXIT_OK


def add_extract(commands: Subcommands) -> None:
    parser = commands.add_parser("extract", help="print the URI references found in text or HTML")
    _add_scanner_options(parser)
    parser.add_argument("--format", choices=("text", "jsonl"), default="text", help="one URI per line, or JSON lines")
    parser.add_argument("--unique", action="store_true", help="print each URI once, at its first occurrence")
    parser.add_argument("--base", metavar="URL", help="retrieval URL of HTML inputs: their links are resolved against it")
    parser.set_defaults(run=run_extract, check=lambda args: _check_base(args, parser))


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


def _write_atomically(path: Path, text: str, encoding: str) -> None:
    """Replace *path* by *text* via a temporary file in the same directory, keeping the file's mode."""
    _write_bytes_atomically(path, text.encode(encoding, ERRORS))


def _write_bytes_atomically(path: Path, data: bytes) -> None:
    """Replace *path* by *data* via a temporary file in the same directory, keeping the file's mode.

    A symbolic link is followed: its target is rewritten and the link stays a link.
    """
    path = path.resolve()
    mode = path.stat().st_mode if path.exists() else None
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())  # the new content is on disk before the rename makes it the file
        if mode is not None:
            os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        os.unlink(temp)
        raise


def run_rewrite(args: argparse.Namespace, stdout: IO[str], stderr: IO[str]) -> int:
    failed = False
    options = _scanner_options(args)
    replace = _replacement(args)
    sources = _inputs(args)
    outputs: list[str] = []
    for source in sources:
        try:
            data = source.read_bytes()
            if _looks_like_html(source, data[:SNIFF_SIZE]) and not args.as_text:
                # Rewriting attribute values as prose would damage markup ("<" inside href="...").
                raise InputError(source.label, "looks like HTML; use 'linkkit absolutize', or --as-text")
            text = source.decode(data)
        except InputError as error:
            _error(str(error), stderr)
            failed = True
            continue
        undecodable = _Undecodable()
        undecodable.check(text, 0, 1, 0)
        undecodable.warn(source, stderr)
        rewritten = sub(replace, text, **options)
        if args.in_place:
            if rewritten != text:
                try:
                    _write_atomically(Path(source.name), rewritten, source.encoding)
                except OSError as error:
                    _error(f"{source.label}: cannot write: {error.strerror or error}", stderr)
                    failed = True
        elif args.output is not None:
            outputs.append(rewritten)
        else:
            _write(stdout, rewritten)
    if args.output is not None and outputs:
        try:
            _write_atomically(Path(args.output), "".join(outputs), args.encoding)
        except OSError as error:
            _error(f"{args.output}: cannot write: {error.strerror or error}", stderr)
            failed = True
    return EXIT_SOME_FAILED if failed else EXIT_OK


def _check_rewrite_usage(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    if args.in_place and args.output is not None:
        parser.error("--in-place and -o/--output exclude each other")
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
    target = parser.add_mutually_exclusive_group()
    target.add_argument("-o", "--output", metavar="FILE", help="write the result to FILE instead of standard output")
    target.add_argument("--in-place", action="store_true", help="rewrite each input file atomically")
    parser.set_defaults(run=run_rewrite, check=lambda args: _check_rewrite_usage(args, parser))


# -- HTML: extract's HTML branch and absolutize (issue 4) --------------------------------------------------------

HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml", ".shtml"})
# An input that opens, after whitespace and comments, with an HTML doctype or an html, head or body tag.
_HTML_START = re.compile(r"(?:\s|<!--.*?-->)*<(?:!doctype\s+html|html|head|body)[\s/>]", re.IGNORECASE | re.DOTALL)
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def _looks_like_html(source: Input, data: bytes) -> bool:
    """HTML by extension (.html, .htm, .xhtml, .shtml) or by content: the input starts as an HTML document."""
    if Path(source.name).suffix.lower() in HTML_SUFFIXES:
        return True
    head = data[:1024]
    start = head.decode("utf-16", "ignore") if head[:2] in _UTF16_BOMS else head.decode("latin-1")
    return _HTML_START.match(start.removeprefix("\xef\xbb\xbf")) is not None


def _html_records(source: Input, data: bytes, args: argparse.Namespace) -> list[dict[str, Any]]:
    """One JSON-ready record per link of an HTML input; spans are byte offsets into the file."""
    # HTML carries its encoding (BOM, <meta charset>): --encoding overrides it only when given another value
    encoding = None if args.encoding == "utf-8" else args.encoding
    try:
        found = html.links(data, base_url=args.base, encoding=encoding)
    except LookupError as error:
        raise InputError(source.label, str(error)) from None
    return [
        {"file": source.label, "tag": link.tag, "attr": link.attr, "raw": link.raw, "uri": link.uri,
         "span": list(link.span)}
        for link in found
    ]


def _check_base(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    if args.base is not None:
        try:
            resolve(args.base, "")
        except ResolutionError as error:
            parser.error(f"--base: {error}")


def _write_bytes(stream: IO[str], data: bytes) -> None:
    """Write *data* unchanged to the binary buffer under a text stream."""
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        stream.write(data.decode("utf-8", ERRORS))
        return
    stream.flush()
    buffer.write(data)
    buffer.flush()


def run_absolutize(args: argparse.Namespace, stdout: IO[str], stderr: IO[str]) -> int:
    failed = False
    for name in args.files or [STDIN]:
        source = Input(name, args.encoding or "utf-8")
        try:
            data = source.read_bytes()
            result = html.absolutize(data, args.base, encoding=args.encoding)
        except InputError as error:
            _error(str(error), stderr)
            failed = True
            continue
        except LookupError as error:
            _error(f"{source.label}: {error}", stderr)
            failed = True
            continue
        target = name if args.in_place else args.output
        try:
            if args.in_place:
                if result != data:
                    _write_bytes_atomically(Path(name), result)
            elif args.output is not None:
                _write_bytes_atomically(Path(args.output), result)
            else:
                _write_bytes(stdout, result)
        except OSError as error:
            _error(f"{target}: cannot write: {error.strerror or error}", stderr)
            failed = True
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
    target = parser.add_mutually_exclusive_group()
    target.add_argument("-o", "--output", metavar="FILE", help="write the result to FILE instead of standard output")
    target.add_argument("--in-place", action="store_true", help="rewrite each input file atomically")
    parser.set_defaults(run=run_absolutize, check=lambda args: _check_absolutize_usage(args, parser))


# -- main --------------------------------------------------------------------------------------------------------

COMMANDS: tuple[Callable[[Subcommands], None], ...] = (add_extract, add_rewrite, add_absolutize)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="linkkit", description=__doc__.split("\n\n")[0].replace("``", ""))
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in COMMANDS:
        add(commands)
    return parser


def main(argv: Iterable[str] | None = None) -> int:
    """Run the command line with *argv* (default ``sys.argv[1:]``) and return the exit status."""
    parser = build_parser()
    args = parser.parse_args(None if argv is None else list(argv))
    if hasattr(args, "check"):
        args.check(args)  # usage errors argparse cannot express; exits with status 2
    try:
        return int(args.run(args, sys.stdout, sys.stderr))
    except BrokenPipeError:  # e.g. `linkkit extract big.txt | head`: stop quietly
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error when Python flushes
        except (OSError, ValueError):
            pass  # standard output is not a file descriptor (embedded, captured): nothing left to flush into a pipe
        return EXIT_SOME_FAILED
    except KeyboardInterrupt:
        return 130
