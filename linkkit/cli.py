"""The command line: ``linkkit extract``, ``linkkit rewrite`` and ``linkkit absolutize`` over files or standard input.

Each subcommand is one ``add_*`` function that registers its parser and the function that runs it; adding a
subcommand is writing one such function and listing it in ``COMMANDS``. Inputs are decoded as UTF-8 (or
``--encoding``) with ``surrogateescape``: undecodable bytes are reported with their position and carried through
unchanged, so no byte of an input is ever lost. Exit status: 0 all inputs done, 1 some input failed (the others
were still processed), 2 usage error.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from . import html
from .errors import InputError, ResolutionError
from .normalize import normalize
from .resolve import resolve
from .scanner import finditer, sub

EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE = 0, 1, 2
STDIN = "-"
ERRORS = "surrogateescape"  # undecodable bytes become lone surrogates and are written back as the same bytes


@dataclass(frozen=True)
class Input:
    """One input named on the command line: a path, or ``-`` for standard input."""

    name: str
    encoding: str

    @property
    def label(self) -> str:
        return "<stdin>" if self.name == STDIN else self.name

    def read_bytes(self) -> bytes:
        """The whole input, as it is."""
        if self.name == STDIN:
            return sys.stdin.buffer.read()
        try:
            return Path(self.name).read_bytes()
        except OSError as error:
            raise InputError(self.label, error.strerror or str(error)) from None

    def read_text(self) -> str:
        """The whole input as text, undecodable bytes kept as lone surrogates (PEP 383)."""
        return self.decode(self.read_bytes())

    def decode(self, data: bytes) -> str:
        """*data* read from this input as text, undecodable bytes kept as lone surrogates (PEP 383)."""
        try:
            return data.decode(self.encoding, ERRORS)
        except LookupError:
            raise InputError(self.label, f"unknown encoding {self.encoding!r}") from None


def _warn_undecodable(source: Input, text: str, stderr: IO[str]) -> None:
    """Name the first undecodable byte of *text* by line and column, and how many there are."""
    bad = [i for i, ch in enumerate(text) if "\udc80" <= ch <= "\udcff"] if not text.isascii() else []
    if not bad:
        return
    line = text.count("\n", 0, bad[0]) + 1
    column = bad[0] - (text.rfind("\n", 0, bad[0]) + 1) + 1
    print(
        f"linkkit: {source.label}:{line}:{column}: warning: {len(bad)} byte(s) not valid {source.encoding}, "
        f"first 0x{ord(text[bad[0]]) - 0xDC00:02X}; kept unchanged",
        file=stderr,
    )


def _write(stream: IO[str], text: str) -> None:
    """Write *text*, turning lone surrogates back into the input's original bytes."""
    buffer = getattr(stream, "buffer", None)
    if buffer is None or text.isascii():
        stream.write(text)
        return
    stream.flush()
    buffer.write(text.encode(stream.encoding or "utf-8", ERRORS))


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


def _extract_records(source: Input, text: str, options: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """One JSON-ready record per reference of *text*, with its 1-based line and column."""
    line, line_start, scanned = 1, 0, 0
    for ref in finditer(text, **options):
        start = ref.start()
        newlines = text.count("\n", scanned, start)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", scanned, start) + 1
        scanned = start
        yield {
            "file": source.label, "line": line, "column": start - line_start + 1, "span": list(ref.span()),
            "uri": ref.uri, "raw": ref.raw, "delimiter": ref.delimiter, "kind": ref.kind,
        }


def run_extract(args: argparse.Namespace, stdout: IO[str], stderr: IO[str]) -> int:
    seen: set[str] = set()
    failed = False
    options = _scanner_options(args)
    for source in _inputs(args):
        records: Iterable[dict[str, Any]]
        try:
            data = source.read_bytes()
            if _looks_like_html(source, data):
                records = _html_records(source, data, args)
            else:
                text = source.decode(data)
                _warn_undecodable(source, text, stderr)
                records = _extract_records(source, text, options)
        except InputError as error:
            _error(str(error), stderr)
            failed = True
            continue
        for record in records:
            if args.unique:
                if record["uri"] in seen:
                    continue
                seen.add(record["uri"])
            if args.format == "jsonl":
                line = json.dumps(record, ensure_ascii=False)
            else:
                line = record["uri"]
            _write(stdout, line + "\n")
    return EXIT_SOME_FAILED if failed else EXIT_OK


def add_extract(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("extract", help="print the URI references found in text or HTML")
    _add_scanner_options(parser)
    parser.add_argument("--format", choices=("text", "jsonl"), default="text", help="one URI per line, or JSON lines")
    parser.add_argument("--unique", action="store_true", help="print each URI once, at its first occurrence")
    parser.add_argument("--base", metavar="URL", help="retrieval URL of HTML inputs: their links are resolved against it")
    parser.set_defaults(run=run_extract, check=lambda args: _check_base(args, parser))


# -- rewrite -----------------------------------------------------------------------------------------------------


def _replacement(args: argparse.Namespace) -> Callable[[Any], str]:
    """The text that replaces one reference's span, given the rewrite options."""

    def replace(ref: Any) -> str:
        text = ref.group()
        if args.normalize:
            text = normalize(ref.uri)
        elif args.unwrap:
            text = "".join(text.split())
        if args.angle and ref.delimiter != "angle":
            text = f"<{text}>"
        return text

    return replace


def _write_atomically(path: Path, text: str, encoding: str) -> None:
    """Replace *path* by *text* via a temporary file in the same directory, keeping the file's mode."""
    _write_bytes_atomically(path, text.encode(encoding, ERRORS))


def _write_bytes_atomically(path: Path, data: bytes) -> None:
    """Replace *path* by *data* via a temporary file in the same directory, keeping the file's mode."""
    mode = path.stat().st_mode if path.exists() else None
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
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
            text = source.read_text()
        except InputError as error:
            _error(str(error), stderr)
            failed = True
            continue
        _warn_undecodable(source, text, stderr)
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


def add_rewrite(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("rewrite", help="rewrite the URI references of text, leaving everything else as is")
    _add_scanner_options(parser)
    parser.add_argument("--normalize", action="store_true", help="normalize each reference (RFC 3986 6.2.2, 6.2.3)")
    parser.add_argument("--unwrap", action="store_true", help="re-join references that run over several lines")
    parser.add_argument("--angle", action="store_true", help="wrap each reference in <...> (RFC 3986 appendix C)")
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


def add_absolutize(commands: argparse._SubParsersAction) -> None:
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

COMMANDS: tuple[Callable[[argparse._SubParsersAction], None], ...] = (add_extract, add_rewrite, add_absolutize)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="linkkit", description=__doc__.split("\n\n")[0])
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
        sys.stderr.close()
        return EXIT_SOME_FAILED
    except KeyboardInterrupt:
        return 130
