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
import json
import os
import re
import shutil
import signal
import stat
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TextIO, TypeAlias

from . import __version__, html
from .errors import InputError, ResolutionError
from .normalize import normalize
from .percent import percent_encode
from .reference import Reference
from .resolve import resolve
from .scanner import ScanOptions, finditer_stream

Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"  # what add_subparsers() returns
EXIT_OK, EXIT_SOME_FAILED = 0, 1  # and 2 for a usage error, as argparse exits
EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE  # what a shell reports for a tool stopped by a closed pipe (`| head -1`)
STDIN = "-"
ERRORS = "surrogateescape"  # undecodable bytes become lone surrogates and are written back as the same bytes
CHUNK_SIZE = 1 << 20  # bytes read at a time: memory stays bounded on a file of any size
SNIFF_SIZE = 1024  # bytes looked at to tell an HTML input from plain text
# Byte order marks (Unicode 15.0 section 23.8), the UTF-32-LE one before the UTF-16-LE one it starts with.
BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"), (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"),
)
# Codecs that read (and write) a BOM themselves: without one, their text is read as this codec, as HTML does.
_BOM_LESS = {"utf-8-sig": "utf-8", "utf-16": "utf-16-le", "utf-32": "utf-32-le"}
_UNDECODED = re.compile("[\udc80-\udcff]+")  # PEP 383: the lone surrogates surrogateescape decodes bad bytes to
# Never URI characters (RFC 3986 2; RFC 3987 2.2 leaves C1 controls and the line and paragraph separators out of
# ucschar): percent-encoded in plain output, so that one reference is always one line.
_LINE_BREAKING = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


class _Failed(Exception):
    """An output that cannot be written, or a file that is not replaced; the message names it and says why."""


@dataclass(frozen=True)
class Input:
    """One input named on the command line: a path, or ``-`` for standard input; *encoding* is ``--encoding``."""

    name: str
    encoding: str | None

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

    def read(self, binary: IO[bytes], size: int = -1) -> bytes:
        """*size* more bytes of *binary* (all of them when negative); a read error names this input."""
        try:
            return binary.read(size)
        except OSError as error:  # e.g. a directory
            raise InputError(self.label, error.strerror or str(error)) from None


@dataclass(frozen=True)
class Encoding:
    """How the bytes of a text input are text: a byte order mark (kept as it is), then *codec* (BOM-less)."""

    bom: bytes
    codec: str


def _text_codec(source: Input, label: str) -> str:
    """The BOM-less Python codec *label* names; an unknown label or a codec that is no text encoding (``rot13``,
    ``base64``) is an error of *source*."""
    try:
        name = codecs.lookup(label).name
    except LookupError:
        raise InputError(source.label, f"unknown encoding {label!r}") from None
    try:
        "".encode(name)  # refuses bytes-to-bytes and str-to-str codecs (bytes.decode skips that check on b"")
    except (LookupError, UnicodeError):  # UnicodeError: the "undefined" codec, which refuses all text
        raise InputError(source.label, f"{label!r} is not a text encoding") from None
    return _BOM_LESS.get(name, name)


def _text_encoding(source: Input, head: bytes) -> Encoding:
    """A BOM decides, as it does for HTML (HTML 13.2.3.1 step 1, "BOM sniffing"); else ``--encoding``, else UTF-8."""
    given = None if source.encoding is None else _text_codec(source, source.encoding)
    for bom, codec in BOMS:
        if head.startswith(bom):
            return Encoding(bom, codec)
    return Encoding(b"", given or "utf-8")


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
        runs = [run.span() for run in _UNDECODED.finditer(text)]
        if runs and not self.count:
            at = runs[0][0]
            newlines = text.count("\n", 0, at)
            if newlines:
                line, line_start = line + newlines, offset + text.rfind("\n", 0, at) + 1
            self.line, self.column = line, offset + at - line_start + 1
        self.count += sum(end - start for start, end in runs)

    def warn(self, source: Input, encoding: Encoding, stderr: IO[str]) -> None:
        if self.count:
            print(
                f"linkkit: {source.label}:{self.line}:{self.column}: warning: {self.count} byte(s) not valid "
                f"{encoding.codec}; kept unchanged",
                file=stderr,
            )


