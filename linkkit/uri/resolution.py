"""Reference resolution: RFC 3986 section 5.2, transcribed step by step."""

from __future__ import annotations

from ..errors import ResolutionError
from .model import Components, URIReference, _match_appendix_b, recompose, split


def remove_dot_segments(path: str) -> str:
    """RFC 3986 5.2.4: interpret and remove the "." and ".." segments of *path*.

    The buffer-moving loop of 5.2.4 works here on the list of segments; the tests check it against a literal
    transcription of the RFC's steps on every short path.
    """
    if "." not in path:  # no segment can be "." or ".."
        return path
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
    Both ends move as indexes into *merged*, never as slices, so a reference of n "../" costs O(n).
    """
    if merged[:1] != "/" or merged.find("/.", 0, boundary) != -1:
        return remove_dot_segments(merged)
    top = at = boundary  # the directory is merged[:top], the rest of the reference merged[at:]
    size = len(merged)
    while merged.startswith(".", at):  # a "." or ".." segment, ended by "/" or by the end
        if merged.startswith("..", at) and (at + 2 == size or merged.startswith("/", at + 2)):
            at += 3
            if top > 1:  # the directory is not "/": climb to its parent
                top = merged.rfind("/", 0, top - 1) + 1
        elif at + 1 == size or merged.startswith("/", at + 1):
            at += 2
        else:
            break
    if merged.find("/.", at) != -1:  # a dot segment further on: the full 5.2.4
        return remove_dot_segments(merged)
    return merged[:top] + merged[at:]


def _components(value: str | URIReference) -> Components:
    if isinstance(value, URIReference):
        return value
    if isinstance(value, str):
        return split(value)
    raise TypeError(f"expected a str or URIReference, not {type(value).__name__}")


class Base:
    """A base URI split once (RFC 3986 5.2.1), for resolving the many references of one document against it.

    A value, not a cache: a caller that resolves many references against one base holds one ``Base``, and
    nothing is carried from one call of :func:`resolve` to the next.

    >>> base = Base("http://a/b/c/d;p?q")
    >>> base.resolve("../g"), resolve(base, "g;x")
    ('http://a/b/g', 'http://a/b/c/g;x')
    """

    __slots__ = ("components", "uri")

    def __init__(self, base: str | URIReference) -> None:
        self.components: Components = _components(base)
        self.uri: str = recompose(*self.components)

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
    if type(reference) is str:  # the hot path: split by RFC 3986 appendix B, whose expression matches every string
        r_scheme, authority, path, query, fragment = _match_appendix_b(reference).groups()  # type: ignore[union-attr]
    else:
        r_scheme, authority, path, query, fragment = _components(reference)
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
            return recompose(r_scheme, authority, path, query, fragment)
    # 5.2.1: the base fragment is unused
    if type(base) is str:
        b_scheme, b_authority, b_path, b_query, _ = _match_appendix_b(base).groups()  # type: ignore[union-attr]
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


def _base_components(base: str | URIReference | Base) -> Components:
    """The five components of *base*."""
    if isinstance(base, Base):
        return base.components
    return _components(base)
