"""The scheme-specific parts of RFC 1738 (section 3 and the BNF of section 5), read as typed records.

    >>> scheme_specific("ftp://myname@host.dom/%2Fetc/motd;type=a")
    FTP(host='host.dom', port=None, user='myname', password=None, segments=('/etc', 'motd'), typecode='a')

``scheme_specific(uri)`` splits *uri* with :func:`linkkit.parse` and hands it to the reader a table holds for
its scheme. Each record says in its docstring which fields are percent-decoded: RFC 1738 decodes a
field before use unless its reserved characters carry meaning there (2.2), so an http path or search stays as
written while an ftp segment or a gopher selector is decoded. A fragment is not part of an RFC 1738 URL and is
ignored. Characters are read where the BNF or the section's text gives them structure (";type=", "%09", ports,
groups, article numbers, the ":" and "@" of a login, the tab, LF and CR a Gopher selector cannot hold), every "%"
must start a triplet, and a URL whose structure reads is still an error at a character RFC 3986's grammar refuses
(2.2: unsafe and non-ASCII octets are encoded); the RFC 3986 repertoire (``~`` included) is accepted.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar

from ..errors import URISyntaxError
from .charset import ALPHA, DIGIT, PCT_ENCODED, REG_NAME_CHARS, always_match, char_class, pct_run
from .model import URIReference, compose, parse, split_authority
from .percent import percent_decode
from .schemes import SCHEMES, default_port
from .validation import validate

# RFC 1738 5: escape = "%" hex hex -- RFC 3986 2.1 pct-encoded
_PCT_TRIPLET = re.compile(PCT_ENCODED)
# RFC 1738 5: port = digits
_DIGITS = re.compile(f"{char_class(DIGIT)}+")
# RFC 1738 5: group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]
_GROUP = re.compile(f"{char_class(ALPHA)}{char_class(ALPHA + DIGIT + '-.+_')}*")
# RFC 1738 5: ftptype = "A" | "I" | "D" | "a" | "i" | "d"
_FTP_TYPE = re.compile(r";type=([AIDaid])\Z")
# RFC 1738 2.2: "<" and ">" are unsafe, the delimiters of URLs in free text; a news: message-id goes without them.
_ANGLE_BRACKET = re.compile("[<>]")
# RFC 1738 5: article = 1*[ ... ] "@" host; a host in a path is an IPv4address or a reg-name (RFC 3986 3.2.2: an
# IP-literal's "[" is no pchar), both *( unreserved / pct-encoded / sub-delims ), so no ":", "/" or "?"
_ARTICLE_HOST = re.compile(pct_run(REG_NAME_CHARS))
# RFC 1738 3.1: "Within the user and password field, any ":", "@", or "/" must be encoded" (an authority holds no
# "/", and its first ":" and last "@" are the login's own delimiters).
_LOGIN_DELIMITER = re.compile("[:@]")
# RFC 1738 3.4.1: a Gopher selector string holds any octet "except 09 hexadecimal (US-ASCII HT or tab) 0A
# hexadecimal (US-ASCII character LF), and 0D (US-ASCII character CR)", written or encoded (an encoded tab, "%09",
# already ends the selector).
_NOT_IN_SELECTOR = re.compile("%0[ADad]|[\t\n\r]")
_RULE_ARTICLE = 'article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host (RFC 1738 5)'
_RULE_IP_SCHEMEPART = 'ip-schemepart = "//" login [ "/" urlpath ] (RFC 1738 3.1)'


@dataclass(frozen=True, slots=True)
class Server:
    """A host and port by RFC 1738 3.1; ``port`` is None when absent, ``effective_port`` falls back to the default."""

    scheme: ClassVar[str]
    host: str
    port: int | None

    @property
    def effective_port(self) -> int | None:
        """The port written, else the scheme's default port (RFC 1738 3)."""
        return self.port if self.port is not None else default_port(self.scheme)


