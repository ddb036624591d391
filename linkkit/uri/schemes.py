"""The scheme registry: one table of scheme facts (default port, authority, normalization) and the IANA names."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True, slots=True, kw_only=True)
class Scheme:
    """Facts about one URI scheme that normalization (RFC 3986 6.2.3) and the scanner rely on."""

    name: str
    default_port: int | None = None
    uses_authority: bool = False
    empty_path_is_slash: bool = False  # RFC 3986 6.2.3: an empty path is equivalent to "/" (http and its kin)
    # RFC 3986 6.2.3: the path is a list of addresses whose domain (after the last "@") is a host name, so
    # case-insensitive: "mailto:Joe@Example.COM" is equivalent to "mailto:Joe@example.com".
    path_domains: bool = False
    # RFC 3986 3.2.2: the host a scheme defines as meant when the authority is absent or the host empty ("file":
    # "localhost", the end-user's machine). Scheme-based normalization (6.2.3) writes all three as the empty host.
    default_host: str | None = None
    # The scheme compares its URIs character for character ("tag", RFC 4151 2.4): no normalization beyond the case
    # of the scheme (RFC 3986 3.1), since decoding "%7E" or upper-casing "%2f" would equate two distinct names.
    compared_as_written: bool = False
    # The plain-text scanner's evidence that "scheme:" in running text starts a reference: a regular expression
    # the scheme-specific part must match at its start ("svn:ignore", "FILE:LINE" are prose); None when the
    # scheme's syntax demands nothing a word could not also have.
    prose_start: str | None = None
    spec: str


def _table(*rows: Scheme) -> MappingProxyType[str, Scheme]:
    return MappingProxyType({row.name: row for row in rows})


# The scanner's evidence for the schemes whose syntax begins with an authority (RFC 3986 3.2: "//"). http and
# https require it too (RFC 9110 4.2.1) but are left without: RFC 3986 5.4.2 writes "http:g" as a reference.
_AUTHORITY = "//"
_TOKEN = r"[A-Za-z0-9!#$&^_.+-]+"  # RFC 2045 5.1's token, as RFC 2397's mediatype writes type and subtype
_DATA_START = rf"(?:{_TOKEN}/{_TOKEN})?(?:;[^\s,;]+)*,"

# RFC 1738 section 3 gives the classic default ports; the modern rows cite their own RFCs.
SCHEMES = _table(
    Scheme(name="ftp", default_port=21, uses_authority=True, empty_path_is_slash=True, prose_start=_AUTHORITY,
        spec="RFC 1738 3.2"),
    Scheme(name="http", default_port=80, uses_authority=True, empty_path_is_slash=True,
        spec="RFC 1738 3.3; RFC 9110 4.2.1"),
    Scheme(name="https", default_port=443, uses_authority=True, empty_path_is_slash=True, spec="RFC 9110 4.2.2"),
    # RFC 1738 3.4.1: an empty gopher-path may go without its "/" (type "1", empty selector either way).
    Scheme(name="gopher", default_port=70, uses_authority=True, empty_path_is_slash=True, prose_start=_AUTHORITY,
        spec="RFC 1738 3.4; RFC 4266"),
    Scheme(name="mailto", path_domains=True, spec="RFC 1738 3.5; RFC 6068"),
    # RFC 5538 2.1: a news URI may name its server ("news://news.example.org/comp.lang.c"), port 119 by default.
    Scheme(name="news", default_port=119, spec="RFC 1738 3.6; RFC 5538"),
    Scheme(name="nntp", default_port=119, uses_authority=True, prose_start=_AUTHORITY, spec="RFC 1738 3.7; RFC 5538"),
    # RFC 1738 3.8: "telnet://<user>:<password>@<host>:<port>/", whose final "/" may be omitted.
    Scheme(name="telnet", default_port=23, uses_authority=True, empty_path_is_slash=True, prose_start=_AUTHORITY,
        spec="RFC 1738 3.8; RFC 4248"),
    Scheme(name="wais", default_port=210, uses_authority=True, prose_start=_AUTHORITY, spec="RFC 1738 3.9; RFC 4156"),
    # RFC 8089 2: "//" authority or an absolute path; appendix E.2: a DOS drive letter ("file:c:/path/to/file").
    # RFC 1738 3.10, RFC 8089 2: "localhost", the empty host and no authority all name the machine reading the URI.
    Scheme(name="file", uses_authority=True, default_host="localhost", prose_start=r"/|[A-Za-z]:/",
        spec="RFC 1738 3.10; RFC 8089"),
    Scheme(name="prospero", default_port=1525, uses_authority=True, prose_start=_AUTHORITY,
        spec="RFC 1738 3.11; RFC 4157"),
    Scheme(name="ws", default_port=80, uses_authority=True, empty_path_is_slash=True, prose_start=_AUTHORITY,
        spec="RFC 6455 3"),
    Scheme(name="wss", default_port=443, uses_authority=True, empty_path_is_slash=True, prose_start=_AUTHORITY,
        spec="RFC 6455 3"),
    Scheme(name="ldap", default_port=389, uses_authority=True, prose_start=_AUTHORITY, spec="RFC 4516"),
    Scheme(name="ldaps", default_port=636, uses_authority=True, prose_start=_AUTHORITY, spec="ldaps (provisional)"),
    Scheme(name="imap", default_port=143, uses_authority=True, prose_start=_AUTHORITY, spec="RFC 5092"),
    Scheme(name="pop", default_port=110, uses_authority=True, prose_start=_AUTHORITY, spec="RFC 2384"),
    Scheme(name="rtsp", default_port=554, uses_authority=True, prose_start=_AUTHORITY, spec="RFC 2326 3.2; RFC 7826"),
    # Schemes whose every URI opens with an authority, and the port each takes "if the port is empty or not given"
    # (RFC 2326 3.2 says so for rtspu too). In running text "ipv4:udp:53" (systemd) and dbus-send's
    # "dict:string:int32" are configuration, not references.
    *(Scheme(name=name, default_port=port, uses_authority=True, prose_start=_AUTHORITY, spec=spec)
      for name, port, spec in (
        ("dict", 2628, "RFC 2229 5"), ("rtsps", 322, "RFC 7826 4.2"), ("rtspu", 554, "RFC 2326 3.2"),
        ("ipp", 631, "RFC 3510 4"), ("ipps", 631, "RFC 7472 4"), ("nfs", 2049, "RFC 2224 2"),
        ("sieve", 4190, "RFC 5804 3"), ("icap", 1344, "RFC 3507 4.2"), ("z39.50r", 210, "RFC 2056"),
        ("z39.50s", 210, "RFC 2056"), ("udp", None, "udp (provisional)"))),
    Scheme(name="sip", default_port=5060, spec="RFC 3261 19.1"),
    Scheme(name="sips", default_port=5061, spec="RFC 3261 19.1"),
    Scheme(name="snmp", default_port=161, uses_authority=True, prose_start=_AUTHORITY, spec="RFC 4088"),
    Scheme(name="ssh", default_port=22, uses_authority=True, prose_start=_AUTHORITY,
        spec="draft-ietf-secsh-scp-sftp-ssh-uri"),
    Scheme(name="sftp", default_port=22, uses_authority=True, prose_start=_AUTHORITY,
        spec="draft-ietf-secsh-scp-sftp-ssh-uri"),
    # Schemes of services whose names are also words of configuration: "FROM redis:7", "image: mongodb:6",
    # "steam:latest" name container images and tags; their URIs open with an authority (their registrations), with
    # the default port each gives (RFC 5781 2: rsync 873; RFC 7869 2: vnc 5900; the redis and rediss registrations:
    # 6379). A mongodb URI lists hosts ("h1,h2:27017") and tftp's (RFC 3617 2) has no port: neither has one here.
    *(Scheme(name=name, default_port=port, uses_authority=True, prose_start=_AUTHORITY, spec=spec)
      for name, port, spec in (
        ("redis", 6379, "redis (provisional)"), ("rediss", 6379, "rediss (provisional)"),
        ("mongodb", None, "mongodb (provisional)"), ("rsync", 873, "RFC 5781 2"), ("vnc", 5900, "RFC 7869 2"),
        ("tftp", None, "RFC 3617"), ("smb", None, "smb (provisional)"), ("steam", None, "steam (provisional)"))),
    # IRC (draft-butcher-irc-url, provisional registrations): a URL opens with "//" ("irc://irc.libera.chat/python");
    # "irc:wikipedia" is a wiki's interwiki prefix, "irc:freenode" a network's name in prose.
    *(Scheme(name=name, uses_authority=True, prose_start=_AUTHORITY, spec="draft-butcher-irc-url (provisional)")
      for name in ("irc", "ircs", "irc6")),
    # RFC 7252 6.3: "an empty path component is equivalent to an absolute path of "/"" (coap and coaps alike).
    Scheme(name="coap", default_port=5683, uses_authority=True, empty_path_is_slash=True, prose_start=_AUTHORITY,
        spec="RFC 7252 6.1"),
    Scheme(name="coaps", default_port=5684, uses_authority=True, empty_path_is_slash=True, prose_start=_AUTHORITY,
        spec="RFC 7252 6.2"),
    Scheme(name="xmpp", spec="RFC 5122"),
    Scheme(name="urn", spec="RFC 8141"),
    Scheme(name="tel", spec="RFC 3966"),
    # RFC 4151 2.4: "Tags are simply strings of characters and are considered equal if and only if they are
    # completely indistinguishable in their machine representations".
    Scheme(name="tag", compared_as_written=True, spec="RFC 4151"),
    # RFC 2397 3: dataurl = "data:" [ mediatype ] [ ";base64" ] "," data; a mediatype is "type/subtype" and its
    # ";attribute=value" parameters: the "," is never left out ("Data:text here" is prose).
    Scheme(name="data", prose_start=_DATA_START, spec="RFC 2397"),
    Scheme(name="svn", default_port=3690, uses_authority=True, prose_start=_AUTHORITY, spec="svn (provisional)"),
    Scheme(name="git", default_port=9418, uses_authority=True, prose_start=_AUTHORITY, spec="git (provisional)"),
    # RFC 4452 3: info-identifier = namespace "/" identifier, the namespace spelled as a scheme ("info:label" in
    # the options of a man page is prose).
    Scheme(name="info", prose_start=r"[A-Za-z][A-Za-z0-9+.-]*/", spec="RFC 4452"),
    # A blob URL is "blob:" and the serialization of an origin ("https://example.org", or "null" for an opaque
    # origin), "/" and a UUID.
    Scheme(name="blob", prose_start=r"[^/:]+://|null/", spec="W3C File API 8 (blob URL)"),
    # MRCPv2's session URI names a body part by its Content-ID, as cid: does (RFC 2392): id-left "@" id-right.
    Scheme(name="session", prose_start=r"[^@:/]+@", spec="RFC 6787 13.6"),
)


def lookup(scheme: str) -> Scheme | None:
    """The table row of *scheme* (matched case-insensitively, RFC 3986 3.1), or None."""
    return SCHEMES.get(scheme.lower())


def default_port(scheme: str) -> int | None:
    """The scheme's default port (RFC 3986 6.2.3), or None when it has none or is unknown."""
    row = SCHEMES.get(scheme.lower())
    return row.default_port if row is not None else None


