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
import contextlib
import os
import signal
import stat
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn, TextIO, TypeAlias, cast

# What the parser and main need; each subcommand's machinery is imported by the function that runs it, so that
# `linkkit --version` and `--help` load no batch, source, mail or URI module.
from .batch.formats import ALIASES, FORMATS, header
from .errors import InputError, ResolutionError
from .io import (
    ERRORS,
    SNIFF_SIZE,
    STDIN,
    TERMINATING,
    Input,
    Messages,
    Output,
    OutputError,
    Target,
    claim_standard_streams,
    replacing,
    run_temporaries,
    standard_output,
)

if TYPE_CHECKING:
    from .batch.extract import ExtractOptions, Outcome
    from .batch.progress import Progress
    from .batch.rewrite import MailTransform
    from .sources.document import Document
    from .sources.files import WalkOptions
    from .sources.inputs import Counts

Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"  # what add_subparsers() returns
EXIT_OK, EXIT_SOME_FAILED = 0, 1  # and 2 for a usage error, as argparse exits
EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE  # what a shell reports for a tool stopped by a closed pipe (`| head -1`)

# Kept under their first names, loaded on first use (PEP 562): the streamed rewrite's reach and the plain line are
# the batch's now (linkkit.batch.extract, linkkit.batch.formats), and _replacement and _rewrite_stream those of
# linkkit.batch.rewrite, which only rewrite and absolutize load, never extract.
_FIRST_NAMES = {"_stream_reach": "extract", "_plain_line": "formats", "_replacement": "rewrite",
                "_rewrite_stream": "rewrite"}


def __getattr__(name: str) -> Any:
    if name in _FIRST_NAMES:
        import importlib

        return getattr(importlib.import_module(f".batch.{_FIRST_NAMES[name]}", __package__), name[1:])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _error(message: str, stderr: IO[str]) -> None:
    print(f"linkkit: error: {message}", file=stderr)


# -- options every subcommand shares ---------------------------------------------------------------------------------


def _add_input_options(parser: argparse.ArgumentParser, help: str) -> None:
    parser.add_argument("files", nargs="*", metavar="FILE", help=help)
    parser.add_argument(
        "--encoding", help="input encoding when there is no BOM (default utf-8; bad bytes are kept; "
        "for HTML it overrides <meta charset>)",
    )
    batch = parser.add_argument_group("batch")
    batch.add_argument("-r", "--recursive", action="store_true", help="read the files under each folder named")
    batch.add_argument("--include", action="append", default=[], metavar="GLOB",
                       help="only files whose name or path under the folder matches GLOB (repeatable)")
    batch.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                       help="skip files and folders whose name or path under the folder matches GLOB (repeatable)")
    batch.add_argument("-L", "--follow", action="store_true",
                       help="follow symbolic links met under a folder (never followed otherwise)")
    batch.add_argument("--files-from", metavar="FILE", help="also read the names of inputs from FILE (- for stdin), "
                       "one a line")
    batch.add_argument("-0", "--null", action="store_true", help="names in --files-from end with NUL, not newline")
    batch.add_argument("-j", "--jobs", type=_positive, default=None, metavar="N",
                       help="worker processes (default: every core)")
    batch.add_argument("--engine", choices=("local", "dask"), default="local",
                       help="local processes, or a Dask cluster (pip install 'linkkit[dask]')")
    batch.add_argument("--scheduler", metavar="ADDRESS",
                       help="the Dask scheduler (tcp://HOST:8786); default: a local cluster on 127.0.0.1")
    batch.add_argument("-q", "--quiet", action="store_true", help="no progress and no summary on standard error")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"at least 1, not {value}")
    return value


def _add_scanner_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-abbreviated", dest="abbreviated", action="store_false",
        help="do not complete www. and ftp. hosts (RFC 3986 draft appendix F)",
    )
    parser.add_argument("--emails", action="store_true", help="also find bare e-mail addresses, as mailto: URIs")
    parser.add_argument(
        "--max-length", type=_positive, metavar="N",
        help="the longest reference in a text input, in characters (default 1048576): a longer run is cut there "
        "and the scan goes on; memory is about four times N",
    )


def _add_target_options(parser: argparse.ArgumentParser, what: str) -> None:
    target = parser.add_mutually_exclusive_group()
    target.add_argument("-o", "--output", metavar="FILE",
                        help="write the result to FILE instead of standard output (with -r: the folder OUT_DIR that "
                        "mirrors the tree)")
    target.add_argument("--in-place", action="store_true", help=f"rewrite each input {what} atomically")
    parser.add_argument(
        "--force", action="store_true",
        help="replace read-only files too, and write files with several hard links or another owner through "
        "the file itself (not atomically)",
    )