@dataclass(frozen=True, slots=True)
class FTP(Server):
    """``ftp://user:password@host:port/cwd1/.../name;type=X`` (RFC 1738 3.2).

    ``user``, ``password`` and every segment are percent-decoded (3.2.2: "/" and ";" inside them arrive
    encoded and are decoded before use). ``typecode`` is "a", "i" or "d" (lower-cased), or None.
    """

    scheme: ClassVar[str] = "ftp"
    user: str | None
    password: str | None
    segments: tuple[str, ...]
    typecode: str | None

    @property
    def cwd(self) -> tuple[str, ...]:
        """The directories to change into, one CWD command each (3.2.2)."""
        return self.segments[:-1]

    @property
    def name(self) -> str:
        """The file or directory name, the last segment ("" when there is none)."""
        return self.segments[-1] if self.segments else ""


@dataclass(frozen=True, slots=True)
class HTTP(Server):
    """``http://host:port/path?search`` (RFC 1738 3.3); path and search as written, since "/", ";" and "?"
    are reserved there (3.3) and decoding would change their meaning. ``path`` keeps its leading "/"."""

    scheme: ClassVar[str] = "http"
    path: str
    search: str | None


@dataclass(frozen=True, slots=True)
class Gopher(Server):
    """``gopher://host:port/<gophertype><selector>%09<search>%09<gopher+_string>`` (RFC 1738 3.4).

    ``gtype`` defaults to "1" for an empty gopher-path (3.4.1); selector, search and ``gopher_plus`` are
    percent-decoded, because the gopher-path has no reserved characters (3.4.1).
    """

    scheme: ClassVar[str] = "gopher"
    gtype: str
    selector: str
    search: str | None
    gopher_plus: str | None


@dataclass(frozen=True, slots=True)
class Mailto:
    """``mailto:<addr-spec>`` (RFC 1738 3.5), with RFC 6068's comma-separated list and ``?name=value`` headers.

    Addresses and header names and values are percent-decoded (3.5: "%" itself arrives as "%25").
    """

    addresses: tuple[str, ...]
    headers: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class News:
    """``news:<newsgroup-name>`` or ``news:<message-id>`` or ``news:*`` (RFC 1738 3.6).

    Exactly one of ``group`` and ``message_id`` is set; ``group`` is "*" for all groups. The message-id
    (``unique@domain``, without angle brackets) is percent-decoded.
    """

    group: str | None
    message_id: str | None

    @property
    def is_all_groups(self) -> bool:
        """True for ``news:*``, "all available newsgroups" (3.6)."""
        return self.group == "*"


@dataclass(frozen=True, slots=True)
class NNTP(Server):
    """``nntp://host:port/<newsgroup-name>/<article-number>`` (RFC 1738 3.7); ``article`` is None if absent."""

    scheme: ClassVar[str] = "nntp"
    group: str
    article: int | None


@dataclass(frozen=True, slots=True)
class Telnet(Server):
    """``telnet://user:password@host:port/`` (RFC 1738 3.8); user and password percent-decoded (3.1)."""

    scheme: ClassVar[str] = "telnet"
    user: str | None
    password: str | None


@dataclass(frozen=True, slots=True)
class WAIS(Server):
    """``wais://host:port/database[?search | /wtype/wpath]`` (RFC 1738 3.9).

    ``database``, ``wtype`` and ``wpath`` (the encoded WAIS document id, 3.9) are percent-decoded; ``search``
    is kept as written, like an http search (RFC 1738 5 gives both the same rule).
    """

    scheme: ClassVar[str] = "wais"
    database: str
    wtype: str | None
    wpath: str | None
    search: str | None


@dataclass(frozen=True, slots=True)
class Prospero(Server):
    """``prospero://host:port/<hsoname>;<field>=<value>...`` (RFC 1738 3.11).

    ``hsoname`` (slashes and all: ``prospero://host.dom//pros/name`` names "/pros/name") and the field
    names and values are percent-decoded; ";" is reserved and separates the fields.
    """

    scheme: ClassVar[str] = "prospero"
    hsoname: str
    fields: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class File:
    """``file://<host>/<path>`` (RFC 1738 3.10); ``host`` is None for RFC 8089's ``file:/path`` form.

    ``path`` is percent-decoded (the name a file system would use) and keeps its leading "/".
    """

    host: str | None
    path: str

    @property
    def is_local(self) -> bool:
        """True when the host is empty, absent or "localhost" (the table's default host, RFC 3986 3.2.2): the
        machine reading the URL (3.10)."""
        return self.host is None or self.host.lower() in ("", SCHEMES["file"].default_host)


