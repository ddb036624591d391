"""The character classes of RFC 3986 section 2 and the sets derived from them."""

from __future__ import annotations

import re

from linkkit.uri import charset


def test_reserved_is_gen_delims_and_sub_delims() -> None:
    # RFC 3986 2.2: reserved = gen-delims / sub-delims
    assert set(charset.RESERVED) == set(charset.GEN_DELIMS) | set(charset.SUB_DELIMS)


def test_reserved_and_unreserved_are_disjoint_and_cover_66_plus_18_characters() -> None:
    # RFC 3986 2.2 / 2.3: 18 reserved characters, 66 unreserved ones, no overlap
    assert len(set(charset.RESERVED)) == 18
    assert len(set(charset.UNRESERVED)) == 66
    assert not set(charset.RESERVED) & set(charset.UNRESERVED)


def test_pchar_and_query_derive_from_the_base_classes() -> None:
    # RFC 3986 3.3 pchar, 3.4 query
    assert set(charset.PCHAR) == set(charset.UNRESERVED) | set(charset.SUB_DELIMS) | {":", "@"}
    assert set(charset.QUERY_CHARS) == set(charset.PCHAR) | {"/", "?"}


def test_char_class_matches_exactly_its_characters_and_pct_encoded() -> None:
    unreserved = re.compile(charset.char_class(charset.UNRESERVED, pct_encoded=True) + "+")
    assert unreserved.fullmatch("a-._~%7E")
    assert not unreserved.fullmatch("a/b")
    assert not unreserved.fullmatch("%7")
    assert re.fullmatch(charset.char_class("]^-\\"), "^")