def _names(args: argparse.Namespace) -> Iterator[str]:
    """The inputs named: the arguments, then the list of --files-from (each name checked as it is read, the list
    may be long and standard input: :func:`_listed_inputs`); standard input when none is named."""
    from .sources.files import names_from, open_list

    yield from args.files
    if args.files_from is not None:
        stream = open_list(args.files_from)
        try:
            listed = _read_list(names_from(stream, null=args.null), args)
            checked = args.output is not None or args.files_from == STDIN
            yield from _listed_inputs(listed, args) if checked else listed
        finally:
            if args.files_from != STDIN:
                stream.close()
    elif not args.files:
        yield STDIN


def _read_list(names: Iterator[str], args: argparse.Namespace) -> Iterator[str]:
    """*names* as the --files-from list gives them; a list that cannot be read (standard input closed, ``<&-``; a
    read error) is a usage error naming it, as one that cannot be opened is (it was a traceback)."""
    try:
        yield from names
    except OSError as error:
        args.parser.error(f"--files-from {args.files_from}: {error.strerror or error}")


def _listed_inputs(names: Iterable[str], args: argparse.Namespace) -> Iterator[str]:
    """*names* of the --files-from list, refusing (a usage error, as for a name on the command line) one that is
    the ``-o`` file by any name (the output would replace that input), or a folder ``-r`` reads that holds it, or
    ``-`` in a list read from standard input (the rest of the list would be read as that input). The output is
    written atomically, so nothing was replaced when the refusal comes in the middle of a run."""
    output = None if args.output is None else _identity(args.output)
    for name in names:
        if name == STDIN:
            if args.files_from == STDIN:
                args.parser.error("--files-from - lists -: standard input is the list, not an input")
        elif args.output is not None:
            if output is not None and _identity(name) == output:
                _refuse_output(args, args.parser, f"{name}, in {args.files_from}")
            if args.recursive:
                _check_outside(args, args.parser, name)
        yield name


def _walking(args: argparse.Namespace) -> WalkOptions:
    from .sources.files import WalkOptions

    return WalkOptions(recursive=args.recursive, include=tuple(args.include), exclude=tuple(args.exclude),
                       follow=args.follow)


def _mapped(args: argparse.Namespace, function: Callable[[list[Document]], list[Outcome]],
            inputs: Iterable[Document]) -> Iterator[Outcome]:
    """*function* mapped over *inputs* by the driver the options name, results in input order."""
    from .batch.drivers import default_jobs, run_dask, run_local

    jobs = args.jobs or default_jobs()
    if args.engine == "dask":
        return _on_cluster(run_dask(function, inputs, scheduler=args.scheduler, jobs=jobs), args.scheduler)
    return _from_workers(run_local(function, inputs, jobs=jobs))


class _ClusterError(Exception):
    """The Dask cluster cannot be reached, or was lost, or a local worker died: the run ends with its reason
    (status 1)."""


def _from_workers(results: Iterator[Outcome]) -> Iterator[Outcome]:
    """*results* of the local driver, a worker that died (killed by a signal, or the kernel out of memory) an error
    of the run instead of a traceback, and not the output's: its ChildProcessError is an OSError, which an ``-o``
    file's writing reported as ``FILE: cannot write``."""
    try:
        yield from results
    except ChildProcessError as error:
        raise _ClusterError(f"--jobs: {error}") from None


def _on_cluster(results: Iterator[Outcome], scheduler: str | None) -> Iterator[Outcome]:
    """*results* of the Dask driver, whose failure to reach its scheduler (a wrong --scheduler address, a cluster
    gone, one running another linkkit) is an error naming it instead of a traceback; the sources turn an input's
    own errors into outcomes."""
    from .batch.drivers import ClusterMismatch

    try:
        yield from results
    except (OSError, ClusterMismatch) as error:
        where = f"--scheduler {scheduler}" if scheduler is not None else "the local Dask cluster"
        raise _ClusterError(f"{where}: {error}") from None


def _progress(args: argparse.Namespace, stderr: IO[str], counts: Counts) -> Progress:
    from .batch.progress import Progress

    return Progress(stderr, show=not args.quiet and _is_terminal(stderr), files=lambda: counts.files)