SchemeSpecific = FTP | HTTP | Gopher | Mailto | News | NNTP | Telnet | WAIS | Prospero | File


@dataclass(frozen=True, slots=True)
class _Parts:
    """A URL split by RFC 3986 appendix B, with the offset of each component in the original string."""

    uri: str
    ref: URIReference
    authority_at: int
    path_at: int

    @property
    def query_at(self) -> int:
        return self.path_at + len(self.ref.path) + 1

    def fail(self, position: int, rule: str) -> URISyntaxError:
        return URISyntaxError(self.uri, position, rule)

    def decoded(self, text: str, at: int) -> str:
        """*text* (found at offset *at*) percent-decoded; a "%" that starts no triplet is an error (RFC 1738 2.2)."""
        pos = text.find("%")
        while pos != -1:
            if not _PCT_TRIPLET.match(text, pos):
                raise self.fail(at + pos, 'escape = "%" hex hex (RFC 1738 2.2)')
            pos = text.find("%", pos + 3)
        return percent_decode(text)

    def urlpath(self) -> str:
        """The path with its query rejoined, for schemes whose RFC 1738 path allows "?" (ftp, gopher, ...)."""
        query = self.ref.query
        return self.ref.path if query is None else self.ref.path + "?" + query


def _split(uri: str) -> _Parts:
    ref = parse(uri)
    authority_at = len(ref.scheme or "") + 1 + (2 if ref.authority is not None else 0)
    return _Parts(uri, ref, authority_at, authority_at + len(ref.authority or ""))


def _login(parts: _Parts, *, user_allowed: bool) -> tuple[str | None, str | None, str, int | None]:
    """RFC 1738 3.1: ``[ user [ ":" password ] "@" ] host [ ":" port ]``, user and password decoded."""
    authority = parts.ref.authority
    if authority is None:
        raise parts.fail(parts.authority_at, _RULE_IP_SCHEMEPART)
    userinfo, host, port_text = split_authority(authority)
    at = parts.authority_at
    user = password = None
    if userinfo is not None:
        if not user_allowed:
            raise parts.fail(at, f"hostport without user or password for {parts.ref.scheme}: (RFC 1738 5)")
        user_text, colon, password_text = userinfo.partition(":")
        user = _login_field(parts, user_text, at)
        password = _login_field(parts, password_text, at + len(user_text) + 1) if colon else None
    host_at = at + (len(userinfo) + 1 if userinfo is not None else 0)
    if not host:
        raise parts.fail(host_at, "host = hostname | hostnumber (RFC 1738 3.1)")
    port = None
    if port_text:  # an empty port is the same as none (RFC 3986 3.2.3), which updates RFC 1738 here
        if not _DIGITS.fullmatch(port_text):
            raise parts.fail(host_at + len(host) + 1, "port = digits (RFC 1738 5)")
        port = int(port_text)
    return user, password, host, port


def _login_field(parts: _Parts, field: str, at: int) -> str:
    """A user or password (found at offset *at*) percent-decoded; an unencoded ":" or "@" in it is an error (3.1)."""
    stray = _LOGIN_DELIMITER.search(field)
    if stray is not None:
        raise parts.fail(at + stray.start(), 'user and password hold ":", "@" and "/" only encoded (RFC 1738 3.1)')
    return parts.decoded(field, at)


def _after_slash(parts: _Parts, path: str, rule: str) -> str:
    # RFC 1738 3.1: the "/" between hostport and url-path is not part of the url-path.
    if not path.startswith("/"):
        raise parts.fail(parts.path_at, rule)
    return path[1:]


def _read_ftp(parts: _Parts) -> FTP:
    """RFC 1738 3.2: ``ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype ]]``."""
    user, password, host, port = _login(parts, user_allowed=True)
    urlpath = parts.urlpath()
    if not urlpath:
        return FTP(host, port, user, password, (), None)
    fpath = _after_slash(parts, urlpath, 'ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype ]] (RFC 1738 5)')
    typecode = None
    type_match = _FTP_TYPE.search(fpath)
    if type_match is not None:
        typecode = type_match.group(1).lower()
        fpath = fpath[: type_match.start()]
    semicolon = fpath.find(";")
    if semicolon != -1:  # 3.2.2: ";" is reserved in a cwd or name and must be encoded
        rule = 'fsegment without ";" other than ";type=" a|i|d (RFC 1738 3.2.2)'
        raise parts.fail(parts.path_at + 1 + semicolon, rule)
    segments, at = [], parts.path_at + 1
    for segment in fpath.split("/"):
        segments.append(parts.decoded(segment, at))
        at += len(segment) + 1
    return FTP(host, port, user, password, tuple(segments), typecode)


