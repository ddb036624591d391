"""Files and folders as the user names them: recursion, ``--include``/``--exclude`` globs, symbolic links, lists
of names (``--files-from``, NUL-separated with ``-0``), standard input as ``-``; and binary files told and skipped
as ripgrep tells them (a NUL byte in the first 8 KiB)."""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import IO

from ..io import BOMS, NUL_IN_NAME, STDIN, is_temporary
from ..mail.mailbox import maildir_files
from .document import FILE, FOLDER, LINK, Document, Position, failure

# ripgrep's binary detection (its --binary default for searched files) looks for a NUL byte in what it reads
# first; GNU grep does the same over its first buffer. 8 KiB is git's figure (xdiff's buffer_is_binary).
BINARY_SNIFF = 8192


@dataclass(frozen=True, slots=True)
class WalkOptions:
    """How names become files: *recursive* descends into folders; *include* and *exclude* are globs matched
    against a file's name and its path under the folder named (an excluded folder is not entered; ``dir/`` matches
    folders only, ``/dir`` the top folder's: :func:`_matches`); *follow* follows symbolic links met while
    descending (a link named on the command line is always followed)."""

    recursive: bool = False
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    follow: bool = False
    # a symbolic link not followed is given as a LINK document, and a folder no file makes (an empty one, a Maildir's
    # tmp/) as a FOLDER document: a mirror of the tree holds them
    links: bool = False


def is_binary(head: bytes) -> bool:
    """A NUL byte in *head*, which does not start with a UTF-16 or UTF-32 byte order mark (whose text holds NULs)."""
    return b"\x00" in head and not any(head.startswith(bom) for bom, codec in BOMS if codec != "utf-8")


def _matches(globs: tuple[str, ...], name: str, relative: str, folder: bool) -> bool:
    """Whether a glob matches the entry *name* at *relative* (its path under the folder named): its name or that
    path, as .gitignore patterns read (and ripgrep's globs): a glob ending in ``/`` matches a *folder* only, one
    starting with ``/`` the path only (``/build`` is the top folder's ``build``, not a ``build`` deeper down)."""
    for glob in globs:
        if glob.endswith("/"):
            if not folder:
                continue
            glob = glob.rstrip("/")
        if glob.startswith("/"):
            if _pattern(glob.lstrip("/")).fullmatch(relative):
                return True
        elif (pattern := _pattern(glob)).fullmatch(name) or pattern.fullmatch(relative):
            return True
    return False


_BRACES = re.compile(r"\{([^{}]*)\}")  # ripgrep's (globset's) alternation, {a,b}: one level, no nesting


@cache
def _pattern(glob: str) -> re.Pattern[str]:
    """*glob* as a regular expression, each ``{a,b}`` as either alternative (ripgrep's globs)."""
    braces = _BRACES.search(glob)
    if braces is None:
        return re.compile(_translated(glob))
    head, tail = glob[: braces.start()], glob[braces.end() :]
    return re.compile("|".join(f"(?:{_translated(head + choice + tail)})" for choice in braces.group(1).split(",")))


def _translated(glob: str) -> str:
    """*glob* as .gitignore reads it (and ripgrep, whose globs match a separator literally), as a regular expression:
    ``*``, ``?`` and ``[...]`` match within one name, never ``/`` ("an asterisk matches anything except a slash");
    ``**`` as a whole segment matches any number of folders, none too (``**/a``, ``a/**/b``; ``a/**`` all inside
    ``a``); a ``**`` inside a name (``a**b``) is a plain ``*``."""
    pieces: list[str] = []
    at, end = 0, len(glob)
    while at < end:
        char = glob[at]
        if char == "*":
            stars = end - at - len(glob[at:].lstrip("*"))
            whole = stars == 2 and (at == 0 or glob[at - 1] == "/")
            if whole and at + 2 == end:
                pieces.append(".*")
            elif whole and glob[at + 2] == "/":
                pieces.append("(?:.*/)?")
                stars += 1
            else:
                pieces.append("[^/]*")
            at += stars
        elif char == "?":
            pieces.append("[^/]")
            at += 1
        elif char == "[" and (close := _bracket_end(glob, at)) is not None:
            pieces.append(_bracket(glob[at + 1 : close]))
            at = close + 1
        else:
            pieces.append(re.escape(char))
            at += 1
    return "".join(pieces)


def _bracket_end(glob: str, start: int) -> int | None:
    """Where the bracket expression opened at *start* closes (a ``]`` first, after a ``!``, is one of its
    characters, as fnmatch reads it), or None: a ``[`` never closed is itself."""
    at = start + 1
    if glob.startswith(("!", "^"), at):
        at += 1
    if glob.startswith("]", at):
        at += 1
    close = glob.find("]", at)
    return None if close < 0 else close