def _is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _summarize(args: argparse.Namespace, progress: Progress, counts: Counts, stderr: IO[str]) -> None:
    """The summary line: for a batch (-r, --files-from) or on a terminal, unless --quiet."""
    progress.close()
    if not args.quiet and (args.recursive or args.files_from is not None or _is_terminal(stderr)):
        print(progress.summary(files=counts.files, binary=counts.binary), file=stderr)


def _check_batch(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    if args.scheduler is not None and args.engine != "dask":
        parser.error("--scheduler is for --engine dask")
    if args.null and args.files_from is None:
        parser.error("-0/--null is for --files-from")
    if args.files_from == STDIN and STDIN in args.files:  # one stream cannot be the list and an input
        parser.error("--files-from - and the input - both read standard input")
    if args.files_from not in (None, STDIN):
        try:  # the list every input comes from: one that cannot be read is a usage error, before anything runs
            open(args.files_from, "rb").close()
        except OSError as error:
            parser.error(f"--files-from {args.files_from}: {error.strerror or error}")
    if args.engine == "dask":
        try:
            import dask.distributed  # noqa: F401
        except ImportError:
            parser.error("--engine dask needs Dask: pip install 'linkkit[dask]'")
    if args.scheduler is not None:
        from .batch.drivers import unusable_scheduler

        if (reason := unusable_scheduler(args.scheduler)) is not None:
            parser.error(f"--scheduler {args.scheduler}: {reason}")


# -- extract -----------------------------------------------------------------------------------------------------


def _extract_options(args: argparse.Namespace) -> ExtractOptions:
    from .batch.extract import ExtractOptions

    return ExtractOptions(
        format=ALIASES.get(args.format, args.format), base=args.base, encoding=args.encoding,
        abbreviated=args.abbreviated, emails=args.emails, max_length=args.max_length, headers=args.headers,
        unique=args.unique, flags=args.flags, refang=args.refang, spill=args.engine != "dask",
    )


def _copy_spilled(path: str, out: Output | None) -> None:
    """Copy a document's spilled output (a temporary file of :func:`linkkit.batch.extract.extract`) and remove it."""
    try:
        if out is not None:
            with open(path, "rb") as spilled:
                while block := spilled.read(1 << 20):
                    out.write(block)
    finally:
        os.unlink(path)


def _write_outcomes(outcomes: Iterable[Outcome], out: Output | None, progress: Progress, unique: bool) -> bool:
    """Write each outcome's lines (each URI once with *unique*) and messages, in order; True when some failed."""
    seen: set[str] = set()
    failed = False
    for outcome in outcomes:
        if outcome.uris is not None and unique:
            lines = []
            for line, uri in zip(outcome.lines, outcome.uris, strict=True):
                if uri is not None:
                    if uri in seen:
                        continue
                    seen.add(uri)
                lines.append(line)
        else:
            lines = outcome.lines
        if lines and out is not None:
            out.write(b"".join(lines))
        if outcome.spilled is not None:
            _copy_spilled(outcome.spilled, out)
        for message in outcome.messages:
            progress.write(message)
        failed |= outcome.failed > 0
        progress.add(size=outcome.size, links=outcome.links, failed=outcome.failed, records=outcome.records,
                     binary=outcome.binary)
    return failed


def run_extract(args: argparse.Namespace, stdout: TextIO, stderr: IO[str]) -> int:
    from .batch.drivers import default_jobs
    from .batch.extract import extract_all
    from .sources.inputs import WHOLE_SIZE, Counts, documents, listed

    options = _extract_options(args)
    counts = Counts()
    progress = _progress(args, stderr, counts)
    # with -r, --base is the URL of the folders named: a file under one is retrieved from its path there
    folders_url = args.base if args.recursive else None
    if args.engine == "local" and (args.jobs or default_jobs()) == 1:  # no other process to open the files
        inputs = documents(_names(args), _walking(args), counts, encoding=args.encoding, whole=WHOLE_SIZE,
                           base_url=folders_url)
    else:
        inputs = listed(_names(args), _walking(args), counts, encoding=args.encoding, base_url=folders_url)
    outcomes = _mapped(args, partial(extract_all, options=options), inputs)
    first = header(options.format)
    # the driver closed first (its workers ended), then what a stopped run read ahead and did not write removed
    with contextlib.ExitStack() as stack:
        stack.enter_context(run_temporaries())
        stack.callback(getattr(outcomes, "close", lambda: None))
        if args.output is not None:
            # links made from the inputs, made again by running again: renamed into place, not flushed first
            target = stack.enter_context(replacing(Path(args.output), args.force, durable=False))
            out = target.output
        else:
            out = standard_output(stdout)
        if first is not None:
            out.write((first + "\n").encode("utf-8", ERRORS))
        try:
            failed = _write_outcomes(outcomes, out, progress, options.unique)
        finally:
            progress.close()
        out.flush()
    _summarize(args, progress, counts, stderr)
    return EXIT_SOME_FAILED if failed else EXIT_OK


def add_extract(commands: Subcommands) -> None:
    parser = commands.add_parser(
        "extract", help="print the URI references found in text, HTML, e-mail and web archives"
    )
    _add_input_options(parser, "inputs: files, folders (-r), compressed files, mailboxes, WARC files (standard "
                       "input when none, or -; with -r the working directory when none)")
    _add_scanner_options(parser)
    parser.add_argument("--format", choices=(*FORMATS, *ALIASES), default="plain",
                        help="one URI per line (plain; 'text' is its old name), JSON lines, TSV or CSV")
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE (atomically) instead of standard output")
    parser.add_argument("--force", action="store_true",
                        help="replace a read-only -o FILE too, and write one with several hard links or another "
                        "owner through the file itself (not atomically)")
    parser.add_argument("--unique", action="store_true", help="print each URI once, at its first occurrence")
    parser.add_argument(
        "--base", "--base-url", dest="base", metavar="URL",
        help="retrieval URL of HTML inputs and messages: their links are resolved against it (a WARC record's is "
        "its target URI); with -r the URL of the folders named, a file's own URL being its path under one",
    )
    parser.add_argument(
        "--headers", action="store_true",
        help="also the URLs of messages' List-* and Archived-At header fields (RFC 2369, RFC 5064)",
    )
    parser.add_argument(
        "--flags", action="store_true",
        help="add a flags column: what each link does that RFC 3986 section 7 warns about (linkkit.security)",
    )
    parser.add_argument(
        "--refang", action="store_true",
        help="also find the defanged references of threat reports in texts, in messages' text parts and in HTML "
        "pages' text (hxxps://evil[.]example/): the URI refanged, raw and span as written",
    )
    parser.set_defaults(run=run_extract, check=_check_extract, parser=parser)


def _check_extract(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    if args.recursive and not args.files and args.files_from is None:
        args.files = ["."]  # -r and no FILE: the working directory, as grep -r and ripgrep read it
    _check_base(args, parser)
    _check_batch(args, parser)
    _check_output_is_no_input(args, parser)
    if args.recursive and args.output is not None:
        for name in args.files:
            if name != STDIN:
                _check_outside(args, parser, name)


def _check_outside(args: argparse.Namespace, parser: argparse.ArgumentParser, name: str) -> None:
    """Refuse an ``-o`` inside the folder *name*, which ``-r`` reads: the output would be read back as input."""
    if Path(name).is_dir() and _inside(Path(name), Path(args.output)):
        parser.error(f"-o {args.output} is inside {name}, which -r reads: the output would be read as input")


def _check_output_is_no_input(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Refuse an ``-o`` that is one of the files named or the ``--files-from`` list, by any name (a symbolic or a
    hard link too): the output would replace an input, which only ``--in-place`` may do."""
    output = None if args.output is None else _identity(args.output)
    if output is None:
        return  # no output file yet: no input can be it
    named = [*args.files, *([] if args.files_from is None else [args.files_from])]
    for name in named:
        if name != STDIN and _identity(name) == output:
            _refuse_output(args, parser, name)


def _refuse_output(args: argparse.Namespace, parser: argparse.ArgumentParser, input: str) -> NoReturn:
    """The usage error of an ``-o`` that is the input *input*; only ``--in-place`` may replace an input."""
    hint = "; use --in-place to rewrite a file in place" if args.command != "extract" else ""
    parser.error(f"-o {args.output} is also an input ({input}){hint}")


def _identity(name: str) -> tuple[int, int] | None:
    """The device and inode of the existing file *name*, links followed (None: there is none); stat once for
    the output, not once for each input it is compared with."""
    try:
        status = os.stat(name)
    except (OSError, ValueError):  # no such file, or a name the system cannot take (a NUL byte)
        return None
    return status.st_dev, status.st_ino


def _inside(folder: Path, path: Path) -> bool:
    """Whether *path* is *folder* or lies under it, links resolved."""
    root, target = folder.resolve(), path.resolve()
    return target == root or root in target.parents


# -- rewrite -----------------------------------------------------------------------------------------------------


def _named(args: argparse.Namespace) -> list[str]:
    """Every input of ``rewrite`` and ``absolutize``, which take them all before the first is done: the names of
    the --files-from list too, read once, when the usage is checked, so that the checks see what the run reads."""
    names: list[str] | None = getattr(args, "named", None)
    if names is None:
        names = args.named = list(_names(args))
    return names


def _inputs(args: argparse.Namespace) -> list[Input]:
    """The inputs of ``rewrite`` and ``absolutize``: an Apple Mail bundle named (``NAME.mbox/``) is the mbox file
    it holds, rewritten as that file is (it was refused: ``Is a directory``)."""
    from .mail.mailbox import bundle_mbox

    return [Input(bundle_mbox(name) or name, args.encoding) for name in _named(args)]


def _report(messages: list[str], stderr: IO[str]) -> None:
    for message in messages:
        print(message, file=stderr)


def _rewrite_from(source: Input, binary: IO[bytes], args: argparse.Namespace, out: Output, stderr: IO[str]) -> bool:
    from .batch.rewrite import rewrite_text

    messages: list[str] = []
    try:
        return rewrite_text(source, binary, args, out, messages)
    finally:
        _report(messages, stderr)


def _rewrite_in_place(source: Input, args: argparse.Namespace, stderr: IO[str]) -> None:
    with source.open_binary() as binary, replacing(Path(source.name), args.force,
                                                   since=_in_place_status(source, binary)) as target:
        target.changed = _rewrite_from(source, binary, args, target.output, stderr)


def _in_place_status(source: Input, binary: IO[bytes]) -> os.stat_result:
    """The status of the input *source*, open as *binary*, that ``--in-place`` replaces: a regular file only, as
    ``sed -i`` edits one. A pipe named (``/dev/stdin``) was opened for writing by the run reading it, which then
    waited for its own end of file for ever; a device has no content to replace."""
    status = os.fstat(binary.fileno())
    if not stat.S_ISREG(status.st_mode):
        raise InputError(source.label, "not a regular file; not rewritten in place")
    return status


def _rewrite_all(sources: list[Input], args: argparse.Namespace, out: Output, stderr: IO[str],
                 file: Target | None = None) -> bool:
    """Rewrite *sources* one after another into *out*; True when some input failed (the others are done). Into
    the ``-o`` *file*, written atomically, an input that fails leaves no part of itself (what it wrote is cut
    off), and a file that no input was written to is left as it was."""
    failed = written = False
    for source in sources:
        start = None if file is None else out.position()
        try:
            if _is_maildir(source):
                raise InputError(source.label, "a Maildir is rewritten with --in-place only (one file per message)")
            with source.open_binary() as binary:
                _rewrite_from(source, binary, args, out, stderr)
            written = True
        except InputError as error:
            _error(str(error), stderr)
            failed = True
            if start is not None:
                out.cut(start)
    out.flush()
    if file is not None:
        file.changed = written
    return failed


def run_rewrite(args: argparse.Namespace, stdout: TextIO, stderr: IO[str]) -> int:
    from .batch.rewrite import mail_rewriter  # the rewriters, loaded by the subcommands that rewrite

    if args.recursive:
        return _run_tree(args, "rewrite", stderr)
    sources = _inputs(args)
    if args.in_place:
        failed = False
        for source in sources:
            try:
                if _is_maildir(source) and not args.as_text:
                    _rewrite_maildir(source, mail_rewriter(args), args, stderr)
                else:
                    _rewrite_in_place(source, args, stderr)
            except (InputError, OutputError) as error:
                _error(str(error), stderr)
                failed = True
    elif args.output is not None:
        with replacing(Path(args.output), args.force) as target:
            failed = _rewrite_all(sources, args, target.output, stderr, target)
    else:
        failed = _rewrite_all(sources, args, standard_output(stdout), stderr)
    return EXIT_SOME_FAILED if failed else EXIT_OK


def _check_rewrite_usage(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    _take_query_names(args)
    _check_batch(args, parser)
    if args.recursive:
        _check_tree(args, parser)
        return
    _check_output_is_no_input(args, parser)
    _check_in_place(args, parser, _named(args))


def _check_in_place(args: argparse.Namespace, parser: argparse.ArgumentParser, names: list[str]) -> None:
    """Refuse ``--in-place`` without a file among *names* (all the inputs, the list's too), or with standard input."""
    if args.in_place and (not names or STDIN in names):
        parser.error("--in-place needs file names (standard input cannot be rewritten in place)")


def _take_query_names(args: argparse.Namespace) -> None:
    """``--redact-query``'s parameter names, a comma-separated list split. With no FILE named before it, the
    values after the last one that names no existing file (nor ``-``) are the FILEs, which ``NAME...`` had taken:
    ``--redact-query session token notes.txt`` rewrites notes.txt (``--`` ends the names, as ever)."""
    values = list(args.redact_query or ())
    if not args.files and args.files_from is None:
        cut = len(values)
        while cut > 1 and (values[cut - 1] == STDIN or os.path.exists(values[cut - 1])):
            cut -= 1
        values, args.files = values[:cut], values[cut:]
    args.redact_query = [name for value in values for name in value.split(",") if name]


def add_rewrite(commands: Subcommands) -> None:
    parser = commands.add_parser(
        "rewrite", help="rewrite the URI references of text or e-mail, leaving everything else as is"
    )
    _add_input_options(parser, "input files (standard input when none, or -); with -r one folder")
    _add_scanner_options(parser)
    parser.add_argument("--normalize", action="store_true", help="normalize each reference (RFC 3986 6.2.2, 6.2.3)")
    parser.add_argument("--unwrap", action="store_true", help="re-join references that run over several lines")
    parser.add_argument("--angle", action="store_true", help="wrap each reference in <...> (RFC 3986 appendix C)")
    parser.add_argument("--as-text", action="store_true", help="rewrite HTML and e-mail inputs as plain text too")
    security = parser.add_argument_group("security (linkkit.security; HTML inputs are rewritten as HTML)")
    security.add_argument("--defang", action="store_true", help="defang each reference: hxxps://example[.]com/")
    security.add_argument("--redact", action="store_true", help="mask the password of each userinfo with ***")
    security.add_argument("--drop-userinfo", action="store_true", help="with --redact: drop the userinfo instead")
    security.add_argument(
        "--redact-query", nargs="+", action="extend", metavar="NAME",
        help="mask the values of these query and fragment parameters (implies --redact; names may also be "
        "comma-separated; with no FILE before it, the values that name existing files are the FILEs)",
    )
    _add_target_options(parser, "file")
    parser.set_defaults(run=run_rewrite, check=_check_rewrite_usage, parser=parser, base=None, base_url=None)


# -- a tree of files: rewrite -r and absolutize -r -----------------------------------------------------------------


def _check_tree(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    if len(args.files) != 1 or args.files[0] == STDIN or not Path(args.files[0]).is_dir():
        parser.error("-r rewrites one folder: name it (and --in-place, or -o OUT_DIR to mirror it)")
    if args.files_from is not None:
        parser.error("-r rewrites one folder; --files-from is for extract")
    if not args.in_place and args.output is None:
        parser.error("-r needs --in-place, or -o OUT_DIR to write a mirror of the tree")
    if args.output is not None and _inside(Path(args.files[0]), Path(args.output)):
        parser.error(f"-o {args.output} is inside the folder rewritten; name a folder outside it")
    if args.output is not None and os.path.lexists(args.output) and not os.path.isdir(args.output):
        parser.error(f"-o {args.output} is no folder: -r writes a mirror of the tree into one")


def _run_tree(args: argparse.Namespace, command: str, stderr: IO[str]) -> int:
    """Rewrite every file under one folder, each atomically, in place or into a mirror of the tree; a file that
    fails is left as it was and the others go on."""
    import dataclasses

    from .batch.rewrite import TreeOptions, mirror_folder, rewrite_files
    from .sources.document import FILE, Document
    from .sources.files import walk
    from .sources.inputs import Counts

    root = args.files[0]
    options = TreeOptions(
        command=command, root=root, out_dir=None if args.in_place else args.output, base_url=args.base_url,
        encoding=args.encoding, force=args.force, normalize=getattr(args, "normalize", False),
        unwrap=getattr(args, "unwrap", False), angle=getattr(args, "angle", False),
        as_text=getattr(args, "as_text", False), abbreviated=getattr(args, "abbreviated", True),
        emails=getattr(args, "emails", False), max_length=getattr(args, "max_length", None),
        defang=getattr(args, "defang", False),
        redact=getattr(args, "redact", False), drop_userinfo=getattr(args, "drop_userinfo", False),
        redact_query=tuple(getattr(args, "redact_query", None) or ()),
    )
    if options.out_dir is not None:  # made first: a mirror that cannot be made ends the run, as an -o FILE does
        mirror_folder(Path(options.out_dir))
    counts = Counts()
    progress = _progress(args, stderr, counts)

    walking = dataclasses.replace(_walking(args), links=options.out_dir is not None)  # a mirror holds the links
    here = _met_first_here(root) if args.in_place and args.follow else None

    def files() -> Iterator[Document]:
        for item in walk([root], walking):
            if isinstance(item, Document) and item.kind != FILE:  # a failure, or a link a mirror holds
                yield item
                continue
            file = Document(item, FILE, path=item) if isinstance(item, str) else item  # a Maildir's: its index kept
            if here is not None and not here(file.name):
                continue
            counts.files += 1
            try:
                size = os.path.getsize(file.name)
            except OSError:
                size = 0
            yield file._replace(size=size)

    try:
        failed = _write_outcomes(_mapped(args, partial(rewrite_files, options=options), files()), None, progress, False)
    finally:
        progress.close()
    _summarize(args, progress, counts, stderr)
    return EXIT_SOME_FAILED if failed else EXIT_OK


def _met_first_here(root: str) -> Callable[[str], bool]:
    """For ``--in-place -L``: whether the file at *path*, met under *root* through symbolic links or not, is
    rewritten there. A file of the tree is rewritten once, under its own path, whose URL its links resolve against:
    met first through a link (``alias.html``, in name order), it took the link's URL, and under ``--jobs 2`` two
    workers rewrote it at once. A file outside the tree is rewritten under the first link met."""
    tree = os.path.realpath(root)
    outside: set[str] = set()

    def here(path: str) -> bool:
        real = os.path.realpath(path)
        if os.path.commonpath((tree, real)) == tree:
            return os.path.relpath(real, tree) == os.path.relpath(path, root)
        if real in outside:
            return False
        outside.add(real)
        return True

    return here


# -- HTML: absolutize -------------------------------------------------------------------------------------------------


def _check_base(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    if args.base is not None:
        from .uri.resolution import Base

        try:
            Base(args.base).resolve("")  # an absolute base: the HTML inputs resolve against it
        except ResolutionError as error:
            parser.error(f"--base: {error}")


def run_absolutize(args: argparse.Namespace, stdout: TextIO, stderr: IO[str]) -> int:
    from .batch.rewrite import absolutized, container, mail_absolutizer, rewrite_messages
    from .mail.mailbox import messages_after
    from .sources.inputs import is_mail

    if args.recursive:
        return _run_tree(args, "absolutize", stderr)
    out = None if args.in_place or args.output is not None else standard_output(stdout)
    failed = False
    for source in _inputs(args):
        try:
            if _is_maildir(source):
                if not args.in_place:
                    raise InputError(source.label, "a Maildir is rewritten with --in-place only (one file per message)")
                _rewrite_maildir(source, mail_absolutizer(args), args, stderr)
                continue
            with source.open_binary() as binary:
                opened = _in_place_status(source, binary) if args.in_place else None  # as the file replaced was read
                head = source.read(binary, SNIFF_SIZE)
                kind = container(head)
                if kind is not None:  # its records or its stream would be broken (a record's Content-Length)
                    raise InputError(source.label, f"{kind}; not rewritten")
                if is_mail(source.name, head):
                    messages = messages_after(head, binary, source.label)
                    warnings: list[str] = []
                    try:
                        if out is not None:
                            rewrite_messages(source, messages, mail_absolutizer(args), out, warnings)
                            continue
                        with replacing(Path(args.output or source.name), args.force, since=opened) as target:
                            changed = rewrite_messages(source, messages, mail_absolutizer(args), target.output,
                                                       warnings)
                            target.changed = args.output is not None or changed
                    finally:
                        _report(warnings, stderr)
                    continue
                data = head + source.read_held(binary, "an HTML document")
            if args.base is None:
                raise InputError(source.label, "an HTML document needs --base, its retrieval URL")
            result = absolutized(source, data, args.base, args.encoding)
            if out is not None:
                out.write(result)
                continue
            with replacing(Path(args.output or source.name), args.force, since=opened) as target:
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
    args.base_url = args.base
    _check_base(args, parser)
    _check_batch(args, parser)
    if args.recursive:
        _check_tree(args, parser)
        return
    _check_output_is_no_input(args, parser)
    names = _named(args)
    if args.base is None and any(not _mail_input(Input(name, None)) for name in names if name != STDIN):
        parser.error("--base is required for HTML inputs (messages and mailboxes may go without)")
    _check_in_place(args, parser, names)
    if args.output is not None and len(names) > 1:
        parser.error("-o/--output takes one input; use --in-place to absolutize several files")


def add_absolutize(commands: Subcommands) -> None:
    parser = commands.add_parser(
        "absolutize",
        help="make every link of an HTML document or of a message's HTML parts absolute, leaving every other byte",
    )
    _add_input_options(parser, "HTML files, messages, mboxes, Maildirs (standard input when none, or -); with -r "
                       "one folder, a site export")
    parser.add_argument(
        "--base", "--base-url", dest="base", metavar="URL",
        help="the retrieval URL of the document(s), required for HTML; for messages the last base (RFC 2557 5); "
        "with -r the URL of the folder, each file's own URL being its path under it",
    )
    _add_target_options(parser, "HTML file")
    parser.set_defaults(run=run_absolutize, check=_check_absolutize_usage, parser=parser)


# -- e-mail: rewrite and absolutize of messages and mailboxes ------------------------------------------------------


def _mail_input(source: Input) -> bool:
    """Whether a named input is a Maildir, a message or an mbox (its first bytes are read to tell); an input that
    cannot be read is left to the run, which reports it."""
    from .sources.inputs import is_mail

    if _is_maildir(source):
        return True
    try:
        with source.open_binary() as binary:
            return is_mail(source.name, source.read(binary, SNIFF_SIZE))
    except InputError:
        return True


def _is_maildir(source: Input) -> bool:
    from .mail.mailbox import is_maildir

    return source.name != STDIN and is_maildir(source.name)


def _rewrite_maildir(source: Input, transform: MailTransform, args: argparse.Namespace, stderr: IO[str]) -> None:
    """Rewrite each message file of a Maildir that changes, atomically (as --in-place writes any file); what was
    wrong with a message is reported on *stderr* as ``extract`` reports it."""
    from . import mail
    from .batch.rewrite import warned_into

    for message in mail.messages(source.name):
        assert message.path is not None  # a Maildir message is a file of its own
        warnings: list[str] = []
        try:
            new = transform(message.data, warned_into(warnings, message.path, message.index))
        except ValueError as error:
            raise InputError(message.path, str(error)) from None
        _report(warnings, stderr)
        if new != message.data:
            with replacing(Path(message.path), args.force) as target:
                target.output.write(message.replaced(new))  # compressed again as it was stored (Dovecot's zlib)
                target.changed = True


# -- main --------------------------------------------------------------------------------------------------------

COMMANDS: tuple[Callable[[Subcommands], None], ...] = (add_extract, add_rewrite, add_absolutize)


class _Version(argparse.Action):
    """``--version``, the package metadata read only when asked (reading it costs every run a few milliseconds)."""

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        from . import __version__

        try:
            print(f"{parser.prog} {__version__}")
        except BrokenPipeError:
            raise
        except OSError as error:  # a closed (>&-) or full standard output: an output error, as for every command
            parser.exit(EXIT_SOME_FAILED, f"linkkit: error: <stdout>: cannot write: {error.strerror or error}\n")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="linkkit", description=__doc__.split("\n\n")[0].replace("``", ""))
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
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


class _Terminated(Exception):
    """SIGTERM or SIGHUP, raised in the main process so that the run ends through its cleanups, as on Ctrl-C."""

    def __init__(self, signal_number: int) -> None:
        super().__init__(signal_number)
        self.signal_number = signal_number


def _raise_terminated(signal_number: int, _frame: object) -> None:
    raise _Terminated(signal_number)


@contextlib.contextmanager
def _terminable() -> Iterator[None]:
    """While a run lasts, SIGTERM and SIGHUP raise :class:`_Terminated` (the main thread only can take them); the
    previous handlers come back after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {number: signal.signal(number, _raise_terminated) for number in TERMINATING}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def main(argv: Iterable[str] | None = None) -> int:
    """Run the command line with *argv* (default ``sys.argv[1:]``) and return the exit status."""
    claim_standard_streams()
    args = _arguments(build_parser(), None if argv is None else list(argv))
    messages = cast(IO[str], Messages(sys.stderr))  # a text stream; typing's IO is no base class of io's
    try:
        with _terminable():
            return int(args.run(args, sys.stdout, messages))
    except _Terminated as stop:  # every temporary file removed and every worker ended on the way here
        return 128 + stop.signal_number
    except (OutputError, _ClusterError) as error:  # the output cannot be written, or no cluster to run on
        _error(str(error), messages)
        return EXIT_SOME_FAILED
    except BrokenPipeError:  # `linkkit extract big.txt | head -1`: the reader went away; stop quietly
        # Python flushes standard output at exit: into /dev/null, not into the closed pipe (Python docs, signal).
        # OSError, ValueError: standard output is not a file descriptor (embedded, captured): nothing to flush.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        return 130