def _read_http(parts: _Parts) -> HTTP:
    """RFC 1738 3.3: ``httpurl = "http://" hostport [ "/" hpath [ "?" search ]]``."""
    _, _, host, port = _login(parts, user_allowed=False)
    if not parts.ref.path and parts.ref.query is not None:  # 3.3: the "/" goes only when path and search both do
        raise parts.fail(parts.query_at - 1, 'httpurl = "http://" hostport [ "/" hpath [ "?" search ]] (RFC 1738 5)')
    parts.decoded(parts.ref.path, parts.path_at)  # checks the escapes; the path itself stays as written
    if parts.ref.query is not None:
        parts.decoded(parts.ref.query, parts.query_at)
    return HTTP(host, port, parts.ref.path, parts.ref.query)


def _read_gopher(parts: _Parts) -> Gopher:
    """RFC 1738 3.4: ``gopher://host:port/<gophertype><selector>[%09<search>[%09<gopher+_string>]]``."""
    _, _, host, port = _login(parts, user_allowed=False)
    urlpath = parts.urlpath()
    if urlpath in ("", "/"):
        return Gopher(host, port, "1", "", None, None)  # 3.4.1: an empty gopher-path means type "1"
    gopher_path = _after_slash(parts, urlpath, 'gopherurl = "gopher://" hostport [ "/" gopher-path ] (RFC 1738 5)')
    at = parts.path_at + 1
    # gtype = xchar: one character, or one escape triplet.
    gtype_length = 3 if gopher_path.startswith("%") else 1
    gtype = parts.decoded(gopher_path[:gtype_length], at)
    pieces = gopher_path[gtype_length:].split("%09", 2)
    stray = _NOT_IN_SELECTOR.search(pieces[0])
    if stray is not None:
        raise parts.fail(at + gtype_length + stray.start(), "selector: any octet but 09, 0A and 0D (RFC 1738 3.4.1)")
    decoded: list[str] = []
    piece_at = at + gtype_length
    for piece in pieces:
        decoded.append(parts.decoded(piece, piece_at))
        piece_at += len(piece) + 3
    search = decoded[1] if len(decoded) > 1 else None
    gopher_plus = decoded[2] if len(decoded) > 2 else None
    return Gopher(host, port, gtype, decoded[0], search, gopher_plus)


def _read_mailto(parts: _Parts) -> Mailto:
    """RFC 1738 3.5 ``mailto:<rfc822-addr-spec>``, read as RFC 6068 2 ``mailto:to?hfields``."""
    rule = 'mailtourl = "mailto:" encoded822addr (RFC 1738 5; RFC 6068 2)'
    if parts.ref.authority is not None:
        raise parts.fail(parts.authority_at - 2, rule)
    addresses, at = [], parts.path_at
    for address in parts.ref.path.split(",") if parts.ref.path else ():
        if not address:
            raise parts.fail(at, rule)
        addresses.append(parts.decoded(address, at))
        at += len(address) + 1
    headers, at = [], parts.query_at
    for field in parts.ref.query.split("&") if parts.ref.query else ():
        name, equals, value = field.partition("=")
        if not name or not equals:
            raise parts.fail(at, 'hfield = hfname "=" hfvalue (RFC 6068 2)')
        headers.append((parts.decoded(name, at), parts.decoded(value, at + len(name) + 1)))
        at += len(field) + 1
    if not addresses and not headers:
        raise parts.fail(parts.path_at, rule)
    return Mailto(tuple(addresses), tuple(headers))


def _check_group(parts: _Parts, group: str, at: int) -> str:
    match = _GROUP.match(group)
    if match is None or match.end() != len(group):
        bad = 0 if match is None else match.end()
        raise parts.fail(at + bad, 'group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ] (RFC 1738 5)')
    return group


