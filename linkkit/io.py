"""Inputs and outputs, as every front end needs them: an input named by path or ``-``, its BOM and charset
decoding (``surrogateescape``, so no byte is lost), line and column of offsets into a text read in chunks, HTML
sniffing, checked writes and atomic replacement of a file in place."""

from __future__ import annotations

import codecs
import errno
import functools
import io
import itertools
import os
import re
import shutil
import signal
import stat
import sys
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, TextIO, cast

from .errors import InputError
from .whatwg import codec_name

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer, WriteableBuffer

STDIN = "-"
# Why a name that holds a NUL byte (a --files-from list read by lines) names no file: POSIX paths cannot hold one.
NUL_IN_NAME = "no file name holds a NUL byte (--files-from -0 reads a list of NUL-separated names)"
ERRORS = "surrogateescape"  # undecodable bytes become lone surrogates and are written back as the same bytes
CHUNK_SIZE = 1 << 16  # bytes read at a time: memory stays bounded (and flat) on a file of any size
# Bytes decoded at a time (decoded_chunks). CPython's UTF-8 decoder sizes its result for ASCII, widens it at the first
# wider character and shrinks it at the end: at 64 KiB a chunk those reallocations fragmented the C heap, which
# grew with the input (extract of 100 MB peaked at 28 MiB, of 1 GB at 34); at 16 KiB both peak at 26, at the same
# CPU time.
DECODE_SIZE = 1 << 14
# Bytes looked at to tell an HTML input from plain text; the HTML standard's prescan for a <meta> charset looks at
# as many (13.2.3.2).
SNIFF_SIZE = 1024
# Byte order marks (Unicode 15.0 section 23.8), the UTF-32-LE one before the UTF-16-LE one it starts with.
BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"), (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"),
)
BOM_STARTS = b"".join(sorted({bom[:1] for bom, codec in BOMS}))  # the first byte of some BOM
# Codecs that read (and write) a BOM themselves: without one, their text is read as this codec, as HTML does.
BOM_LESS = {"utf-8-sig": "utf-8", "utf-16": "utf-16-le", "utf-32": "utf-32-le"}
# The most bytes of one document held whole (an HTML page, a message): a larger one is an error of its input, so that
# a compressed file that decompresses to gigabytes (a bomb) cannot exhaust memory. A text is streamed, never held.
HELD_LIMIT = 1 << 28
UNDECODED = re.compile("[\udc80-\udcff]+")  # PEP 383: the lone surrogates surrogateescape decodes bad bytes to


class OutputError(Exception):
    """An output that cannot be written, or a file that is not replaced; the message names it and says why."""


@dataclass(frozen=True)
class Input:
    """One input named on the command line: a path, or ``-`` for standard input; *encoding* is ``--encoding``."""

    name: str
    encoding: str | None

    @property
    def label(self) -> str:
        return "<stdin>" if self.name == STDIN else self.name

    def open_binary(self) -> AbstractContextManager[IO[bytes]]:
        """The input as a binary stream (standard input is left open when the stream is done with)."""
        if self.name == STDIN:
            return nullcontext(sys.stdin.buffer)
        try:
            return open(self.name, "rb")
        except OSError as error:
            raise InputError(self.label, error.strerror or str(error)) from None
        except ValueError:  # the system calls refuse a NUL byte in a name
            raise InputError(self.label, NUL_IN_NAME) from None

    def read(self, binary: IO[bytes], size: int = -1) -> bytes:
        """*size* more bytes of *binary* (all of them when negative); a read error names this input."""
        try:
            return binary.read(size)
        except OSError as error:  # e.g. a directory
            raise InputError(self.label, error.strerror or str(error)) from None

    def read_held(self, binary: IO[bytes], what: str) -> bytes:
        """:func:`read_held`, the rest of *binary* (a document held whole, *what*); a read error names this input."""
        try:
            return read_held(binary, self.label, what)
        except OSError as error:
            raise InputError(self.label, error.strerror or str(error)) from None

    def read_some(self, binary: IO[bytes], size: int) -> bytes:
        """:func:`read_some`; a read error names this input."""
        try:
            return read_some(binary, size)
        except OSError as error:
            raise InputError(self.label, error.strerror or str(error)) from None