def _decoded_chunks(
    source: Input, encoding: Encoding, head: bytes, binary: IO[bytes], undecodable: _Undecodable
) -> Iterator[str]:
    """The text after the BOM of *head* and the rest of *binary*, decoded chunk by chunk, noting bytes that do not
    decode; bytes that cannot even be kept (UTF-16 of odd length) are an error naming their offset."""
    decoder = codecs.getincrementaldecoder(encoding.codec)(errors=ERRORS)
    offset, line, line_start = 0, 1, 0
    given = len(encoding.bom)  # bytes given to the decoder so far
    data, final = head[given:], False
    while not final:
        final = not data
        held = len(decoder.getstate()[0])  # bytes of an unfinished character, from the last call
        try:
            chunk = decoder.decode(data, final=final)
        except UnicodeDecodeError as error:
            at = given - held + error.start
            raise InputError(source.label, f"cannot decode byte {at} as {encoding.codec}: {error.reason}") from None
        given += len(data)
        if chunk:
            undecodable.check(chunk, offset, line, line_start)
            newlines = chunk.count("\n")
            if newlines:
                line, line_start = line + newlines, offset + chunk.rfind("\n") + 1
            offset += len(chunk)
            yield chunk
        if not final:
            data = source.read(binary, CHUNK_SIZE)


def _encoded(text: str, encoder: codecs.IncrementalEncoder) -> bytes:
    """*text* in the encoder's codec, undecodable bytes (lone surrogates, PEP 383) written back as themselves.

    Done here rather than by ``surrogateescape``, which the UTF-16 and UTF-32 encoders do not implement.
    """
    if text.isascii() or _UNDECODED.search(text) is None:
        return encoder.encode(text)
    out, copied = bytearray(), 0
    for bad in _UNDECODED.finditer(text):
        out += encoder.encode(text[copied:bad.start()])
        out += bytes(ord(c) - 0xDC00 for c in bad.group())
        copied = bad.end()
    out += encoder.encode(text[copied:])
    return bytes(out)


# -- output: every write checked ---------------------------------------------------------------------------------


class _Output:
    """A binary output whose every write is checked: a failure (a full disk) is a :class:`_Failed` naming it.

    A closed pipe (:class:`BrokenPipeError`) is let through: :func:`main` ends quietly on it.
    """

    def __init__(self, stream: IO[bytes], label: str) -> None:
        self.stream = stream
        self.label = label

    def write(self, data: bytes) -> None:
        """Write all of *data*: a buffered stream takes only part of a large write when the pipe closes or the disk
        fills, says so only by the count it returns, and raises the error on the next write."""
        view = memoryview(data)
        while view:
            view = view[self._checked(self.stream.write, view):]

    def flush(self) -> None:
        self._checked(self.stream.flush)

    def _checked(self, operation: Callable[..., int | None], *arguments: memoryview) -> int:
        try:
            return operation(*arguments) or 0
        except BrokenPipeError:
            raise
        except OSError as error:
            raise _Failed(f"{self.label}: cannot write: {error.strerror or error}") from None


def _standard_output(stdout: TextIO) -> _Output:
    """The binary buffer under *stdout*, after what was written to it as text."""
    stdout.flush()
    return _Output(stdout.buffer, "<stdout>")


@dataclass
class _Target:
    """Where the new content of a file goes, and whether it differs from the old (an unchanged file is kept)."""

    output: _Output
    changed: bool = True


def _temporary(path: Path, pid: int) -> Path:
    """The temporary file a run with process id *pid* writes *path*'s new content into, beside it."""
    return path.with_name(f".{path.name}.linkkit-tmp-{pid}")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, under another user
        return True
    return True


def _remove_stale_temporaries(path: Path) -> None:
    """Remove the temporary files of *path* left by runs that were killed (SIGKILL): their process is gone."""
    prefix = _temporary(path, 0).name[:-1]
    with os.scandir(path.parent) as entries:
        stale = [
            entry.path for entry in entries
            if entry.name.startswith(prefix) and entry.name[len(prefix):].isdigit()
            and not _alive(int(entry.name[len(prefix):]))
        ]
    for name in stale:
        Path(name).unlink(missing_ok=True)


def _replaceable(path: Path, force: bool) -> os.stat_result | None:
    """The status of the file *path* (None when there is none yet), refusing what a replacement would damage:
    a read-only file, and a file with several hard links (a rename would split them), unless *force*."""
    try:
        status = path.stat()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise _Failed(f"{path}: cannot write: {error.strerror or error}") from None
    if force or not stat.S_ISREG(status.st_mode):
        return status
    if not status.st_mode & 0o222 or not os.access(path, os.W_OK):
        raise _Failed(f"{path}: read-only; not replaced (--force replaces it)")
    if status.st_nlink > 1:
        raise _Failed(
            f"{path}: has {status.st_nlink} hard links, which replacing it would split; not replaced (--force "
            "writes through the file itself, keeping them, but not atomically)"
        )
    return status


