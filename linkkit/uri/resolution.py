"""Reference resolution: RFC 3986 section 5.2, transcribed step by step."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import cast

from ..errors import ResolutionError
from .model import (
    APPENDIX_B_AUTHORITY,
    APPENDIX_B_PATH,
    APPENDIX_B_SCHEME,
    Components,
    URIReference,
    _match_appendix_b,
    recompose,
    split,
)

# An absolute base (RFC 3986 5.1) up to the end of its path, split by appendix B: groups 1-3 are its scheme,
# authority and path. None for a base without a scheme.
_match_absolute_base = re.compile(f"{APPENDIX_B_SCHEME}(?:{APPENDIX_B_AUTHORITY})?{APPENDIX_B_PATH}").match
# Two expressions that match every string (typed so): the leading "." and ".." segments of a relative path
# (RFC 3986 5.2.4 A-D), each ended by "/" or by the path's end; the path of a reference without scheme or
# authority, appendix B's path expression from the start.
_match_dot_segments = cast(Callable[..., re.Match[str]], re.compile(r"(?:\.\.?(?:/|\Z))*+").match)
_match_path = cast(Callable[[str], re.Match[str]], re.compile(APPENDIX_B_PATH).match)


def remove_dot_segments(path: str) -> str:
    """RFC 3986 5.2.4: interpret and remove the "." and ".." segments of *path*.

    The buffer-moving loop of 5.2.4 works here on the list of segments; the tests check it against a literal
    transcription of the RFC's steps on every short path.
    """
    try:
        if "." not in path:  # no segment can be "." or ".."
            return path
    except TypeError:  # the test said "argument of type 'NoneType' is not iterable", or for bytes the reverse
        raise TypeError(f"remove_dot_segments() takes a str, not {type(path).__name__}") from None
    segments = path.split("/")
    if not segments[0]:
        # An absolute path: each segment moves to the output (2E), "." vanishes (2B), ".." removes the last
        # output segment (2C), and a final "." or ".." leaves a trailing "/" (2B, 2C at the end of the input).
        output: list[str] = []
        for segment in segments[1:]:
            if segment == "..":
                if output:
                    output.pop()
            elif segment != ".":
                output.append(segment)
        if segments[-1] == "." or segments[-1] == "..":
            output.append("")
        return "/" + "/".join(output)
    return _remove_dot_segments_rootless(segments)


def _remove_dot_segments_rootless(segments: list[str]) -> str:
    # A rootless path: its first segment carries no "/", so 2C may leave the output starting with one.
    last = len(segments) - 1
    first = segments[0]
    i = 1
    # 2A, 2D: leading "." and ".." segments of a rootless path vanish, with the "/" that follows them.
    while first == "." or first == "..":
        if i > last:
            return ""
        first = segments[i]
        i += 1
    output = [first] if first else []
    for j in range(i, last + 1):
        segment = segments[j]
        if segment == ".":  # 2B: "/./" becomes "/"; a final "/." leaves "/"
            if j == last:
                output.append("/")
        elif segment == "..":  # 2C: "/../" becomes "/" and the last output segment goes, with its "/"
            if output:
                output.pop()
            if j == last:
                output.append("/")
        else:  # 2E: the segment moves to the output with its initial "/"
            output.append("/" + segment)
    return "".join(output)


def merge(base_authority: str | None, base_path: str, reference_path: str) -> str:
    """RFC 3986 5.2.3: merge a relative-path reference with the base path."""
    if base_authority is not None and base_path == "":
        return "/" + reference_path
    return base_path[: base_path.rfind("/") + 1] + reference_path


def _remove_leading_dots(merged: str, boundary: int) -> str:
    """remove_dot_segments(merged) where merged[boundary:] is a reference path that starts with dot segments.

    The common "../g" and "./g": when the base directory merged[:boundary] is absolute and clean, the result is
    that directory climbed once per ".." (5.2.4 C) plus the rest of the reference; otherwise the full 5.2.4.
    """
    if merged[:1] != "/" or merged.find("/.", 0, boundary) != -1:
        return remove_dot_segments(merged)
    at = _match_dot_segments(merged, boundary).end()
    if merged.find("/.", at) != -1:  # a dot segment further on: the full 5.2.4
        return remove_dot_segments(merged)
    return merged[: _climb(merged, 0, boundary, merged.count("..", boundary, at))] + merged[at:]


def _climb(text: str, root: int, top: int, levels: int) -> int:
    """Where the clean absolute directory text[root:top] (ending in "/") ends after *levels* ".." segments.

    RFC 3986 5.2.4 C: each ".." removes the last segment of the output; above "/" there is nothing to remove.
    The levels are counted, not sliced off the reference, so a reference of n "../" costs O(n).
    """
    for _ in range(levels):
        if top - root <= 1:
            break
        top = text.rfind("/", root, top - 1) + 1
    return top


def _components(value: str | URIReference, takes: str) -> Components:
    """The five components of *value*; anything else is a TypeError that says what the argument *takes*, naming the
    function and the argument (``"resolve(): the reference takes a str or URIReference"``)."""
    if isinstance(value, URIReference):
        return value
    if isinstance(value, str):
        return split(value)
    raise TypeError(f"{takes}, not {type(value).__name__}")


class Base:
    """A base URI split once (RFC 3986 5.2.1), for resolving the many references of one document against it.

    A value, not a cache: a caller that resolves many references against one base holds one ``Base``, and
    nothing is carried from one call of :func:`resolve` to the next.  Immutable (what it resolves against is the
    split it was made with), equal to a Base of the same components and hashed by them.

    >>> base = Base("http://a/b/c/d;p?q")
    >>> base.resolve("../g"), resolve(base, "g;x")
    ('http://a/b/g', 'http://a/b/c/g;x')
    """

    __slots__ = ("_absolute", "components", "uri")
    components: Components
    uri: str
    # The base read in place by resolve(), when it is absolute and its string splits back into its components
    # (a URIReference built by hand may hold a "?" in its path: it is resolved from its components instead).
    _absolute: re.Match[str] | None

    def __init__(self, base: str | URIReference) -> None:
        components = _components(base, "Base() takes a str or URIReference")
        uri = recompose(*components)
        set_slot = object.__setattr__
        set_slot(self, "components", components)
        set_slot(self, "uri", uri)
        set_slot(self, "_absolute", _match_absolute_base(uri) if split(uri) == components else None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Base is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Base is immutable: cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Base):
            return NotImplemented
        return self.components == other.components

    def __hash__(self) -> int:
        return hash(self.components)

    def __reduce__(self) -> tuple[type[Base], tuple[URIReference]]:
        # A match does not pickle: the base is rebuilt from its components.
        return Base, (URIReference._make(self.components),)

    def resolve(self, reference: str | URIReference, *, strict: bool = True) -> str:
        """*reference* resolved against this base: :func:`resolve`."""
        return resolve(self, reference, strict=strict)

    def __repr__(self) -> str:
        return f"Base({self.uri!r})"

    def __str__(self) -> str:
        return self.uri


def resolve(base: str | URIReference | Base, reference: str | URIReference, *, strict: bool = True) -> str:
    """Resolve *reference* against *base* (RFC 3986 5.2.2) and return the target URI, recomposed (5.3).

    *base* (a string, a URIReference, or a :class:`Base` that holds it split for many calls) must be absolute
    (have a scheme, 5.1) whenever the reference lacks a scheme of its own, else ResolutionError; its fragment is
    ignored and it is never normalized. ``strict=False`` is the backward-compatible reading of 5.2.2 / 5.4.2: a
    scheme equal to the base's (compared case-insensitively) is dropped, so ``http:g`` against an http base is ``http://a/b/c/g``.

    >>> resolve("http://a/b/c/d;p?q", "../g")
    'http://a/b/g'
    """
    if type(reference) is str and ":" not in reference:
        # No ":", so no scheme (appendix B): the base is used, and read in place when it is absolute.
        if type(base) is str:
            absolute = _match_absolute_base(base)
        elif type(base) is Base:
            absolute = base._absolute
        else:
            absolute = None
        if absolute is not None:
            return _resolve_in_place(absolute, reference)
    if type(reference) is str:  # split by RFC 3986 appendix B, whose expression matches every string
        r_scheme, authority, path, query, fragment = _match_appendix_b(reference).groups()  # type: ignore[union-attr]
    else:
        r_scheme, authority, path, query, fragment = _components(
            reference, "resolve(): the reference takes a str or URIReference"
        )
    if r_scheme is not None:
        # 5.2.2: "A non-strict parser may ignore a scheme in the reference if it is identical to the base URI's
        # scheme" (compared case-insensitively, 3.1).
        if not strict and r_scheme.lower() == (_base_components(base)[0] or "").lower():
            r_scheme = None
        else:
            # 5.2.2: T.scheme = R.scheme; T.authority = R.authority; T.path = remove_dot_segments(R.path);
            # T.query = R.query. The base is not consulted, so it need not be absolute here.
            if "/." in path or path[:1] == ".":
                path = remove_dot_segments(path)
            elif type(reference) is str:
                return reference  # 5.3 recomposes a split string as it was
            return recompose(r_scheme, authority, path, query, fragment)
    # 5.2.1: the base fragment is unused
    if type(base) is str:
        b_scheme, b_authority, b_path, b_query, _ = _match_appendix_b(base).groups()  # type: ignore[union-attr]
    elif type(base) is Base:
        b_scheme, b_authority, b_path, b_query, _ = base.components
    else:
        b_scheme, b_authority, b_path, b_query, _ = _base_components(base)
    if b_scheme is None:
        raise ResolutionError(
            f"cannot resolve {str(reference)!r}: base URI {str(base)!r} is not absolute, it has no scheme"
            " (RFC 3986 5.1, 5.2.1)"
        )
    if authority is not None:
        # 5.2.2: T.authority = R.authority; T.path = remove_dot_segments(R.path); T.query = R.query
        if "/." in path:
            path = remove_dot_segments(path)
    else:
        authority = b_authority
        if path == "":
            # 5.2.2: T.path = Base.path; T.query = R.query if defined, else Base.query
            path = b_path
            if query is None:
                query = b_query
        elif path[0] == "/":
            # 5.2.2: T.path = remove_dot_segments(R.path)
            if "/." in path:
                path = remove_dot_segments(path)
        else:
            # 5.2.2: T.path = merge(Base.path, R.path); T.path = remove_dot_segments(T.path)
            # 5.2.3, merge() inlined
            merged = "/" + path if b_authority is not None and b_path == "" else b_path[: b_path.rfind("/") + 1] + path
            if path[0] == ".":
                path = _remove_leading_dots(merged, len(merged) - len(path))
            elif "/." in merged or merged[:1] == ".":
                path = remove_dot_segments(merged)
            else:
                path = merged

    # 5.3, recompose() inlined (T.fragment = R.fragment); a base with a scheme
    result = b_scheme + ":" + path if authority is None else b_scheme + "://" + authority + path
    if query is not None:
        result += "?" + query
    if fragment is not None:
        result += "#" + fragment
    return result


def _resolve_in_place(absolute: re.Match[str], reference: str) -> str:
    """*reference*, which has no scheme, resolved against the base that *absolute* matched (RFC 3986 5.2.2).

    The target is a slice of the base followed by the reference as written, its path through 5.2.4 only where
    it has dot segments: no split of the reference, no recomposition (5.3) of the target.
    """
    uri = absolute.string
    start, end = absolute.span(3)  # the base path
    first = reference[:1]
    if first == "#" or first == "":
        # 5.2.2: T.path = Base.path; T.query = Base.query; T.fragment = R.fragment
        cut = uri.find("#", end)
        return (uri if cut < 0 else uri[:cut]) + reference
    if first == "?":
        # 5.2.2: T.path = Base.path; T.query = R.query
        return uri[:end] + reference
    if first == "/":
        if reference[1:2] == "/":
            # 5.2.2: T.authority = R.authority; T.path = remove_dot_segments(R.path)
            scheme = uri[: absolute.end(1) + 1]
            if "/." not in reference:
                return scheme + reference
            _, authority, path, query, fragment = split(reference)
            return scheme + recompose(None, authority, remove_dot_segments(path), query, fragment)
        directory = start  # 5.2.2: T.path = remove_dot_segments(R.path)
    else:
        # 5.2.3: merge, the base path up to its last "/"; an empty path under an authority reads as "/"
        slash = uri.rfind("/", start, end)
        if slash < 0 and absolute.start(2) >= 0:
            uri, slash = uri[:start] + "/", start
        directory = slash + 1 if slash >= 0 else start
    # the merged path is uri[start:directory] + the reference's path: 5.2.4 on it
    clean = directory == start or (uri.find("/.", start, directory) == -1 and uri[start] != ".")
    if clean and first != "." and "/." not in reference:  # no dot segment to remove
        return uri[:directory] + reference
    path_end = _match_path(reference).end() if "?" in reference or "#" in reference else len(reference)
    if clean and first == "." and uri[start:start + 1] == "/":
        # 5.2.4 A-D on the reference's leading dot segments, C climbing the base directory
        at = _match_dot_segments(reference, 0, path_end).end()
        if reference.find("/.", at, path_end) == -1:
            return uri[: _climb(uri, start, directory, reference.count("..", 0, at))] + reference[at:]
    return uri[:start] + remove_dot_segments(uri[start:directory] + reference[:path_end]) + reference[path_end:]


def _base_components(base: str | URIReference | Base) -> Components:
    """The five components of *base*."""
    if isinstance(base, Base):
        return base.components
    return _components(base, "resolve(): the base takes a str, URIReference or Base")