def read_some(binary: IO[bytes], size: int) -> bytes:
    """Up to *size* more bytes of *binary* (empty at its end), by one read of what lies under it where it has
    ``read1``: a damaged compressed stream then fails only when nothing more can be read, and the bytes read before
    the damage are not lost with a call that was filling a whole *size*."""
    read1 = getattr(binary, "read1", None)
    return binary.read(size) if read1 is None else bytes(read1(size))


def too_large(what: str) -> str:
    """The message of a document over HELD_LIMIT: what it is, and the limit passed (at which byte it stopped)."""
    return f"{what} larger than {HELD_LIMIT} bytes, the most held whole: not read past it"


def read_held(binary: IO[bytes], label: str, what: str) -> bytes:
    """The rest of *binary*, a document held whole (*what*: ``HTML``, ``message``); an InputError naming *label* when
    it is longer than HELD_LIMIT bytes, after reading one byte more than that."""
    data = binary.read(HELD_LIMIT + 1)
    if len(data) > HELD_LIMIT:
        raise InputError(label, too_large(what))
    return data


@dataclass(frozen=True)
class Encoding:
    """How the bytes of a text input are text: a byte order mark (kept as it is), then *codec* (BOM-less)."""

    bom: bytes
    codec: str


def text_codec(source: Input, label: str) -> str:
    """The BOM-less Python codec *label* names (a windows-* one as the Encoding Standard reads it:
    :mod:`linkkit.whatwg`); an unknown label or a codec that is no text encoding (``rot13``, ``base64``) is an error
    of *source*."""
    try:
        name = codecs.lookup(label).name
    except (LookupError, ValueError):  # ValueError: a label holding a NUL or an undecodable byte (PEP 383)
        raise InputError(source.label, f"unknown encoding {label!r}") from None
    try:
        "".encode(name)  # refuses bytes-to-bytes and str-to-str codecs (bytes.decode skips that check on b"")
    except (LookupError, UnicodeError):  # UnicodeError: the "undefined" codec, which refuses all text
        raise InputError(source.label, f"{label!r} is not a text encoding") from None
    return codec_name(BOM_LESS.get(name, name))  # windows-1252 read as the Encoding Standard reads it: 0x81 is U+0081


def text_encoding(source: Input, head: bytes) -> Encoding:
    """A BOM decides, as it does for HTML (HTML 13.2.3.1 step 1, "BOM sniffing"); else ``--encoding``, else UTF-8."""
    given = None if source.encoding is None else text_codec(source, source.encoding)
    if head[:1] in BOM_STARTS:  # (an empty head is in too, and has none)
        for bom, codec in BOMS:
            if head.startswith(bom):
                return Encoding(bom, codec)
    return _without_bom(given or "utf-8")


@functools.cache
def _without_bom(codec: str) -> Encoding:
    """The encoding of a text without a BOM: one value per codec, made once (a batch asks once per file)."""
    return Encoding(b"", codec)


@dataclass
class Undecodable:
    """The bytes of an input that did not decode: how many, and the line and column of the first."""

    count: int = 0
    line: int = 0
    column: int = 0

    def check(self, text: str, offset: int, line: int, line_start: int) -> None:
        """Look at *text*, which starts at *offset* on *line*; that line starts at offset *line_start*."""
        if text.isascii():
            return
        runs = [run.span() for run in UNDECODED.finditer(text)]
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


