"""The plain-text finder: ``scan`` (the hot loop, shaped like the ``re`` module), ``rules`` (the delimiting rules as
data), ``reference`` (the ``re.Match``-like :class:`Reference` it yields) and ``stream`` (the same over a text read
piece by piece)."""

from .reference import Reference
from .scan import ScanOptions, findall, finditer, sub, subn
from .stream import finditer_stream

__all__ = ["Reference", "ScanOptions", "findall", "finditer", "finditer_stream", "sub", "subn"]
