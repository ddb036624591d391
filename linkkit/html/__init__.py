"""HTML: find every URL a document holds, resolve it against the document's base, and rewrite it in place.

The tokenizer is linkkit's own, a few compiled regexes that follow the HTML standard's tokenization (13.2.5)
closely enough to locate tags, attributes, comments and raw text, and that record where each value lies in
the input. Rewriting replaces those spans and copies every other byte, so an identity rewrite returns the input
unchanged, whatever it holds. The base is RFC 3986 section 5.1.1 as the HTML standard's "document base URL"
defines it.

The data's way: ``encoding`` (which encoding the bytes are in) -> ``tokenizer`` (where the values are) ->
``places`` and ``css`` (which values hold URLs, and where in them) -> ``base`` (the document's base, resolution)
-> ``rewrite`` (links, rewrite, absolutize); ``trees`` does the same on lxml and BeautifulSoup trees.

    >>> [link.uri for link in links('<base href="/a/"><img src="b.png">', base_url="http://example.com/x")]
    ['http://example.com/a/', 'http://example.com/a/b.png']
    >>> absolutize(b"<a href='../up?a=1&amp;b=2'>", "http://example.com/x/y")
    b"<a href='http://example.com/up?a=1&amp;b=2'>"
"""

from .places import FOREIGN_PLACES, GLOBAL_PLACES, PLACES, Link
from .rewrite import absolutize, absolutize_counted, links, rewrite
from .trees import rewrite_lxml, rewrite_soup

__all__ = [
    "FOREIGN_PLACES", "GLOBAL_PLACES", "PLACES", "Link", "absolutize", "absolutize_counted", "links", "rewrite",
    "rewrite_lxml", "rewrite_soup",
]
