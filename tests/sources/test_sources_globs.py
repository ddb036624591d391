"""``--include`` and ``--exclude`` globs (linkkit.sources.files.walk), as .gitignore patterns and ripgrep's globs read
them: a glob matches a file's or folder's name or its path under the folder named; a trailing ``/`` makes it match
folders only, a leading ``/`` anchors it to the folder named. ``*``, ``?`` and ``[...]`` match within one name,
never ``/`` (gitignore: "an asterisk matches anything except a slash"; ripgrep alike); ``**/`` matches any number
of folders, zero too, and ``{a,b}`` either alternative."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from linkkit.sources.files import WalkOptions, walk

FILES = ("a.txt", "build/b.txt", "docs/build/c.txt", "docs/d.html", "docs/deep/e.txt", "build.txt")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for name in FILES:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(name)
    return tmp_path


@pytest.mark.parametrize(("include", "exclude", "expected"), [
    ((), ("build",), ["a.txt", "build.txt", "docs/d.html", "docs/deep/e.txt"]),  # a name anywhere
    ((), ("build/",), ["a.txt", "build.txt", "docs/d.html", "docs/deep/e.txt"]),  # folders named so, anywhere
    ((), ("/build",), ["a.txt", "build.txt", "docs/build/c.txt", "docs/d.html", "docs/deep/e.txt"]),  # the top one
    ((), ("/build/",), ["a.txt", "build.txt", "docs/build/c.txt", "docs/d.html", "docs/deep/e.txt"]),
    ((), ("build.txt/",), sorted(FILES)),  # a folder glob never takes a file
    ((), ("docs/*",), ["a.txt", "build.txt", "build/b.txt"]),  # a path under the folder named
    ((), ("/docs/build",), ["a.txt", "build.txt", "build/b.txt", "docs/d.html", "docs/deep/e.txt"]),
    (("*.txt",), (), ["a.txt", "build.txt", "build/b.txt", "docs/build/c.txt", "docs/deep/e.txt"]),
    (("docs/",), (), ["docs/build/c.txt", "docs/d.html", "docs/deep/e.txt"]),  # what lies under such a folder
    (("deep/",), (), ["docs/deep/e.txt"]),
    (("/build/",), (), ["build/b.txt"]),
    (("/docs/build/",), (), ["docs/build/c.txt"]),
    (("/build*",), (), ["build.txt", "build/b.txt"]),  # anchored: build.txt, and what lies under the folder build
    # "*" never crosses "/": one folder deep only, and the top folder's own texts only
    (("*/*.txt",), (), ["build/b.txt"]),
    ((), ("/*.txt",), ["build/b.txt", "docs/build/c.txt", "docs/d.html", "docs/deep/e.txt"]),
    (("docs/[a-c]*/*.txt",), (), ["docs/build/c.txt"]),
    (("[!ab]*.txt",), (), ["docs/build/c.txt", "docs/deep/e.txt"]),
    # a range written backwards holds nothing, as fnmatch reads it; "&&" is two characters (no glob is an error)
    (("[z-a]*", "[!z-a].txt"), (), ["a.txt", "build/b.txt", "docs/build/c.txt", "docs/deep/e.txt"]),
    ((), ("[&&b]*",), ["a.txt", "docs/d.html", "docs/deep/e.txt"]),
    (("*.txt",), ("docs/",), ["a.txt", "build.txt", "build/b.txt"]),
    # "**/" matches zero folders too (gitignore: "**/foo" is "foo" anywhere; "a/**/b" matches "a/b")
    (("**/*.txt",), (), ["a.txt", "build.txt", "build/b.txt", "docs/build/c.txt", "docs/deep/e.txt"]),
    (("/**/a.txt",), (), ["a.txt"]),
    (("docs/**/c.txt",), (), ["docs/build/c.txt"]),
    (("docs/**/build/**/c.txt",), (), ["docs/build/c.txt"]),
    ((), ("**/build/",), ["a.txt", "build.txt", "docs/d.html", "docs/deep/e.txt"]),
    (("docs/**/d.html",), (), ["docs/d.html"]),
    # {a,b}: either alternative, as ripgrep's globs read it
    (("*.{html,md}",), (), ["docs/d.html"]),
    (("{build,deep}/",), (), ["build/b.txt", "docs/build/c.txt", "docs/deep/e.txt"]),
    ((), ("{docs,build}/",), ["a.txt", "build.txt"]),
], ids=lambda value: " ".join(value) if isinstance(value, tuple) else None)
def test_globs_read_as_gitignore_patterns(
    tree: Path, include: tuple[str, ...], exclude: tuple[str, ...], expected: list[str]
) -> None:
    found = walk([str(tree)], WalkOptions(recursive=True, include=include, exclude=exclude))
    assert sorted(Path(os.path.relpath(str(path), tree)).as_posix() for path in found) == expected