def _write_through(temporary: Path, path: Path) -> None:
    """Copy *temporary* into *path* through its own inode: its hard links, owner and mode stay (not atomic)."""
    with open(temporary, "rb") as source, open(path, "r+b") as target:
        shutil.copyfileobj(source, target, CHUNK_SIZE)
        target.truncate()
        target.flush()
        os.fsync(target.fileno())


def _install(temporary: Path, path: Path, status: os.stat_result | None, force: bool) -> None:
    """Make *temporary* the file *path*, keeping the old file's mode, owner and group."""
    if status is not None and status.st_nlink > 1:  # only with force: _replaceable refused it otherwise
        _write_through(temporary, path)
        return
    if status is not None:
        os.chmod(temporary, stat.S_IMODE(status.st_mode))
        mine = temporary.stat()
        if (mine.st_uid, mine.st_gid) != (status.st_uid, status.st_gid):
            try:
                os.chown(temporary, status.st_uid, status.st_gid)
            except PermissionError:
                if not force:
                    raise _Failed(
                        f"{path}: owned by {status.st_uid}:{status.st_gid}, which replacing it would change; not "
                        "replaced (--force writes through the file itself, keeping them, but not atomically)"
                    ) from None
                _write_through(temporary, path)
                return
    os.replace(temporary, path)


@contextmanager
def _replacing(path: Path, force: bool) -> Iterator[_Target]:
    """A target for the new content of the file *path*: a temporary file beside it (``.NAME.linkkit-tmp-PID``)
    renamed over it when complete, the file's mode and owner kept. A device or pipe (``/dev/stdout``) is written
    directly. The file is left as it was when the content fails, is unchanged, or cannot be installed."""
    status = _replaceable(path, force)
    if status is not None and not stat.S_ISREG(status.st_mode):
        try:
            with open(path, "wb") as stream:
                target = _Target(_Output(stream, str(path)))
                yield target
                target.output.flush()
        except BrokenPipeError:
            raise
        except OSError as error:  # opening it, or closing it (the last flush)
            raise _Failed(f"{path}: cannot write: {error.strerror or error}") from None
        return
    path = path.resolve()  # a symbolic link is followed: its target is replaced and the link stays a link
    temporary = _temporary(path, os.getpid())
    try:
        _remove_stale_temporaries(path)
        temporary.unlink(missing_ok=True)
        # Mode 0o666 less the umask, as for any new file; the old file's mode replaces it in _install.
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666)
    except OSError as error:
        raise _Failed(f"{path}: cannot write: {error.strerror or error}") from None
    try:
        with open(descriptor, "wb") as stream:
            target = _Target(_Output(stream, str(path)))
            yield target
            target.output.flush()
            os.fsync(stream.fileno())  # the new content is on disk before the rename makes it the file
        if target.changed:
            _install(temporary, path, status, force)
    except BrokenPipeError:
        raise
    except OSError as error:
        raise _Failed(f"{path}: cannot write: {error.strerror or error}") from None
    finally:
        temporary.unlink(missing_ok=True)


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


def _text_records(chunks: Iterable[str], label: str, options: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """One JSON-ready record per reference of a text read in chunks, with its 1-based line and column."""
    lines = _Lines(keep=_stream_reach(options))
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
        head = source.read(binary, SNIFF_SIZE)
        if _looks_like_html(source, head):
            yield from _html_records(source, head + source.read(binary), args)
            return
        encoding = _text_encoding(source, head)
        undecodable = _Undecodable()
        chunks = _decoded_chunks(source, encoding, head, binary, undecodable)
        yield from _text_records(chunks, source.label, _scanner_options(args))
    undecodable.warn(source, encoding, stderr)


def _json_line(record: dict[str, Any]) -> str:
    """*record* as one line of JSON; an undecodable byte stays a ``\\udcXX`` escape, so the line is valid UTF-8."""
    line = json.dumps(record, ensure_ascii=False)
    return _UNDECODED.sub(lambda bad: "".join(f"\\u{ord(c):04x}" for c in bad.group()), line)


def _plain_line(uri: str) -> str:
    """*uri* on one line: the control characters and line separators it may hold (an ``href`` with a newline)
    are never URI characters, so they are percent-encoded (``%0A``), which is how a URI carries them."""
    return _LINE_BREAKING.sub(lambda character: percent_encode(character.group()), uri)


def run_extract(args: argparse.Namespace, stdout: TextIO, stderr: IO[str]) -> int:
    out = _standard_output(stdout)
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
    parser.add_argument("--base", metavar="URL", help="retrieval URL of HTML inputs: their links are resolved against it")
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
    source: Input, binary: IO[bytes], args: argparse.Namespace, out: _Output, stderr: IO[str]
) -> bool:
    """Rewrite one text input into *out*, in its own encoding and byte order; True when its text changed."""
    head = source.read(binary, SNIFF_SIZE)
    if _looks_like_html(source, head) and not args.as_text:
        # Rewriting attribute values as prose would damage markup ("<" inside href="...").
        raise InputError(source.label, "looks like HTML; use 'linkkit absolutize', or --as-text")
    encoding = _text_encoding(source, head)
    encoder = codecs.getincrementalencoder(encoding.codec)()
    undecodable = _Undecodable()
    chunks = _decoded_chunks(source, encoding, head, binary, undecodable)
    out.write(encoding.bom)
    try:
        changed = _rewrite_stream(
            chunks, _replacement(args), _scanner_options(args), lambda text: out.write(_encoded(text, encoder))
        )
        out.write(encoder.encode("", final=True))
    except UnicodeEncodeError as error:  # a replacement the input's encoding cannot hold
        raise InputError(source.label, f"cannot encode {error.object[error.start:error.end]!r} as {encoding.codec}") from None
    undecodable.warn(source, encoding, stderr)
    return changed