def _bracket(inside: str) -> str:
    """A bracket expression's characters (``!`` or ``^`` first negates them; ``a-z`` ranges, one written backwards
    holding none, as fnmatch reads it) as a class of one character that is never ``/``; every character escaped in
    the class, so that no glob is a pattern error."""
    negated = inside.startswith(("!", "^"))
    chars, members, at = inside[negated:], [], 0
    while at < len(chars):
        if at + 2 < len(chars) and chars[at + 1] == "-":
            if chars[at] <= chars[at + 2]:
                members.append(f"{_in_class(chars[at])}-{_in_class(chars[at + 2])}")
            at += 3
        else:
            members.append(_in_class(chars[at]))
            at += 1
    if negated:
        return f"[^/{''.join(members)}]"
    return f"(?!/)[{''.join(members)}]" if members else "(?!)"


def _in_class(char: str) -> str:
    """*char* written inside a regular expression's character class: escaped when it could mean more there."""
    return "\\" + char if char in "\\[]^-&~|" else char


def _included(globs: tuple[str, ...], name: str, relative: str) -> bool:
    """Whether an ``--include`` glob takes the file *name* at *relative*: a glob of files matches it, a glob of
    folders (``docs/``) matches a folder it lies under."""
    if _matches(globs, name, relative, folder=False):
        return True
    folders = relative.split("/")[:-1]
    return any(_matches(globs, folder, "/".join(folders[: depth + 1]), folder=True)
               for depth, folder in enumerate(folders))


def _is_folder(entry: os.DirEntry[str], follow: bool) -> bool:
    """Whether *entry* is a folder to descend into (a symbolic link to one only when *follow*); an entry that cannot
    be asked is none (its reading reports why)."""
    try:
        return entry.is_dir(follow_symlinks=follow)
    except OSError:
        return False


def names_from(stream: IO[bytes], *, null: bool) -> Iterator[str]:
    """The names a ``--files-from`` list holds: one a line, or NUL-separated (``-0``, as ``find -print0`` writes
    them); empty entries are skipped. Names are file-system bytes (PEP 383)."""
    separator = b"\0" if null else b"\n"
    pending = b""
    while chunk := stream.read(1 << 16):
        pending += chunk
        *complete, pending = pending.split(separator)
        for raw in complete:
            yield from _name(raw, null)
    yield from _name(pending, null)


def _name(raw: bytes, null: bool) -> Iterator[str]:
    if not null:
        raw = raw.rstrip(b"\r")
    if raw:
        yield os.fsdecode(raw)


def open_list(name: str) -> IO[bytes]:
    return sys.stdin.buffer if name == STDIN else open(name, "rb")


def walk(names: Iterable[str], options: WalkOptions) -> Iterator[str | Document]:
    """The files *names* stand for, in order (a folder's entries sorted by name, so every run lists the same
    order), or a failure document for a name that cannot be listed. A folder is yielded as itself when not
    *recursive* (it may be a Maildir); ``-`` is standard input. A Maildir met while descending gives its message
    files as :func:`maildir_file` documents, numbered as when it is named, its ``tmp/`` passed over."""
    for name in names:
        if name == STDIN or not options.recursive:
            yield name
            continue
        try:
            status = os.stat(name)
        except OSError as error:
            yield failure(name, error.strerror or str(error))
            continue
        except ValueError:  # a NUL byte in a --files-from name: os.stat refuses it
            yield failure(name, NUL_IN_NAME)
            continue
        if not stat.S_ISDIR(status.st_mode):
            yield name
            continue
        yield from _descend(name, "", options, {(status.st_dev, status.st_ino)})


