"""Security: what RFC 3986 section 7 warns about, flagged; what analysts defang, refanged; what must not leak,
redacted.

One module per concern: ``flags`` (the :class:`Flag` values and :func:`flags`), ``ipv4`` (how inet_aton and the
WHATWG URL parser read a host as an IPv4 address), ``confusables`` (UTS #39 skeletons and script sets, per host
label), ``refang`` (:func:`refang`: the defanged spellings of threat reports read back), ``defang``
(:func:`defang`, by the same rules) and ``redact`` (:func:`redact` and its text, HTML and mail forms).
"""

from typing import TYPE_CHECKING

from ..lazy import names_on_first_use

if TYPE_CHECKING:
    from .defang import defang, defang_written
    from .flags import FLAG_NAMES, Flag, FlagName, flags
    from .redact import Redaction, redact, redact_html, redact_message, redact_text
    from .refang import Refanged, refang, refanged

# Each name loaded with its module on first use (PEP 562): flagging loads neither redaction (and the e-mail package it
# needs) nor the defanging tables. defang, flags and redact stay the functions, their modules loaded or not.
__getattr__ = names_on_first_use(__name__, {
    **dict.fromkeys(("defang", "defang_written"), ".defang"),
    **dict.fromkeys(("Refanged", "refang", "refanged"), ".refang"),
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