# The URL Standard's special schemes (3.1): a browser percent-decodes, maps (UTS #46) and reads as IPv4 the host of
# one, reads "\\" as "/" after one (4.4), and fails all but file with an empty host; another scheme's host is opaque.
SPECIAL_SCHEMES = frozenset({"file", "ftp", "http", "https", "ws", "wss"})

# The IANA "Uniform Resource Identifier (URI) Schemes" registry (permanent, provisional and historical
# names), which includes every scheme of RFC 1738. The plain-text scanner starts a reference at one of
# these, or at any syntactically valid scheme followed by "//".
KNOWN_SCHEMES = frozenset(
    """
    aaa aaas about acap acct acd acr adiumxtra adt afp afs aim amss android appdata apt ar ark at attachment aw
    barion beshare bitcoin bitcoincash blob bolo browserext cabal calculator callto cap cast casts chrome
    chrome-extension cid coap coap+tcp coap+ws coaps coaps+tcp coaps+ws com-eventbrite-attendee content content-type
    crid cstr cvs dab dat data dav dhttp diaspora dict did dis dlna-playcontainer dlna-playsingle dns dntp doi dpp
    drm drop dtmi dtn dvb dvx dweb ed2k eid elsi embedded ens ethereum example facetime fax feed feedready fido
    file filesystem finger first-run-pen-experience fish fm ftp fuchsia-pkg geo gg git gitoid gizmoproject go
    gopher graph grd gtalk h323 ham hcap hcp hs20 http https hxxp hxxps hydrazone hyper iax icap icon im imap info
    iotdisco ipfs ipn ipns ipp ipps irc irc6 ircs iris iris.beep iris.lwz iris.xpc iris.xpcs isostore itms jabber
    jar jms keyparc lastfm lbry ldap ldaps leaptofrogans lid lorawan lpa lvlt magnet mailserver mailto maps market
    matrix message microsoft.windows.camera microsoft.windows.camera.multipicker
    microsoft.windows.camera.picker mid mms modem mongodb moz ms-access ms-appinstaller ms-browser-extension
    ms-calculator ms-drive-to ms-enrollment ms-excel ms-eyecontrolspeech ms-gamebarservices ms-gamingoverlay
    ms-getoffice ms-help ms-infopath ms-inputapp ms-launchremotedesktop ms-lockscreencomponent-config
    ms-media-stream-id ms-meetnow ms-mixedrealitycapture ms-mobileplans ms-newsandinterests ms-officeapp ms-people
    ms-personacard ms-project ms-powerpoint ms-publisher ms-recall ms-remotedesktop ms-remotedesktop-launch
    ms-restoretabcompanion ms-screenclip ms-screensketch ms-search ms-search-repair ms-secondary-screen-controller
    ms-secondary-screen-setup ms-settings ms-settings-airplanemode ms-settings-bluetooth ms-settings-camera
    ms-settings-cellular ms-settings-cloudstorage ms-settings-connectabledevices ms-settings-displays-topology
    ms-settings-emailandaccounts ms-settings-language ms-settings-location ms-settings-lock
    ms-settings-nfctransactions ms-settings-notifications ms-settings-power ms-settings-privacy
    ms-settings-proximity ms-settings-screenrotation ms-settings-wifi ms-settings-workplace ms-spd ms-stickers
    ms-sttoverlay ms-transit-to ms-useractivityset ms-virtualtouchpad ms-visio ms-walk-to ms-whiteboard
    ms-whiteboard-cmd ms-word msnim msrp msrps mss mt mtqp mumble mupdate mvn mvrp mvrps news nfs ni nih nntp
    notes num ocf oid onenote onenote-cmd opaquelocktoken openid openpgp4fpr otpauth p1 pack palm paparazzi
    payment payto pkcs11 platform pop pres prospero proxy psyc pttp pwid qb query quic-transport redis rediss
    reload res resource rmi rsync rtmfp rtmp rtsp rtsps rtspu sarif secondlife secret-token service session sftp
    sgn shc shttp sieve simpleledger simplex sip sips skype smb smp sms smtp snews snmp soap.beep soap.beeps soldat
    spiffe spotify ssb ssh starknet steam stun stuns submit svn swh swid swidpath tag taler teamspeak teapot teapots
    tel teliaeid telnet tftp things thismessage thzp tip tn3270 tool turn turns tv udp unreal upt urn ut2004
    uuid-in-package v-event vemmi ventrilo ves videotex vnc view-source vscode vscode-insiders vsls w3 wais wcr webcal
    wifi wpid ws wss wtai wyciwyg xcon xcon-userid xfire xmlrpc.beep xmlrpc.beeps xmpp xftp xrcp xri ymsgr z39.50
    z39.50r z39.50s
    """.split()
)