def _descend(folder: str, relative: str, options: WalkOptions, seen: set[tuple[int, int]],
             messages: dict[str, int] | None = None) -> Iterator[str | Document]:
    """The files under *folder* (at *relative* under the folder named); *messages* the index of each message file
    when *folder* is a Maildir's ``cur/`` or ``new/``, which holds nothing else to read."""
    try:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
    except OSError as error:
        yield failure(folder, error.strerror or str(error))
        return
    if not entries and options.links and relative:  # an empty folder under the one named
        yield Document(folder, FOLDER, path=folder)
    globs = bool(options.exclude or options.include)
    maildir = _maildir_messages(folder, entries)
    for entry in entries:
        path = entry.path  # the folder's path joined with the entry's name, as os.path.join would
        if maildir is not None and entry.name == "tmp":  # messages still being delivered, which a reader leaves alone
            if options.links:  # a Maildir holds its tmp/ (the Maildir specification), a mirror too
                yield Document(path, FOLDER, path=path)
            continue
        if messages is not None and path not in messages:
            continue  # in a Maildir's cur/ or new/, a dot file or a folder is no message
        if is_temporary(entry.name):  # a rewrite's temporary file (a killed run's leftover): no input of the user's
            continue
        rel = f"{relative}{entry.name}" if globs else ""
        if options.exclude and _matches(options.exclude, entry.name, rel, _is_folder(entry, options.follow)):
            continue
        try:
            is_link = entry.is_symlink()
            if is_link and not options.follow:  # not followed unless asked (ripgrep -L, find -L)
                if options.links and not (options.include and not _included(options.include, entry.name, rel)):
                    yield Document(path, LINK, path=path)
                continue
            if entry.is_dir(follow_symlinks=options.follow):
                status = entry.stat(follow_symlinks=True)
                key = (status.st_dev, status.st_ino)
                if key in seen:  # a link back up the tree
                    continue
                within = maildir if maildir is not None and entry.name in _MAILDIR_MESSAGES else None
                yield from _descend(path, rel + "/", options, seen | {key}, within)
                continue
            # sockets, FIFOs and devices met while descending are not files to read (GNU grep -r's -D skip), through
            # a followed link too: opening a FIFO waits for a writer for ever; a broken link raises (it cannot be read)
            if is_link:
                if not stat.S_ISREG(entry.stat(follow_symlinks=True).st_mode):
                    continue
            elif not entry.is_file(follow_symlinks=False):  # told by the listing's file type: no stat
                continue
        except OSError as error:
            yield failure(path, error.strerror or str(error))
            continue
        if options.include and not _included(options.include, entry.name, rel):
            continue
        yield path if messages is None else maildir_file(path, messages[path])


_MAILDIR_MESSAGES = ("cur", "new")  # the folders that hold a Maildir's messages (the Maildir specification)


def _maildir_messages(folder: str, entries: list[os.DirEntry[str]]) -> dict[str, int] | None:
    """When *folder* (listed as *entries*) is a Maildir, the index of each of its message files, as
    :func:`linkkit.mail.messages` numbers them; else None. A folder met under ``-r`` is one when it holds a ``cur/``
    folder, as mutt and Dovecot tell one: a site or a project may hold a ``new/`` or ``tmp/`` folder, whose files
    are no messages."""
    if not any(entry.name == "cur" and _is_folder(entry, True) for entry in entries):
        return None
    return {path: index for index, path in enumerate(maildir_files(folder))}


def maildir_file(path: str, index: int) -> Document:
    """Message *index* of a Maildir, its file *path*, to be read as that message (:func:`linkkit.mail.messages`
    reads it so when the Maildir is named): the same records whether the Maildir is named or met under ``-r``."""
    return Document(path, FILE, path=path, position=Position(message=index))


def retrieval_url(base_url: str, root: str, path: str) -> str:
    """The URL *path* was retrieved from, when *root* was retrieved from *base_url* (a folder: a missing final
    ``/`` is added): its path under the root, each segment percent-encoded (RFC 3986 2.1, 3.3), after ``./`` so
    that a first segment holding ":" (``a:b.html``) is no scheme (RFC 3986 4.2). What ``absolutize -r`` gives each
    file of a site export, and ``extract -r --base`` each file met under a folder named."""
    import urllib.parse
    from pathlib import Path

    from ..uri.resolution import Base  # the URI core, loaded by the first file given a retrieval URL

    relative = Path(os.path.relpath(path, root)).as_posix()
    segments = [urllib.parse.quote(os.fsencode(segment), safe="!$&'()*+,;=:@~") for segment in relative.split("/")]
    return Base(folder_url(base_url)).resolve("./" + "/".join(segments) if relative != "." else "")


def folder_url(base_url: str) -> str:
    """The URL of the folder *base_url* names: its path ending in ``/`` (one is added) and no query or fragment,
    which name no file under it (``https://site.example/sub?lang=en`` is ``https://site.example/sub/``: the
    ``/`` was added after the query, and every file resolved against ``/``)."""
    from ..uri.model import compose, parse

    folder = parse(base_url)._replace(query=None, fragment=None)
    return compose(folder if folder.path.endswith("/") else folder._replace(path=folder.path + "/"))


__all__ = [
    "BINARY_SNIFF", "WalkOptions", "folder_url", "is_binary", "maildir_file", "names_from", "open_list",
    "retrieval_url", "walk",
]
