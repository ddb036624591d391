"""Percent-encoding, RFC 3986 2.1 and 2.4."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from linkkit.uri.percent import normalize_percent_encoding, percent_decode, percent_encode, upper_percent_hex


def test_encoding_uses_utf8_and_upper_case_hex() -> None:
    # RFC 3986 2.1: upper-case hex "should" be used; 2.5: UTF-8 for new schemes.
    assert percent_encode("a b/é") == "a%20b%2F%C3%A9"
    assert percent_encode("a b/é", safe="/") == "a%20b/%C3%A9"


def test_a_lone_percent_is_kept_when_decoding() -> None:
    assert percent_decode("100%") == "100%"
    assert percent_decode("%zz%41") == "%zzA"


def test_undecodable_octets_survive_decoding() -> None:
    assert percent_encode(percent_decode("%FF%C3%A9")) == "%FF%C3%A9"


def test_normalization_decodes_only_unreserved() -> None:
    assert normalize_percent_encoding("%7e%2f%41%3a") == "~%2FA%3A"
    assert upper_percent_hex("%7e%2f") == "%7E%2F"


@given(st.text())
def test_decode_inverts_encode(text: str) -> None:
    assert percent_decode(percent_encode(text)) == text


def test_a_stray_percent_is_encoded_and_never_completed_into_a_triplet() -> None:
    # RFC 3986 2.4: a "%" that starts no triplet is data, "%25"; "%2%46" must not become the escape "%2F".
    assert normalize_percent_encoding("%2%46") == "%252F"
    assert normalize_percent_encoding("100%") == "100%25"
    assert normalize_percent_encoding(normalize_percent_encoding("%%30%30")) == "%2500"


def test_a_case_insensitive_component_lower_cases_what_it_decodes() -> None:
    # RFC 3986 6.2.2.1 for the host: "%41" decodes to "a", and the hex of what stays encoded is upper-cased.
    assert normalize_percent_encoding("%41%2f", case_insensitive=True) == "a%2F"


def test_a_lone_surrogate_is_encoded_and_decoded_without_raising() -> None:
    # No octet stands for a lone surrogate outside U+DC80-U+DCFF: it becomes the three octets UTF-8 would give it
    # (invalid UTF-8), while an undecodable byte (PEP 383, U+DC80-U+DCFF) stays that byte.
    assert percent_encode("a\ud800b") == "a%ED%A0%80b"
    assert percent_decode("\ud800%41", errors="replace") == "\ufffd\ufffd\ufffdA"
    assert percent_decode("\udc80%41") == "\udc80A"


def test_a_character_the_encoding_lacks_is_an_error_not_utf8_in_disguise() -> None:
    # RFC 3986 2.5: the octets follow one character encoding; latin-1 has "é" (one octet) and no "€".
    assert percent_encode("é", encoding="latin-1") == "%E9"
    assert percent_decode("%E9", encoding="latin-1") == "é"
    with pytest.raises(UnicodeEncodeError, match=r"character '\\u20ac'"):
        percent_encode("€", encoding="latin-1")
