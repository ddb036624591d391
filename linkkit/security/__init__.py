"""Security: what RFC 3986 section 7 warns about, flagged; what analysts defang, refanged; what must not leak,
redacted.

One module per concern: ``flags`` (the :class:`Flag` values and :func:`flags`), ``ipv4`` (how inet_aton and the
WHATWG URL parser read a host as an IPv4 address), ``confusables`` (UTS #39 skeletons and script sets, per host
label), ``defang`` (:func:`refang`, :func:`defang`) and ``redact`` (:func:`redact` and its text, HTML and mail
forms).
"""

from .defang import Refanged, defang, defang_written, refang, refanged
from .flags import FLAG_NAMES, Flag, FlagName, flags
from .redact import Redaction, redact, redact_html, redact_message, redact_text

__all__ = [
    "FLAG_NAMES",
    "Flag",
    "FlagName",
    "Redaction",
    "Refanged",
    "defang",
    "defang_written",
    "flags",
    "redact",
    "redact_html",
    "redact_message",
    "redact_text",
    "refang",
    "refanged",
]
