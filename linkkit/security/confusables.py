"""Host labels that look like others: Unicode TR39 (UTS #39) skeletons and resolved script sets, per label.

Browsers decide label by label whether to show a host in Unicode or as ``xn--`` (Chromium's IDN spoof checker,
Firefox's ``network.IDN.restriction_profile``); linkkit reads each label the same way:

- *mixed-script* (TR39 5.1, 5.2): the label's resolved script set, the intersection of its characters' augmented
  Script_Extensions sets, is empty (``pаypal`` with a Cyrillic ``а``: Latin and Cyrillic), and no Highly Restrictive
  set covers it (Latin with Han and kana, Han and Bopomofo, or Han and Hangul: ``Tシャツ``, which browsers show);
- *confusable* (TR39 4): the label's skeleton equals the skeleton of a different all-ASCII label (``раураl``,
  all Cyrillic but the ``l``, and the whole-script ``ѕсоре`` both look like ASCII labels).

A label is read as a browser reads it: ``xn--`` labels decoded (the ``idna`` package), every label mapped by UTS 46
(so a fullwidth ``ｅｘａｍｐｌｅ`` *is* ``example`` and no spoof of it). ASCII labels are never flagged: every
browser shows them as they are, and ``paypa1`` is a typo-squat, not a homograph.
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache
from importlib import resources
from typing import NamedTuple

import idna
import regex

# The Script_Extensions values (ISO 15924 codes, Unicode PropertyValueAliases.txt "sc"), less Zzzz (Unknown),
# Zyyy (Common), Zinh (Inherited) and Hrkt (Katakana_Or_Hiragana, used by no character's Script_Extensions).
SCRIPT_CODES = (
    "Latn Bopo Grek Copt Cyrl Armn Hebr Arab Syrc Thaa Nkoo Samr Mand Deva Beng Guru Gujr Orya Taml Telu Knda Mlym "
    "Sinh Thai Laoo Tibt Mymr Geor Hang Ethi Cher Cans Ogam Runr Tglg Hano Buhd Tagb Khmr Mong Limb Tale Talu Bugi "
    "Lana Bali Sund Batk Lepc Olck Brai Glag Tfng Hani Hira Kana Yiii Lisu Vaii Bamu Sylo Phag Saur Kali Rjng Java "
    "Cham Tavt Mtei Linb Lyci Cari Ital Goth Perm Ugar Xpeo Dsrt Shaw Osma Osge Elba Aghb Vith Todr Lina Cprt Armi "
    "Palm Nbat Hatr Phnx Lydi Sidt Mero Merc Khar Sarb Narb Mani Avst Prti Phli Phlp Orkh Hung Rohg Gara Yezi Sogo "
    "Sogd Ougr Chrs Elym Brah Kthi Sora Cakm Mahj Shrd Khoj Mult Sind Gran Tutg Newa Tirh Sidd Modi Takr Ahom Dogr "
    "Wara Diak Nand Zanb Soyo Pauc Sunu Bhks Marc Gonm Gong Tols Maka Kawi Xsux Cpmn Egyp Hluw Gukh Mroo Tnsa Bass "
    "Hmng Krai Medf Berf Miao Tang Nshu Kits Dupl Sgnw Hmnp Toto Wcho Nagm Onao Tayo Mend Adlm"
).split()
# TR39 5.1: "Han ... Hanb, Jpan, Kore; Hiragana, Katakana ... Jpan; Hangul ... Kore; Bopomofo ... Hanb": the
# augmented script sets, so that Japanese (Han + kana) and Korean (Han + Hangul) labels are single-script.
_AUGMENTED = {
    "Hani": ("Hanb", "Jpan", "Kore"), "Hira": ("Jpan",), "Kana": ("Jpan",), "Hang": ("Kore",), "Bopo": ("Hanb",)
}
ALL = frozenset({"ALL"})  # TR39 5.1: the script set of Common and Inherited characters, which join any script


@cache
def _script_patterns() -> tuple[tuple[str, regex.Pattern[str]], ...]:
    return tuple((code, regex.compile(rf"\p{{scx={code}}}")) for code in SCRIPT_CODES)


@lru_cache(maxsize=4096)
def augmented_scripts(character: str) -> frozenset[str]:
    """TR39 5.1: the augmented script set of *character* (its Script_Extensions, Han/kana/Hangul/Bopomofo
    augmented); :data:`ALL` for Common and Inherited characters (and any in no listed script)."""
    found = {code for code, pattern in _script_patterns() if pattern.match(character)}
    if not found:
        return ALL
    for code in list(found):
        found.update(_AUGMENTED.get(code, ()))
    return frozenset(found)


def resolved_scripts(label: str) -> frozenset[str]:
    """TR39 5.1: the resolved script set of *label*, the intersection of its characters' augmented script sets
    (:data:`ALL` when every character is Common or Inherited); empty means the label mixes scripts."""
    result = ALL
    for character in label:
        scripts = augmented_scripts(character)
        if scripts is ALL:
            continue
        result = scripts if result is ALL else result & scripts
        if not result:
            break
    return result


# TR39 5.2, Highly Restrictive: besides single-script strings, those "covered by" Latin + Han + Hiragana + Katakana,
# Latin + Han + Bopomofo or Latin + Han + Hangul; with the augmented sets, Latin and Jpan, Hanb or Kore.
_HIGHLY_RESTRICTIVE_COVERS = (frozenset({"Latn", "Jpan"}), frozenset({"Latn", "Hanb"}), frozenset({"Latn", "Kore"}))


def highly_restrictive(label: str) -> bool:
    """TR39 5.2: whether *label* is single-script (a non-empty resolved script set) or covered by one of the
    Highly Restrictive script sets (Latin with Japanese, Chinese or Korean): what browsers show in Unicode."""
    if resolved_scripts(label):
        return True
    sets = [scripts for scripts in map(augmented_scripts, label) if scripts is not ALL]
    return any(all(scripts & cover for scripts in sets) for cover in _HIGHLY_RESTRICTIVE_COVERS)


@cache
def _prototypes() -> dict[str, str]:
    """confusables.txt (UTS #39 13.0.0, vendored with its licence): source character -> prototype string."""
    table: dict[str, str] = {}
    text = resources.files("linkkit.security").joinpath("data/confusables.txt").read_text(encoding="utf-8")
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        source, _, prototype = line.partition(";")
        table[chr(int(source, 16))] = "".join(chr(int(code, 16)) for code in prototype.split())
    return table


_DEFAULT_IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")


def skeleton(text: str) -> str:
    """TR39 4, *skeleton(X)*: NFD, default-ignorable code points removed, each character replaced by its
    prototype (confusables.txt), NFD again. Two strings are confusable when their skeletons are equal.

    >>> skeleton("ѕсоре") == skeleton("scope")
    True
    """
    prototypes = _prototypes()
    decomposed = _DEFAULT_IGNORABLE.sub("", unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", "".join(prototypes.get(c, c) for c in decomposed))


class Label(NamedTuple):
    """One label of a host: where it lies in the host as written, and its Unicode form as a browser reads it."""

    start: int
    end: int
    unicode: str  # xn-- decoded, UTS 46 mapped (lower case)


def _unicode_label(written: str) -> str | None:
    """The label a browser compares: an ``xn--`` label decoded (IDNA 2008, else plain Punycode, RFC 3492), any
    label mapped by UTS 46; None when it cannot be read (invalid Punycode, a disallowed code point)."""
    try:
        mapped = idna.uts46_remap(written, std3_rules=False, transitional=False)
    except (idna.IDNAError, UnicodeError, ValueError):
        return None
    if mapped[:4] != "xn--":
        return mapped
    try:
        return str(idna.decode(mapped))
    except (idna.IDNAError, UnicodeError, ValueError):
        pass
    try:
        return mapped[4:].encode("ascii").decode("punycode").lower()
    except (UnicodeError, ValueError):
        return None


# UTS 46 / IDNA label separators: "." and the ideographic and fullwidth full stops (RFC 3490 3.1).
LABEL_SEPARATORS = regex.compile(r"[.\u3002\uFF0E\uFF61]")


def labels(host: str) -> list[Label]:
    """The labels of a reg-name *host* that are not plain ASCII letters, digits and hyphens, read as a browser
    reads them (an all-LDH label that is no ``xn--`` label is shown as it is and needs no check)."""
    found = []
    start = 0
    for separator in [*LABEL_SEPARATORS.finditer(host), None]:
        end = len(host) if separator is None else separator.start()
        written = host[start:end]
        if written and (not written.isascii() or written[:4].lower() == "xn--"):
            unicode = _unicode_label(written)
            if unicode is not None and not unicode.isascii():
                found.append(Label(start, end, unicode))
        if separator is not None:
            start = separator.end()
    return found


def ascii_lookalike(label: str) -> str | None:
    """The all-ASCII label whose skeleton equals *label*'s (TR39 4: confusable), or None for an ASCII label.

    The label offered is *label* with each non-ASCII character replaced by its own skeleton (``mоre`` with a
    Cyrillic ``о`` gives ``more``), else the skeleton itself (a fixed point of ``skeleton``).

    >>> ascii_lookalike("pаypal"), ascii_lookalike("bücher")
    ('paypal', None)
    """
    if label.isascii():
        return None
    shape = skeleton(label)
    if not shape.isascii():
        return None
    lookalike = "".join(c if c.isascii() else skeleton(c) for c in label)
    if lookalike.isascii() and lookalike != label and skeleton(lookalike) == shape:
        return lookalike
    return shape if skeleton(shape) == shape else None
