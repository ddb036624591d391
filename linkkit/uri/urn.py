"""Uniform Resource Names: the syntax of RFC 8141 section 2 and its URN-equivalence (section 3.1).

    urn:example:foo-bar-baz-qux?+CCResolve:cc=uk?=lang=en#somepart
    \\_/ \\_____/ \\_____________/  \\____________/  \\_____/ \\______/
     |     |          |                |             |        |
  "urn"   NID        NSS          r-component   q-component f-component

The final RFC 8141 is followed. Its draft, draft-ietf-urnbis-rfc2141bis-urn-03 ("the draft"), differs where noted:
it had a plain ``?`` query of ``keywd=value`` directives (2.3) instead of ``?+`` / ``?=``, an NSS without ``/``
(2.2), and two comparison variants (5, steps 5a / 5b). The draft's query is available only on request
(``draft_query=True``, ``draft_step=...``), never by default. RFC 2141's older grammar is ``grammar="rfc2141"``.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from typing import Literal

from ..errors import URISyntaxError
from .charset import ALPHA, DIGIT, PCHAR, SUB_DELIMS, UNRESERVED, always_match, char_class, pct_run
from .percent import upper_percent_hex

Grammar = Literal["rfc8141", "rfc2141"]
DraftStep = Literal["5a", "5b"]

# RFC 8141 2: alphanum = ALPHA / DIGIT; ldh = alphanum / "-"
_ALPHANUM = char_class(ALPHA + DIGIT)
_LDH = char_class(ALPHA + DIGIT + "-")
_LDH_RUN = re.compile(f"{_LDH}*")
# RFC 8141 2: NID = (alphanum) 0*30(ldh) (alphanum)  -- 2 to 32 characters, no hyphen at either end.
# The draft (2.1) had the same rule; RFC 2141 2 allowed 1 to 32 characters and a trailing hyphen:
# <NID> ::= <let-num> [ 1,31<let-num-hyp> ]
_NID = {
    "rfc8141": re.compile(rf"{_ALPHANUM}{_LDH}{{0,30}}{_ALPHANUM}"),
    "rfc2141": re.compile(rf"{_ALPHANUM}{_LDH}{{0,31}}"),
}
_NID_MAX = 32  # both grammars allow at most 32 characters
_NID_RULE = {
    "rfc8141": "NID = (alphanum) 0*30(ldh) (alphanum) (RFC 8141 2)",
    "rfc2141": "<NID> ::= <let-num> [ 1,31<let-num-hyp> ] (RFC 2141 2)",
}
# RFC 8141 5.2: an informal NID is "urn-" followed by the number IANA assigned (no leading zero).
_INFORMAL_NUMBER = re.compile(r"[1-9][0-9]*")

# RFC 8141 2: NSS = pchar *(pchar / "/").  RFC 2141 2.2: <URN chars> ::= <trans> | "%" <hex> <hex>, where
# <trans> is pchar without "&" and "~" (the draft's appendix C; RFC 2141's dangling <reserved> alternative,
# "/" "?" "#" and "%", is left out as the draft and RFC 8141 explain).
# Every repetition is a possessive pct_run, linear however long the name (RFC 8141 sets no length limit).
_PCHAR = char_class(PCHAR, pct_encoded=True)
_TRANS_2141_CHARS = "".join(c for c in PCHAR if c not in "&~")
_NSS = {
    "rfc8141": re.compile(_PCHAR + pct_run(PCHAR + "/")),
    "rfc2141": re.compile(char_class(_TRANS_2141_CHARS, pct_encoded=True) + pct_run(_TRANS_2141_CHARS)),
}
_NSS_RULE = {
    "rfc8141": 'NSS = pchar *(pchar / "/") (RFC 8141 2)',
    "rfc2141": "<NSS> ::= 1*<URN chars> (RFC 2141 2.2)",
}
# RFC 8141 2: r-component = q-component = pchar *( pchar / "/" / "?" ).  A "?" that starts "?+" or "?="
# would open a second component, so it ends the run here (a second "?+" or "?=" is a syntax error).
_COMPONENT = re.compile(_PCHAR + pct_run(PCHAR + "/", between=r"\?(?![+=])"))
# RFC 3986 3.5: fragment = *( pchar / "/" / "?" )  (RFC 8141 2: f-component = fragment)
_FRAGMENT = re.compile(pct_run(PCHAR + "/?"))
# Draft 2.3: urn-query = directive *( "&" directive ); directive = keywd "=" value;
# keywd = ALPHA *( ["-"] (ALPHA / DIGIT) ); value = *v-pchar (pchar and "/" "?" without "&").
_V_PCHARS = UNRESERVED + SUB_DELIMS.replace("&", "") + ":@/?"
_DIRECTIVE = rf"{char_class(ALPHA)}{_ALPHANUM}*+(?:-{_ALPHANUM}++)*+={pct_run(_V_PCHARS)}"
_DRAFT_QUERY = re.compile(rf"{_DIRECTIVE}(?:&{_DIRECTIVE})*+")


class URNError(URISyntaxError):
    """A string is not a URN: ``.position`` (0-based) and ``.rule`` say where and which ABNF rule failed."""


@dataclass(frozen=True, slots=True)
class URN:
    """A parsed URN (RFC 8141 2); every part is kept as written, so ``str(urn)`` gives back the input.

    ``query`` is the draft's plain ``?`` query (the draft's 2.3), set only when parsed with ``draft_query=True``.
    """

    nid: str
    nss: str
    r_component: str | None = None
    q_component: str | None = None
    f_component: str | None = None
    query: str | None = None
    scheme: str = "urn"

    @property
    def assigned_name(self) -> str:
        """``"urn" ":" NID ":" NSS`` as written (RFC 8141 2), without the r-, q- and f-components."""
        return f"{self.scheme}:{self.nid}:{self.nss}"

    @property
    def is_informal(self) -> bool:
        """True for an informal namespace, ``urn-<number>`` (RFC 8141 5.2)."""
        return self.nid[:4].lower() == "urn-"

    @property
    def directives(self) -> tuple[tuple[str, str], ...]:
        """The draft's query directives ``keywd=value`` in order (the draft's 2.3); empty without a draft query."""
        if self.query is None:
            return ()
        return tuple((keyword, value) for keyword, _, value in (d.partition("=") for d in self.query.split("&")))

    def __str__(self) -> str:
        text = self.assigned_name
        if self.r_component is not None:
            text += "?+" + self.r_component
        if self.q_component is not None:
            text += "?=" + self.q_component
        if self.query is not None:
            text += "?" + self.query
        if self.f_component is not None:
            text += "#" + self.f_component
        return text


def _fail_in_run(text: str, pos: int, rule: str) -> URNError:
    # A run stopped at *pos*: blame a malformed "%" triplet there if there is one, else the rule itself.
    if text.startswith("%", pos):
        return URNError(text, pos, 'pct-encoded = "%" HEXDIG HEXDIG (RFC 3986 2.1)')
    return URNError(text, pos, rule)


def _parse_nid(text: str, grammar: Grammar) -> int:
    """Check the NID that starts at 4; return the position of the ":" after it."""
    end = always_match(_LDH_RUN, text, 4).end()
    nid = text[4:end]
    rule = _NID_RULE[grammar]
    if not _NID[grammar].fullmatch(nid):
        if nid[:1] in ("", "-"):
            raise URNError(text, 4, rule)
        # Too long: blame the first character past the limit; else an alphanum is missing at the end.
        raise URNError(text, 4 + _NID_MAX if len(nid) > _NID_MAX else end, rule)
    if end >= len(text) or text[end] != ":":
        raise URNError(text, end, f'":" after the NID, {rule}')
    lowered = nid.lower()
    if lowered == "urn":
        # RFC 2141 2 and the draft 2.1: the NID "urn" is reserved, to avoid confusion with the scheme.
        raise URNError(text, 4, 'an NID other than the reserved "urn" (RFC 2141 2)')
    if grammar == "rfc8141" and lowered.startswith("urn-") and not _INFORMAL_NUMBER.fullmatch(nid, 4):
        raise URNError(text, 8, 'informal NID = "urn-" number, without leading zero (RFC 8141 5.2)')
    return end


def parse_urn(text: str, *, grammar: Grammar = "rfc8141", draft_query: bool = False) -> URN:
    """Parse *text* as a URN by the ABNF of RFC 8141 2 (or of RFC 2141 2 with ``grammar="rfc2141"``).

    Raises :class:`URNError` (a :class:`~linkkit.errors.URIError`) naming the position and the rule broken.
    With ``draft_query=True`` a ``?`` not followed by ``+`` or ``=`` starts the draft's query of
    ``keywd=value`` directives (the draft's 2.3); RFC 8141 2 calls such a ``?`` a syntax error.

    >>> parse_urn("urn:example:weather?=op=map#top").q_component
    'op=map'
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_urn() takes a str, not {type(text).__name__}")
    if text[:4].lower() != "urn:":
        position = next((i for i, c in enumerate("urn:") if text[i : i + 1].lower() != c), 0)
        raise URNError(text, position, 'assigned-name = "urn" ":" NID ":" NSS (RFC 8141 2)')
    colon = _parse_nid(text, grammar)
    nid = text[4:colon]
    start = colon + 1
    nss_rule = _NSS_RULE[grammar]
    match = _NSS[grammar].match(text, start)
    if match is None:
        raise _fail_in_run(text, start, nss_rule)
    pos = match.end()
    nss = text[start:pos]
    if grammar == "rfc2141":
        if pos != len(text):
            raise _fail_in_run(text, pos, nss_rule)
        return URN(nid, nss, scheme=text[:3])
    return _parse_components(text, nid, nss, pos, draft_query, nss_rule)


def _parse_components(text: str, nid: str, nss: str, pos: int, draft_query: bool, nss_rule: str) -> URN:
    # RFC 8141 2: namestring = assigned-name [ rq-components ] [ "#" f-component ]
    r_component = q_component = query = f_component = None
    if text.startswith("?+", pos):
        match = _COMPONENT.match(text, pos + 2)
        if match is None:
            raise _fail_in_run(text, pos + 2, 'r-component = pchar *( pchar / "/" / "?" ) (RFC 8141 2)')
        r_component, pos = match.group(), match.end()
    if text.startswith("?=", pos):
        match = _COMPONENT.match(text, pos + 2)
        if match is None:
            raise _fail_in_run(text, pos + 2, 'q-component = pchar *( pchar / "/" / "?" ) (RFC 8141 2)')
        q_component, pos = match.group(), match.end()
    if draft_query and r_component is None and q_component is None and text.startswith("?", pos):
        match = _DRAFT_QUERY.match(text, pos + 1)
        if match is None:
            raise _fail_in_run(text, pos + 1, 'urn-query = directive *( "&" directive ) (draft 2.3)')
        query, pos = match.group(), match.end()
    if text.startswith("#", pos):
        match = always_match(_FRAGMENT, text, pos + 1)
        f_component, pos = match.group(), match.end()
        if pos != len(text):
            raise _fail_in_run(text, pos, 'f-component = fragment (RFC 8141 2, RFC 3986 3.5)')
    if pos != len(text):
        if text.startswith("?+", pos):
            rule = "at most one r-component, before the q-component (RFC 8141 2)"
        elif text.startswith("?=", pos):
            rule = "at most one q-component (RFC 8141 2)"
        elif text.startswith("?", pos):
            rule = 'a "?" only as "?+" or "?=" (RFC 8141 2)'
        elif r_component is None and q_component is None and query is None:
            rule = nss_rule
        else:
            rule = 'pchar / "/" / "?" (RFC 8141 2)'
        raise _fail_in_run(text, pos, rule)
    return URN(nid, nss, r_component, q_component, f_component, query, text[:3])


# What breaks the rest of a namestring in any component (RFC 8141 2): "[" and "]", the gen-delims that no
# component takes, and a "%" that starts no pct-encoded triplet (RFC 3986 2.1). Every other character is pchar,
# "/", "?" or "#", or no ASCII URI character at all, which an IRI's reader percent-encodes into pchar (RFC 3987 3.1).
_NEVER = re.compile(r"[\[\]]|%(?![0-9A-Fa-f]{2})")
# "?+" opens the r-component and "?=" the q-component; any other "?" is data of a component (RFC 8141 2).
_COMPONENT_OPENER = re.compile(r"\?[+=]")
_HASH = re.compile("#")
_QUESTION = re.compile(r"\?")
_NOT_A_PCHAR = "/?#"  # what NSS, r-component and q-component may not start with: each begins with a pchar


class NamestringTails:
    """Every suffix of ``text[start:end]`` judged as what follows ``"urn" ":" NID ":"`` in a URN (RFC 8141 2),
    ``NSS [ "?+" r-component ] [ "?=" q-component ] [ "#" f-component ]``, in one linear pass for them all.

    A scanner meets one "urn:" inside another's run ("urn:a:b/urn:c:d/..."): parsing each from its start would
    read the rest of the run once per "urn:". ``valid(x)`` answers for the suffix from *x* in O(log n), as
    :func:`is_urn` answers for ``"urn:X:" + text[x:end]`` with its IRI characters percent-encoded.
    """

    def __init__(self, text: str, start: int, end: int) -> None:
        self._text, self._end = text, end
        self._never = [match.start() for match in _NEVER.finditer(text, start, end)]
        self._hashes = [match.start() for match in _HASH.finditer(text, start, end)]
        self._openers = [match.start() for match in _COMPONENT_OPENER.finditer(text, start, end)]
        openers = set(self._openers)
        questions = (match.start() for match in _QUESTION.finditer(text, start, end))
        self._plain_questions = [at for at in questions if at not in openers]

    def valid(self, at: int) -> bool:
        """Whether ``text[at:end]`` is an NSS and the components after it (RFC 8141 2)."""
        text, end = self._text, self._end
        if at >= end or text[at] in _NOT_A_PCHAR or (self._never and self._never[-1] >= at):
            return False
        first_hash = bisect_left(self._hashes, at)
        if len(self._hashes) - first_hash > 1:
            return False  # f-component = fragment, which holds no "#" (RFC 3986 3.5)
        fragment = self._hashes[first_hash] if first_hash < len(self._hashes) else end
        low, high = bisect_left(self._openers, at), bisect_left(self._openers, fragment)
        if high - low > 2:
            return False  # rq-components = [ "?+" r-component ] [ "?=" q-component ]: at most two openers
        openers = self._openers[low:high]
        if "".join(text[opener + 1] for opener in openers) not in ("", "+", "=", "+="):
            return False  # each at most once, the r-component first
        nss_end = openers[0] if openers else fragment
        question = bisect_left(self._plain_questions, at)
        if question < len(self._plain_questions) and self._plain_questions[question] < nss_end:
            return False  # NSS = pchar *(pchar / "/"): a "?" in it must open a component
        return all(opener + 2 < end and text[opener + 2] not in _NOT_A_PCHAR for opener in openers)


def is_urn(text: str, *, grammar: Grammar = "rfc8141") -> bool:
    """Whether *text* is a URN by the grammar of RFC 8141 2 (or RFC 2141 2)."""
    try:
        parse_urn(text, grammar=grammar)
    except URNError:
        return False
    return True


def _comparison_key(urn: URN, draft_step: DraftStep | None) -> tuple[str, ...]:
    # RFC 8141 3.1: (1) "urn" and (2) the NID case-normalized, (3) percent-encoding hex case-normalized
    # (never decoded), (4) r-, q- and f-components removed. NID and "urn" are ASCII, so lower() is exact.
    key: tuple[str, ...] = (urn.nid.lower(), upper_percent_hex(urn.nss))
    if draft_step == "5b" and urn.query is not None:
        # Draft 5 step 5b: the directives reordered into a preferred (here: sorted) order, hex case-normalized.
        key += tuple(sorted(upper_percent_hex(directive) for directive in urn.query.split("&")))
    return key


def equivalent(a: str, b: str, *, grammar: Grammar = "rfc8141", draft_step: DraftStep | None = None) -> bool:
    """Whether *a* and *b* are URN-equivalent (RFC 8141 3.1); False unless both are URNs.

    Case of ``urn`` and of the NID and of percent-encoding hex is ignored, and so are the r-, q- and
    f-components; percent-encoding is never decoded and everything else is compared case-sensitively.
    ``draft_step="5a"`` / ``"5b"`` also accept the draft's ``?`` query and drop it (5a) or compare its
    directives in sorted order (5b), as the draft's section 5 does; the default follows RFC 8141.
    A string that is not a URN is equivalent to nothing, not even itself: it names no URN.

    >>> equivalent("URN:EXAMPLE:a123%2cz456", "urn:example:a123%2Cz456?+abc")
    True
    """
    draft = draft_step is not None
    try:
        ua = parse_urn(a, grammar=grammar, draft_query=draft)
        ub = parse_urn(b, grammar=grammar, draft_query=draft)
    except URNError:
        return False
    return _comparison_key(ua, draft_step) == _comparison_key(ub, draft_step)


def normalize_urn(text: str, *, grammar: Grammar = "rfc8141", components: bool = True) -> str:
    """The lexically normalized form of URN *text*: ``urn`` and the NID lower-cased, hex upper-cased.

    Percent-encoding is never decoded (RFC 8141 3.1). The r-, q- and f-components are kept, their hex
    upper-cased too (RFC 3986 6.2.2.1), so rewriting a URN never loses them; ``components=False`` drops
    them and gives the comparison key of RFC 8141 3.1 step 4. Raises :class:`URNError` on a non-URN.

    >>> normalize_urn("URN:FOO:a123%2c456#xyz")
    'urn:foo:a123%2C456#xyz'
    """
    urn = parse_urn(text, grammar=grammar)
    result = f"urn:{urn.nid.lower()}:{upper_percent_hex(urn.nss)}"
    if not components:
        return result
    if urn.r_component is not None:
        result += "?+" + upper_percent_hex(urn.r_component)
    if urn.q_component is not None:
        result += "?=" + upper_percent_hex(urn.q_component)
    if urn.f_component is not None:
        result += "#" + upper_percent_hex(urn.f_component)
    return result
