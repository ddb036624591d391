"""E-mail: every link of a message or a mailbox, against the right base, and rewriting that keeps the message intact.

The data's way: ``mailbox`` (the messages of an mbox, a Maildir or an .eml) -> ``message`` (the MIME entities,
located in the raw bytes, RFC 2046) -> ``parts`` (transfer encodings, charsets, encoded words: RFC 2045, 2047;
``iso2022jp`` and ``eucjp`` for the rows of JIS X 0208 that Windows writers add) -> ``base`` (RFC 2557 / RFC 2110)
-> ``links`` (the text scanner, through ``flowed`` for a ``format=flowed; delsp=yes`` part, RFC 3676;
``linkkit.html``; header fields: RFC 2369, RFC 5064) -> ``rewrite`` (changed parts re-encoded, every other byte
copied).
"""

from typing import TYPE_CHECKING

from ..lazy import names_on_first_use
from .errors import MailError, Problem

if TYPE_CHECKING:
    from .links import LINK_HEADERS, MailLink, links, problems
    from .mailbox import Message, looks_like_mail, messages
    from .message import message_id
    from .rewrite import absolute, absolutize, rewrite

# The module each name lives in, loaded on first use: telling and reading mailboxes (``mailbox``, which every batch
# run asks whether a file is a message) loads neither the MIME parser nor the finders.
_HOMES = {
    **dict.fromkeys(("LINK_HEADERS", "MailLink", "links", "problems"), ".links"),
    **dict.fromkeys(("Message", "looks_like_mail", "messages"), ".mailbox"),
    "message_id": ".message",
    **dict.fromkeys(("absolute", "absolutize", "rewrite"), ".rewrite"),
}


__getattr__ = names_on_first_use(__name__, _HOMES)  # links and rewrite stay the functions, modules loaded or not


__all__ = [
    "LINK_HEADERS",
    "MailError",
    "MailLink",
    "Message",
    "Problem",
    "absolute",
    "absolutize",
    "links",
    "looks_like_mail",
    "message_id",
    "messages",
    "problems",
    "rewrite",
]