def decoded_chunks(
    source: Input, encoding: Encoding, head: bytes, binary: IO[bytes], undecodable: Undecodable
) -> Iterator[str]:
    """The text after the BOM of *head* and the rest of *binary*, decoded chunk by chunk, noting bytes that do not
    decode; bytes that cannot even be kept (UTF-16 of odd length) are an error naming their offset.

    A decoder whose state is the bytes it holds (UTF-8, -16, -32: a call that raises leaves them as they were)
    decodes each chunk strictly first, and a chunk that holds a byte that does not decode again keeping it: only
    such a chunk needs a search for what was kept."""
    decoder = codecs.getincrementaldecoder(encoding.codec)(errors=ERRORS)
    retries = isinstance(decoder, codecs.BufferedIncrementalDecoder)
    if retries:
        decoder.errors = "strict"
    offset, line, line_start = 0, 1, 0
    given = len(encoding.bom)  # bytes given to the decoder so far
    data, final = head[given:], False
    while not final:
        final = not data
        held = len(decoder.getstate()[0])  # bytes of an unfinished character, from the last call
        kept = not retries  # whether the chunk may hold bytes kept undecoded
        try:
            try:
                chunk = decoder.decode(data, final=final)
            except UnicodeDecodeError:
                if not retries:
                    raise
                decoder.errors, kept = ERRORS, True
                chunk = decoder.decode(data, final=final)
                decoder.errors = "strict"
        except UnicodeDecodeError as error:
            at = given - held + error.start
            raise InputError(source.label, f"cannot decode byte {at} as {encoding.codec}: {error.reason}") from None
        given += len(data)
        if chunk:
            if kept:
                undecodable.check(chunk, offset, line, line_start)
            newlines = chunk.count("\n")
            if newlines:
                line, line_start = line + newlines, offset + chunk.rfind("\n") + 1
            offset += len(chunk)
            yield chunk
        if not final:
            data = source.read_some(binary, DECODE_SIZE)


def encoded(text: str, encoder: codecs.IncrementalEncoder) -> bytes:
    """*text* in the encoder's codec, undecodable bytes (lone surrogates, PEP 383) written back as themselves.

    Done here rather than by ``surrogateescape``, which the UTF-16 and UTF-32 encoders do not implement.
    """
    if text.isascii() or UNDECODED.search(text) is None:
        return encoder.encode(text)
    out, copied = bytearray(), 0
    for bad in UNDECODED.finditer(text):
        out += encoder.encode(text[copied:bad.start()])
        out += bytes(ord(c) - 0xDC00 for c in bad.group())
        copied = bad.end()
    out += encoder.encode(text[copied:])
    return bytes(out)


# -- standard streams closed when the process started ------------------------------------------------------------


class _Closed(io.RawIOBase):
    """The stand-in of a standard stream whose descriptor was closed (``<&-``, ``>&-``): it reads and writes as a
    closed descriptor does, failing with EBADF, so the input or output error names it."""

    def readable(self) -> bool:
        return True

    def writable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))

    def write(self, data: ReadableBuffer) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))