def _read_news(parts: _Parts) -> News:
    """RFC 1738 3.6: ``newsurl = "news:" grouppart``; ``grouppart = "*" | group | article``."""
    if parts.ref.authority is not None:
        raise parts.fail(parts.authority_at - 2, 'newsurl = "news:" grouppart (RFC 1738 5)')
    grouppart = parts.urlpath()  # an article may contain "?" (RFC 1738 5)
    if grouppart == "*":
        return News("*", None)
    unique, at_sign, domain = grouppart.partition("@")
    if not at_sign:
        return News(_check_group(parts, grouppart, parts.path_at), None)
    second_at = domain.find("@")
    if not unique or not domain or second_at != -1:  # 5: one "@", an article's characters before it, a host after
        position = parts.path_at + (0 if not unique else len(unique) + 1 + max(second_at, 0))
        raise parts.fail(position, _RULE_ARTICLE)
    bracket = _ANGLE_BRACKET.search(grouppart)
    if bracket is not None:  # 3.6: the RFC 1036 message ID "without the enclosing "<" and ">""
        raise parts.fail(parts.path_at + bracket.start(), 'message-id without its "<" and ">" (RFC 1738 3.6)')
    message_id = parts.decoded(grouppart, parts.path_at)
    host_end = always_match(_ARTICLE_HOST, domain).end()
    if host_end != len(domain):  # the port, path or query a host cannot hold (news:id@host:119, news:id@host/x)
        raise parts.fail(parts.path_at + len(unique) + 1 + host_end, _RULE_ARTICLE)
    return News(None, message_id)


def _read_nntp(parts: _Parts) -> NNTP:
    """RFC 1738 3.7: ``nntpurl = "nntp://" hostport "/" group [ "/" digits ]``."""
    _, _, host, port = _login(parts, user_allowed=False)
    rule = 'nntpurl = "nntp://" hostport "/" group [ "/" digits ] (RFC 1738 5)'
    if parts.ref.query is not None:
        raise parts.fail(parts.query_at - 1, rule)
    group, slash, article = _after_slash(parts, parts.ref.path, rule).partition("/")
    _check_group(parts, group, parts.path_at + 1)
    if not slash:
        return NNTP(host, port, group, None)
    if not _DIGITS.fullmatch(article):
        raise parts.fail(parts.path_at + 2 + len(group), rule)
    return NNTP(host, port, group, int(article))


def _read_telnet(parts: _Parts) -> Telnet:
    """RFC 1738 3.8: ``telneturl = "telnet://" login [ "/" ]``."""
    user, password, host, port = _login(parts, user_allowed=True)
    if parts.urlpath() not in ("", "/"):
        position = parts.path_at + (1 if parts.ref.path.startswith("/") else 0)
        raise parts.fail(position, 'telneturl = "telnet://" login [ "/" ] (RFC 1738 5)')
    return Telnet(host, port, user, password)


def _read_wais(parts: _Parts) -> WAIS:
    """RFC 1738 3.9: ``wais://hostport/database``, ``.../database?search``, ``.../database/wtype/wpath``."""
    _, _, host, port = _login(parts, user_allowed=False)
    rule = "waisurl = waisdatabase | waisindex | waisdoc (RFC 1738 5)"
    pieces = _after_slash(parts, parts.ref.path, rule).split("/")
    search = parts.ref.query
    if len(pieces) == 2:  # a wtype needs its wpath
        raise parts.fail(parts.path_at + len(parts.ref.path), rule)
    if len(pieces) > 3:  # the "/" after the wpath
        raise parts.fail(parts.path_at + 3 + sum(map(len, pieces[:3])), rule)
    if len(pieces) == 3 and search is not None:  # a search goes with a database only
        raise parts.fail(parts.query_at - 1, rule)
    decoded, at = [], parts.path_at + 1
    for piece in pieces:
        decoded.append(parts.decoded(piece, at))
        at += len(piece) + 1
    if search is not None:
        parts.decoded(search, parts.query_at)  # checks the escapes only
    if len(decoded) == 1:
        return WAIS(host, port, decoded[0], None, None, search)
    return WAIS(host, port, decoded[0], decoded[1], decoded[2], None)


