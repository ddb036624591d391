"""What can go wrong in a message: problems reported as values (the message is still read), and the errors raised."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..errors import InputError

ProblemKind = Literal["charset", "transfer-encoding", "structure", "header"]


@dataclass(frozen=True, slots=True)
class Problem:
    """A defect of a message that linkkit read past: which part (IMAP numbering, RFC 3501 6.4.5; ``""`` for the
    message as a whole), what kind, what.

    ``kind`` is ``charset`` (unknown or lying charset: the part was decoded with a fallback), ``transfer-encoding``
    (bad base64 or quoted-printable, an unknown Content-Transfer-Encoding), ``structure`` (a multipart without its
    boundary, a missing close delimiter, a header block without an end) or ``header`` (a header that cannot be read).
    """

    part: str
    kind: ProblemKind
    message: str

    def __str__(self) -> str:
        return f"{f'part {self.part}' if self.part else 'message'}: {self.kind}: {self.message}"


class MailError(InputError):
    """A message or mailbox cannot be read at all (not bytes, not a mailbox); names the input."""
