"""E-mail: every link of a message or a mailbox, against the right base, and rewriting that keeps the message intact.

The data's way: ``mailbox`` (the messages of an mbox, a Maildir or an .eml) -> ``message`` (the MIME entities,
located in the raw bytes, RFC 2046) -> ``parts`` (transfer encodings, charsets, encoded words: RFC 2045, 2047)
-> ``base`` (RFC 2557 / RFC 2110) -> ``links`` (the text scanner, ``linkkit.html``, header fields: RFC 2369,
RFC 5064) -> ``rewrite`` (changed parts re-encoded, every other byte copied).
"""

from .errors import MailError, Problem
from .links import LINK_HEADERS, MailLink, links, problems
from .mailbox import Message, looks_like_mail, messages
from .message import message_id
from .rewrite import absolutize, rewrite

__all__ = [
    "LINK_HEADERS",
    "MailError",
    "MailLink",
    "Message",
    "Problem",
    "absolutize",
    "links",
    "looks_like_mail",
    "message_id",
    "messages",
    "problems",
    "rewrite",
]