def _rewrite_in_place(source: Input, args: argparse.Namespace, stderr: IO[str]) -> None:
    with source.open_binary() as binary, _replacing(Path(source.name), args.force) as target:
        target.changed = _rewrite_from(source, binary, args, target.output, stderr)


def _rewrite_all(sources: list[Input], args: argparse.Namespace, out: _Output, stderr: IO[str]) -> bool:
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
            except (InputError, _Failed) as error:
                _error(str(error), stderr)
                failed = True
    elif args.output is not None:
        with _replacing(Path(args.output), args.force) as target:
            failed = _rewrite_all(sources, args, target.output, stderr)
    else:
        failed = _rewrite_all(sources, args, _standard_output(stdout), stderr)
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


# -- HTML: extract's HTML branch and absolutize (issue 4) --------------------------------------------------------

HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml", ".shtml"})
# An input that opens, after whitespace and comments, with an HTML doctype or an html, head or body tag.
_HTML_START = re.compile(r"(?:\s|<!--.*?-->)*<(?:!doctype\s+html|html|head|body)[\s/>]", re.IGNORECASE | re.DOTALL)


def _looks_like_html(source: Input, data: bytes) -> bool:
    """HTML by extension (.html, .htm, .xhtml, .shtml) or by content: the input starts as an HTML document."""
    if Path(source.name).suffix.lower() in HTML_SUFFIXES:
        return True
    head = data[:SNIFF_SIZE]
    bom, codec = next(((bom, codec) for bom, codec in BOMS if head.startswith(bom)), (b"", "latin-1"))
    return _HTML_START.match(head[len(bom):].decode(codec, "ignore")) is not None


def _html_records(source: Input, data: bytes, args: argparse.Namespace) -> list[dict[str, Any]]:
    """One JSON-ready record per link of an HTML input; spans are byte offsets into the file."""
    try:  # HTML carries its encoding (BOM, <meta charset>): --encoding overrides the <meta>
        found = html.links(data, base_url=args.base, encoding=args.encoding)
    except (LookupError, ValueError) as error:  # an unknown or unusable --encoding
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


def _absolutized(source: Input, data: bytes, args: argparse.Namespace) -> bytes:
    try:
        result = html.absolutize(data, args.base, encoding=args.encoding)
    except (LookupError, ValueError) as error:  # an unknown or unusable --encoding
        raise InputError(source.label, str(error)) from None
    assert isinstance(result, bytes)  # bytes in, bytes out
    return result


def run_absolutize(args: argparse.Namespace, stdout: TextIO, stderr: IO[str]) -> int:
    out = None if args.in_place or args.output is not None else _standard_output(stdout)
    failed = False
    for source in _inputs(args):
        try:
            with source.open_binary() as binary:
                data = source.read(binary)
            result = _absolutized(source, data, args)
            if out is not None:
                out.write(result)
                continue
            with _replacing(Path(args.output or source.name), args.force) as target:
                target.output.write(result)
                target.changed = args.output is not None or result != data
        except InputError as error:
            _error(str(error), stderr)
            failed = True
        except _Failed as error:
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
    except _Failed as error:  # the output cannot be written: nothing more can be done
        _error(str(error), sys.stderr)
        return EXIT_SOME_FAILED
    except BrokenPipeError:  # `linkkit extract big.txt | head -1`: the reader went away; stop quietly
        try:  # Python flushes standard output at exit: into /dev/null, not into the closed pipe (Python docs, signal)
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass  # standard output is not a file descriptor (embedded, captured): nothing left to flush into a pipe
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        return 130