def _read_prospero(parts: _Parts) -> Prospero:
    """RFC 1738 3.11: ``prosperourl = "prospero://" hostport "/" ppath *[ fieldspec ]``."""
    _, _, host, port = _login(parts, user_allowed=False)
    rule = 'prosperourl = "prospero://" hostport "/" ppath *[ fieldspec ] (RFC 1738 5)'
    ppath, *fieldspecs = _after_slash(parts, parts.urlpath(), rule).split(";")
    at = parts.path_at + 1
    hsoname = parts.decoded(ppath, at)
    at += len(ppath) + 1
    fields = []
    for spec in fieldspecs:
        name, equals, value = spec.partition("=")
        if not equals:
            raise parts.fail(at + len(spec), 'fieldspec = ";" fieldname "=" fieldvalue (RFC 1738 5)')
        if "=" in value:  # 3.11: "=" separates a field's name from its value, so a value holds it encoded
            position = at + len(name) + 1 + value.index("=")
            raise parts.fail(position, 'fieldvalue = *[ uchar | "?" | ":" | "@" | "&" ] (RFC 1738 5)')
        fields.append((parts.decoded(name, at), parts.decoded(value, at + len(name) + 1)))
        at += len(spec) + 1
    return Prospero(host, port, hsoname, tuple(fields))


def _read_file(parts: _Parts) -> File:
    """RFC 1738 3.10: ``fileurl = "file://" [ host | "localhost" ] "/" fpath`` (and RFC 8089's ``file:/path``)."""
    path = parts.urlpath()  # an fsegment may contain "?" (RFC 1738 5)
    if not path.startswith("/"):
        raise parts.fail(parts.path_at, 'fileurl = "file://" [ host | "localhost" ] "/" fpath (RFC 1738 5)')
    host = None
    if parts.ref.authority is not None:
        userinfo, host, port = split_authority(parts.ref.authority)
        if userinfo is not None or port is not None:
            raise parts.fail(parts.authority_at, 'fileurl = "file://" [ host | "localhost" ] "/" fpath (RFC 1738 5)')
    return File(host, parts.decoded(path, parts.path_at))


# The dispatch table: one reader per scheme of RFC 1738 section 3 (every row cites it in linkkit.schemes).
_READERS: Mapping[str, Callable[[_Parts], SchemeSpecific]] = MappingProxyType(
    {
        "ftp": _read_ftp,
        "http": _read_http,
        "gopher": _read_gopher,
        "mailto": _read_mailto,
        "news": _read_news,
        "nntp": _read_nntp,
        "telnet": _read_telnet,
        "wais": _read_wais,
        "file": _read_file,
        "prospero": _read_prospero,
    }
)


def scheme_specific(uri: str | URIReference) -> SchemeSpecific:
    """The RFC 1738 record of *uri* (a str, or a URIReference as the string it composes, as :func:`validate` takes
    one), chosen by its scheme (case-insensitive, RFC 1738 2.1).

    Raises :class:`~linkkit.errors.URISyntaxError` (a ``URIError``) with the position and the rule broken,
    also for a reference without a scheme or with a scheme RFC 1738 does not define.
    """
    if isinstance(uri, URIReference):
        uri = compose(uri)
    elif not isinstance(uri, str):
        raise TypeError(f"scheme_specific() takes a str or URIReference, not {type(uri).__name__}")
    parts = _split(uri)
    scheme = parts.ref.scheme
    reader = _READERS.get(scheme.lower()) if scheme is not None else None
    if reader is None:
        raise URISyntaxError(uri, 0, "a scheme of RFC 1738 3: " + ", ".join(_READERS))
    record = reader(parts)
    # 2.2: "All unsafe characters must always be encoded within a URL", and so must octets without a graphic
    # US-ASCII character (controls, non-ASCII): a URL whose structure reads is still no URL with a space or a "<" in
    # it. RFC 3986's grammar (appendix A), which updates RFC 1738, draws that line; its "~" is accepted.
    violations = validate(uri)
    if violations:
        rule = f"{violations[0].rule} (RFC 3986 appendix A; RFC 1738 2.2: unsafe and non-ASCII octets are encoded)"
        raise URISyntaxError(uri, violations[0].position, rule)
    return record