def claim_standard_streams() -> None:
    """Stand in for each standard stream that was closed when the process started (``<&-``; Python sets it to
    None): its descriptor is taken by /dev/null, so that no file opened later gets that number and is read or
    written as standard input or output; standard input and output then fail as closed ones do (``<stdin>: Bad
    file descriptor``), and messages to a closed standard error are dropped, not written to standard output."""
    for descriptor, name in enumerate(("stdin", "stdout", "stderr")):
        if getattr(sys, name) is not None:
            continue
        null = os.open(os.devnull, os.O_RDWR)
        if null != descriptor:
            os.dup2(null, descriptor)
            os.close(null)
        if name == "stderr":
            # standard error for the rest of the process, as Python's own is: never closed, so no context manager
            sys.stderr = open(descriptor, "w", encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115
        else:
            # unbuffered, so that no write that failed is held and tried again when Python exits
            setattr(sys, name, io.TextIOWrapper(cast(IO[bytes], _Closed()), encoding="utf-8", write_through=True))


class Messages(io.TextIOBase):
    """Standard error as linkkit writes its warnings, errors, progress and summary to it: a message that cannot be
    written (standard error closed or on a full disk, ``2>/dev/full``) is dropped, never an exception that would
    stop the work it reports on (the exit status still says whether an input failed)."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        with suppress(OSError, ValueError):
            named = _named_bytes(text, self.stream)
            if named is None:
                self.stream.write(text)
            else:
                self.stream.flush()
                cast(TextIO, self.stream).buffer.write(named)
            self.stream.flush()
        return len(text)

    def flush(self) -> None:
        with suppress(OSError, ValueError):
            self.stream.flush()

    def isatty(self) -> bool:
        try:
            return self.stream.isatty()
        except (OSError, ValueError, AttributeError):
            return False

    def fileno(self) -> int:
        return self.stream.fileno()


def _named_bytes(text: str, stream: IO[str]) -> bytes | None:
    """*text* as bytes for *stream*, each byte of a file name that did not decode (a PEP 383 surrogate) written as
    itself, as grep writes such a name; None when *text* holds none (nearly every message), the stream has no bytes
    beneath it, or a character its encoding cannot write: the text is then written as the stream writes it."""
    if text.isascii() or UNDECODED.search(text) is None or not hasattr(stream, "buffer"):
        return None
    try:
        return text.encode(getattr(stream, "encoding", None) or "utf-8", "surrogateescape")
    except (UnicodeEncodeError, LookupError):  # another lone surrogate, which no name holds
        return None


# The signals that ask a run to end (kill's default, a closed terminal): their default ends the process at once,
# leaving its temporary files (a spilled output, standard input spooled, a file half rewritten). The command line
# raises them as an exception in the main process, which ends through its cleanups; its workers keep the default.
TERMINATING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


# -- a run's temporary files ------------------------------------------------------------------------------------

# The run a temporary file (a spilled output, standard input spooled) belongs to, named apart from any other's
# while it runs (run_temporaries): forked workers inherit the name, and the run's end removes what is left.
_run = f"{os.getpid()}"
_runs = itertools.count()
_TEMPORARIES = ("spill", "stdin")


def temporary_prefix(what: str) -> str:
    """The name prefix of the current run's temporary files of one kind (*what*: ``spill``, ``stdin``)."""
    return f"linkkit-{what}-{_run}-"


@contextmanager
def run_temporaries() -> Iterator[None]:
    """A run whose temporary files are named its own, and removed when it ends if still there: each is removed by
    its reader, but a run that stops early (its reader gone, Ctrl-C) leaves those of the documents and outcomes it
    read ahead. Exit it after the workers ended."""
    import tempfile

    global _run
    # The temporary folder found now, before any worker is forked: finding it writes and removes a probe file
    # there, which a worker ended in the middle of it (the run stopped by SIGTERM) left behind.
    folder = tempfile.gettempdir()
    previous, _run = _run, f"{os.getpid()}.{next(_runs)}"
    try:
        yield
    finally:
        prefixes = tuple(temporary_prefix(what) for what in _TEMPORARIES)
        with os.scandir(folder) as entries:
            left = [entry.path for entry in entries if entry.name.startswith(prefixes)]
        for path in left:
            with suppress(FileNotFoundError):
                os.remove(path)
        _run = previous


# -- output: every write checked ---------------------------------------------------------------------------------


class Output:
    """A binary output whose every write is checked: a failure (a full disk) is a :class:`OutputError` naming it.

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

    def position(self) -> int | None:
        """Where the next write lands, for :meth:`cut`; None when the output cannot be cut back (a pipe)."""
        return self.stream.tell() if self.stream.seekable() else None

    def cut(self, position: int) -> None:
        """Drop what was written after *position*: the part of an input that failed half-way, which an output
        written atomically does not keep (as the input's own file, rewritten in place, is left as it was)."""
        self.flush()
        self._checked(self.stream.truncate, position)
        self.stream.seek(position)

    def _checked(self, operation: Callable[..., int | None], *arguments: memoryview | int) -> int:
        try:
            return operation(*arguments) or 0
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputError(f"{self.label}: cannot write: {error.strerror or error}") from None


def standard_output(stdout: TextIO) -> Output:
    """The binary buffer under *stdout*, after what was written to it as text."""
    stdout.flush()
    return Output(stdout.buffer, "<stdout>")


@dataclass
class Target:
    """Where the new content of a file goes, and whether it differs from the old (an unchanged file is kept)."""

    output: Output
    changed: bool = True


_TEMPORARY_MARK = ".linkkit-tmp-"  # what names a temporary file, between the file's name and the process id


def temporary_path(path: Path, pid: int) -> Path:
    """The temporary file a run with process id *pid* writes *path*'s new content into, beside it."""
    return path.with_name(f".{path.name}{_TEMPORARY_MARK}{pid}")


def is_temporary(name: str) -> bool:
    """Whether the file name *name* is one :func:`temporary_path` gives (``.NAME.linkkit-tmp-PID``): a run killed
    before it replaced its file leaves one, which a walk of the folder passes over, as no input of the user's."""
    head, mark, pid = name.rpartition(_TEMPORARY_MARK)
    return bool(mark) and len(head) > 1 and head.startswith(".") and pid.isascii() and pid.isdigit()


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
    prefix = temporary_path(path, 0).name[:-1]
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
        raise OutputError(f"{path}: cannot write: {error.strerror or error}") from None
    if force or not stat.S_ISREG(status.st_mode):
        return status
    if not status.st_mode & 0o222 or not os.access(path, os.W_OK):
        raise OutputError(f"{path}: read-only; not replaced (--force replaces it)")
    if status.st_nlink > 1:
        raise OutputError(
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


def _version(status: os.stat_result | None) -> tuple[int, int, int, int] | None:
    """What tells one content of a file from a later one without reading it: inode, size and modification time."""
    return None if status is None else (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)


def _check_unchanged(path: Path, status: os.stat_result | None, name: Path) -> None:
    """Refuse to replace *path* (named *name*) when it changed since *status* was taken (a line appended by another
    program while it was being rewritten): the new content was made from the old, and installing it would lose
    the change."""
    try:
        now: os.stat_result | None = path.stat()
    except FileNotFoundError:
        now = None
    if _version(now) != _version(status):
        raise OutputError(f"{name}: changed while it was being rewritten; left as it is now (run again)")


def _install(temporary: Path, path: Path, status: os.stat_result | None, force: bool, name: Path) -> None:
    """Make *temporary* the file *path* (named *name* in messages), keeping the old file's mode, owner and group."""
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
                    raise OutputError(
                        f"{name}: owned by {status.st_uid}:{status.st_gid}, which replacing it would change; not "
                        "replaced (--force writes through the file itself, keeping them, but not atomically)"
                    ) from None
                _write_through(temporary, path)
                return
    os.replace(temporary, path)


@contextmanager
def replacing(
    path: Path, force: bool, *, since: os.stat_result | None = None, durable: bool = True,
) -> Iterator[Target]:
    """A target for the new content of the file *path*: a temporary file beside it (``.NAME.linkkit-tmp-PID``)
    renamed over it when complete, the file's mode and owner kept. A device or pipe (``/dev/stdout``) is written
    directly. The file is left as it was when the content fails, is unchanged, cannot be installed, or changed
    since its reading began: *since*, the status of the file as it was opened for reading, else when this starts.
    *durable*: the content is flushed to the disk before the rename (a document rewritten, which a crash must not
    lose); an output made from its inputs (``extract -o``) is renamed without it, as ``sort -o`` does."""
    status = _replaceable(path, force)
    if status is not None and not stat.S_ISREG(status.st_mode):
        try:
            with open(path, "wb") as stream:
                target = Target(Output(stream, str(path)))
                yield target
                target.output.flush()
        except BrokenPipeError:
            raise
        except OSError as error:  # opening it, or closing it (the last flush)
            raise OutputError(f"{path}: cannot write: {error.strerror or error}") from None
        return
    real = path.resolve()  # a symbolic link is followed: its target is replaced and the link stays a link
    temporary = temporary_path(real, os.getpid())
    try:
        _remove_stale_temporaries(real)
        temporary.unlink(missing_ok=True)
    except OSError as error:
        raise OutputError(f"{path}: cannot write: {error.strerror or error}") from None
    try:  # made inside: a signal raised as the open returns (a run ended) must not leave the temporary behind
        # Mode 0o666 less the umask, as for any new file; the old file's mode replaces it in _install.
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666)
        with open(descriptor, "wb") as stream:
            target = Target(Output(stream, str(path)))
            yield target
            target.output.flush()
            if durable:
                os.fsync(stream.fileno())  # the new content is on disk before the rename makes it the file
        if target.changed:
            _check_unchanged(real, since or status, path)
            _install(temporary, real, status, force, path)
    except BrokenPipeError:
        raise
    except OSError as error:
        raise OutputError(f"{path}: cannot write: {error.strerror or error}") from None
    finally:
        temporary.unlink(missing_ok=True)


class Lines:
    """Line and column of increasing offsets into a text read in chunks, holding only the latest chunks.

    A reference from :func:`linkkit.scanner.finditer_stream` starts at most about ``chunk_size + max_length``
    characters before the end of what the stream has read (its memory bound), so older chunks are only counted.
    """

    def __init__(self, keep: int | None) -> None:
        self.keep = keep  # None: only :meth:`settle` lets text go
        self.chunks: deque[str] = deque()
        self.held = 0
        self.base = 0  # offset of chunks[0]
        self.cursor = 0  # newlines are counted up to here
        self.line = 1
        self.line_start = 0

    def feed(self, chunk: str) -> str:
        self.chunks.append(chunk)
        self.held += len(chunk)
        keep = self.keep
        while keep is not None and len(self.chunks) > 1 and self.held - len(self.chunks[0]) >= keep:
            self._advance(self.base + len(self.chunks[0]))
        return chunk

    def settle(self, offset: int) -> None:
        """Count the text before *offset*, before which no offset will be located, and let it go: for a stream
        whose references may lag behind by more than a fixed reach (read back from their defanged spellings)."""
        self._advance(max(offset, self.cursor))

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


# -- HTML sniffing: is an input an HTML document? ---------------------------------------------------------------------

HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml", ".shtml"})
# An input that opens, after whitespace and comments, with an HTML doctype or an html, head or body tag; XHTML may
# open with its XML declaration first (XML 1.0 2.8).
_HTML_START = re.compile(
    r"(?:\s*<\?xml\s[^>]*\?>)?(?:\s|<!--.*?-->)*<(?:!doctype\s+html|html|head|body)[\s/>]", re.IGNORECASE | re.DOTALL
)
# The bytes whose Latin-1 characters that pattern's \s matches (str.isspace).
_LATIN_1_SPACES = bytes(byte for byte in range(256) if chr(byte).isspace())


def looks_like_html(source: Input, data: bytes) -> bool:
    """HTML by extension (.html, .htm, .xhtml, .shtml) or by content: the input starts as an HTML document."""
    return Path(source.name).suffix.lower() in HTML_SUFFIXES or starts_as_html(data)


def starts_as_html(data: bytes) -> bool:
    """Whether *data* starts as an HTML document: after a BOM, whitespace and comments, a doctype or an html, head
    or body tag."""
    head = data[:SNIFF_SIZE]
    bom, codec = b"", "latin-1"
    if head[:1] in BOM_STARTS:  # the first byte of some BOM (an empty head is in too, and has none)
        bom, codec = next(((bom, codec) for bom, codec in BOMS if head.startswith(bom)), (bom, codec))
    elif head.lstrip(_LATIN_1_SPACES)[:1] != b"<":  # most texts: no "<" first, so no comment, doctype or tag
        return False
    return _HTML_START.match(head[len(bom):].decode(codec, "ignore")) is not None
