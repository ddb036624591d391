"""Security: what RFC 3986 section 7 warns about, flagged; what analysts defang, refanged; what must not leak,
redacted.

One module per concern: ``flags`` (the :class:`Flag` values and :func:`flags`), ``ipv4`` (how inet_aton and the
WHATWG URL parser read a host as an IPv4 address), ``confusables`` (UTS #39 skeletons and script sets, per host
label), ``defang`` (:func:`refang`, :func:`defang`) and ``redact`` (:func:`redact` and its text, HTML and mail
forms).
"""

from typing import TYPE_CHECKING

from ..lazy import names_on_first_use

if TYPE_CHECKING:
    from .defang import Refanged, defang, defang_written, refang, refanged
    from .flags import FLAG_NAMES, Flag, FlagName, flags
    from .redact import Redaction, redact, redact_html, redact_message, redact_text

# Each name loaded with its module on first use (PEP 562): flagging loads neither redaction (and the e-mail package it
# needs) nor the defanging tables. defang, flags and redact stay the functions, their modules loaded or not.
__getattr__ = names_on_first_use(__name__, {
    **dict.fromkeys(("Refanged", "defang", "defang_written", "refang", "refanged"), ".defang"),
    **dict.fromkeys(("FLAG_NAMES", "Flag", "FlagName", "flags"), ".flags"),
    **dict.fromkeys(("Redaction", "redact", "redact_html", "redact_message", "redact_text"), ".redact"),
})

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
