"""The command line: ``linkkit extract`` and ``linkkit rewrite`` over files or standard input.

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
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from .errors import InputError
from .normalize import normalize
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

    def read_text(self) -> str:
        """The whole input as text, undecodable bytes kept as lone surrogates (PEP 383)."""
        if self.name == STDIN:
            data = sys.stdin.buffer.read()
        else:
            try:
                data = Path(self.name).read_bytes()
            except OSError as error:
                raise InputError(self.label, error.strerror or str(error)) from None
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
        try:
            text = source.read_text()
        except InputError as error:
            _error(str(error), stderr)
            failed = True
            continue
        _warn_undecodable(source, text, stderr)
        for record in _extract_records(source, text, options):
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
    parser = commands.add_parser("extract", help="print the URI references found in text")
    _add_scanner_options(parser)
    parser.add_argument("--format", choices=("text", "jsonl"), default="text", help="one URI per line, or JSON lines")
    parser.add_argument("--unique", action="store_true", help="print each URI once, at its first occurrence")
    parser.set_defaults(run=run_extract)


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
    mode = path.stat().st_mode if path.exists() else None
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(text.encode(encoding, ERRORS))
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


# -- main --------------------------------------------------------------------------------------------------------

COMMANDS: tuple[Callable[[argparse._SubParsersAction], None], ...] = (add_extract, add_rewrite)


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
