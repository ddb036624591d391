"""Sources: one way to open anything the user names, each yielding documents with a name, a position, a kind and,
where the input says it, a retrieval base and a charset.

``files`` lists files and folders (recursion, globs, symbolic links, lists of names, binary files skipped);
``compressed`` undoes gzip, bzip2, xz and Zstandard by content; ``warc`` reads web archives and ``http`` the HTTP
envelope of their records; mailboxes come from :mod:`linkkit.mail`; ``inputs`` tells them apart and ``document``
is the value they all yield.
"""

from typing import TYPE_CHECKING

from ..lazy import names_on_first_use

if TYPE_CHECKING:
    from .document import ERROR, HTML, MAIL, TEXT, Document, HeaderLink, Position, failure
    from .files import WalkOptions, names_from
    from .inputs import Counts, documents

# Each name loaded with its module on first use (PEP 562): the value every source yields (``document``) without the
# readers of every kind of input.
__getattr__ = names_on_first_use(__name__, {
    **dict.fromkeys(("ERROR", "HTML", "MAIL", "TEXT", "Document", "HeaderLink", "Position", "failure"), ".document"),
    **dict.fromkeys(("WalkOptions", "names_from"), ".files"),
    **dict.fromkeys(("Counts", "documents"), ".inputs"),
})

__all__ = [
    "ERROR", "HTML", "MAIL", "TEXT", "Counts", "Document", "HeaderLink", "Position", "WalkOptions", "documents",
    "failure", "names_from",
]
