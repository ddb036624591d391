"""The delimiting rules of the plain-text scanner, as data: each entry says what a character does at the edge of a
reference and why (RFC 3986 appendix C, RFC 2396 appendix E, the RFC 1738 appendix).  The scanner compiles its
patterns from these tables; changing a rule is changing an entry here."""

from __future__ import annotations

from .reference import Delimiter

# --- bounds: every walk is bounded or consumes what it walks over -----------------------------------------------

MAX_SCHEME = 64  # the longest IANA scheme name has 38 characters; a longer run before ":" is prose or code
MAX_LOCAL_PART = 64  # RFC 5321 4.5.3.1.1: a local-part has at most 64 octets
MAX_WRAP = 64  # whitespace that may wrap a reference: around a line break, between "<", "URL:" and the scheme


# --- character classes: derived from linkkit.charset (RFC 3986 section 2), never retyped ---------------------------

# The letters of the scripts that write words without spaces between them (Chinese and Japanese prose glues words to
# "nntp:" and to a local part).
CJK_LETTERS = r"\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}"

# Punctuation inside a word (Unicode Standard Annex #29, "Word Boundaries", WB6 and WB7: a MidLetter between two
# letters joins them): a reference keeps the mark between two of its letters and ends before it anywhere else (rule
# 10), in a host name too, where IDNA lets the middle dots, the Hebrew marks and the katakana middle dot stand by
# such letters (RFC 5892 appendix A.3, A.5-A.7: "www.col·legi.cat").  Each mark with the letters that it joins and
# why.  The colons of MidLetter are left out: a ":" ends prose and "：" is CJK punctuation.
WORD_INNER_MARKS: dict[str, tuple[str, str]] = {
    "\u00b7": (r"\p{L}", "MIDDLE DOT: Catalan's ela geminada ('Paral·lel'), the dot of a Chinese transcribed name"),
    "\u0387": (r"\p{L}", "GREEK ANO TELEIA: MidLetter, canonically the same as U+00B7 (NFC)"),
    "\u055f": (r"\p{L}", "ARMENIAN ABBREVIATION MARK: written inside the word it abbreviates"),
    "\u05f4": (r"\p{L}", "HEBREW PUNCTUATION GERSHAYIM: an acronym's 'צה״ל'"),
    "\u2027": (r"\p{L}", "HYPHENATION POINT: the name dot of Traditional Chinese (cp950 0xA145), '威廉‧莎士比亞'"),
    "\u0f0b": (r"\p{L}", "TIBETAN MARK INTERSYLLABIC TSHEG: ends each syllable of a word, 'བོད་ཡིག' (no MidLetter, "
               "but Tibetan's only mark between the syllables of a word)"),
    # between CJK letters: the parts of a transcribed name in Japanese and Chinese text ('レオナルド・ダ・ヴィンチ', one
    # Wikipedia title); after an ASCII letter it lists ('faq・お問い合わせ'), as it does in other places in CJK prose.
    "\u30fb": (CJK_LETTERS + "\u30fc\uff70", "KATAKANA MIDDLE DOT between the parts of a name"),
    "\uff65": (CJK_LETTERS + "\u30fc\uff70", "HALFWIDTH KATAKANA MIDDLE DOT, the same"),
}
# Punctuation by category that UAX #29 counts as a letter of a word (Word_Break ALetter), kept wherever it stands:
# the Armenian emphasis, exclamation and question marks, written over the vowel they stress ('ո՞ւ'), and HEBREW
# PUNCTUATION GERESH ('ג׳ורג׳').
LETTER_PUNCTUATION = "\u055b\u055c\u055e\u05f3"


def _word_inner_items(gap: str = "") -> str:
    """WORD_INNER_MARKS as alternatives of a pattern, one for the marks that join the same letters, each mark between
    two of them and *gap* (whitespace that is ignored)."""
    by_letters: dict[str, str] = {}
    for mark, (letters, _) in WORD_INNER_MARKS.items():
        by_letters[letters] = by_letters.get(letters, "") + mark
    return "|".join(
        rf"[{marks}](?<=[{letters}\p{{M}}]{gap}.)(?={gap}[{letters}])" for letters, marks in by_letters.items()
    )


# WORD_INNER_MARKS as a pattern: each mark between the letters it joins.
WORD_INNER = _word_inner_items()

# RFC 3987 2.2 (ucschar): non-ASCII letters, marks, digits and symbols ("http://🍄.example/", "/¢/") belong to
# an IRI and are kept as written, as are ZERO WIDTH (NON-)JOINER, which Indic words and emoji sequences need, and the
# punctuation of words above.  Unicode punctuation, spaces and controls ("。，、）」…", NO-BREAK SPACE) end a reference
# (RFC 3987 2.2: they are no ucschar); so do the other format characters (ZERO WIDTH SPACE, SOFT HYPHEN, the
# bidirectional controls of RFC 3987 4.1), the full-width forms of ASCII symbols ("｜", "＜", "＝", U+FF01-FF64), which
# CJK prose uses as punctuation -- their full-width letters and digits stay -- and MIDLINE HORIZONTAL ELLIPSIS
# (U+22EF), a math symbol that Chinese prose writes for its centred ellipsis ("⋯⋯").
_IRI_OTHERS = rf"[^\x00-\x7f\p{{P}}\p{{Z}}\p{{C}}\uff01-\uff64\u22ef]|[\p{{L}}\p{{N}}\u200c\u200d{LETTER_PUNCTUATION}]"
IRI_CHARACTERS = _IRI_OTHERS + "|" + WORD_INNER
# Inside <...>, whose whitespace is ignored (rule 3), the letters that a mark joins may stand across whitespace.
ANGLE_IRI_CHARACTERS = _IRI_OTHERS + "|" + _word_inner_items(rf"\s{{0,{MAX_WRAP}}}")

# Unicode's White_Space, the regex package's "\s", as the items of a character class (runs of code points as ranges:
# fewer items to test): what wraps a reference inside <...> and ends a bare one.  The standard library's engine
# counts the information separators U+001C-U+001F as whitespace too; a class of these items means the same in both
# engines (and is decided without a Unicode category lookup).
WHITE_SPACE_ITEMS = r"\t-\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"

# The format characters that show nothing (Unicode's Default_Ignorable_Code_Point among them): SOFT HYPHEN, ARABIC
# LETTER MARK, ZERO WIDTH SPACE, LEFT-TO-RIGHT and RIGHT-TO-LEFT MARK, the bidirectional embeddings, overrides and
# isolates (RFC 3987 4.1: no part of an IRI), WORD JOINER and ZERO WIDTH NO-BREAK SPACE.  A bare reference ends at
# them (rule 10: ZERO WIDTH SPACE separates the words of Thai, Khmer or Japanese text); inside <...>, whose ">" ends
# the reference, a reader sees none of them, and they are ignored as its whitespace is (rule 3): right-to-left text
# wraps a URL in marks or isolates, a web page's text breaks a long one with ZERO WIDTH SPACE.  ZERO WIDTH (NON-)
# JOINER are none of them: they belong to the words of IRIs.
# The bidirectional controls of right-to-left text (RFC 3987 4.1; the Unicode Bidirectional Algorithm, UAX #9): ARABIC
# LETTER MARK, LEFT-TO-RIGHT and RIGHT-TO-LEFT MARK, the embeddings and overrides, the isolates.  Between an opener and
# the reference it delimits (or the reference and its closer) they stand apart from both: '(\u200ehttp://a.example/)'.
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
MAX_BIDI_CONTROLS = 4  # how many of them an opener is looked for across: a mark and an isolate, and their closers
INVISIBLE = "\u00ad\u200b\u2060\ufeff" + BIDI_CONTROLS

# A line break (Unicode Standard Annex #14, the mandatory breaks of classes BK, CR, LF and NL) as the items of a
# character class: LF, VT (the manual line break of word processors and slides), CR, NEL and U+2028 LINE SEPARATOR;
# not the form feed and U+2029 PARAGRAPH SEPARATOR, which end a page and a paragraph, no line.  CR LF is one break.
LINE_BREAK_ITEMS = r"\n\x0b\r\x85\u2028"
LINE_BREAK = rf"(?:\r\n|[{LINE_BREAK_ITEMS}])"
# One line break and the whitespace around it (RFC 2396 appendix E: "ignore all unescaped whitespace around the line
# break"): spaces, tabs, no-break spaces, any of Unicode's White_Space but another break.
_LINE_SPACE = rf"[^\S{LINE_BREAK_ITEMS}\f\u2029]{{0,{MAX_WRAP}}}"
WRAP = _LINE_SPACE + LINE_BREAK + _LINE_SPACE

# A closing bracket ends a bare reference unless an opening partner precedes it inside the reference (policy
# rule 5): "(see http://example.org/)" versus "http://en.example.org/wiki/URI_(disambiguation)"; IPv6 literals
# ("http://[::1]/", RFC 3986 3.2.2) are the reason "[" and "]" are counted too.
CLOSING = {")": "(", "]": "["}

# A "[" that opens forum markup's end tag ("[url]http://example.org/[/url]", "[img]...[/img]", BBCode) ends a bare
# reference, balanced or not: "[" is no path, query or fragment character (RFC 3986 3.3-3.5), and "[/" opens neither an
# IP-literal (3.2.2) nor the "a[1]" that CLOSING keeps.
END_TAG_OPENER = "[/"

# RFC 2396 appendix E, a line break after a hyphen: the hyphens a line may break after, each with its reading in
# ``.uri`` and its other reading (``.alternatives``), RFC 2396 appendix E: "the hyphen may or may not actually be part
# of the URL".
HYPHEN_READINGS = {
    "-": ("-", ""),  # a URI's own "-", or one a typesetter added: kept, else dropped
    # U+2010 HYPHEN is no URI character: groff (every man page) prints it where it breaks a word, but also in
    # place of a word's own "-" -- dropped, else read as that "-".
    "\u2010": ("", "-"),
    # U+00AD SOFT HYPHEN only marks where a word may be broken, and shows only there: dropped either way.
    "\u00ad": ("", ""),
}

# Characters that may appear inside a bare reference but are never its last (RFC 3986 appendix C: "punctuation
# marks that might be mistaken for part of the URI"); a trailing run of them ("...") goes too.  One entry each:
PROSE_PUNCTUATION = {
    ".": "ends a sentence: 'pick it up from http://example.org/.'",
    ",": "separates items of a list: 'http://a.example/, http://b.example/'",
    ";": "separates clauses",
    ":": "introduces what follows: 'at http://example.org/: it says'",
    "!": "ends an exclamation",
    "?": "ends a question: 'did you try http://example.org/?'",
    "'": "closes a single-quoted reference: 'http://example.org/'",
    "*": "closes Markdown emphasis: **http://example.org/** (GFM 6.9 trims it too); a sub-delim that real URIs "
    "hardly ever end with -- unlike the unreserved '_' and '~' (RFC 3986 2.3), which stay",
}

# Emoji (Unicode Technical Standard #51: an Extended_Pictographic character shown as an emoji, by default
# (Emoji_Presentation) or by its emoji variation selector, with its skin-tone modifiers, variation selector and tags,
# joined sequences of them, and the regional-indicator pairs of flags) may appear inside a reference
# ("http://🍄.example/", "/🍄/a") but are never its last characters: right after a reference they are the writer's
# ("see http://example.org/a🎉", "http://example.org/a!👍"), as prose punctuation is. A pictograph shown as text by
# default (UTS #51 4: "©", "®", "™", "❤" without U+FE0F) is a symbol, kept as "★" is: "/Brand™", "/cafÃ©".
_EMOJI_MODIFIERS = r"\p{Emoji_Modifier}\ufe0f\U000e0020-\U000e007f"
_REGIONAL_INDICATORS = r"\U0001f1e6-\U0001f1ff"
# One character of such a run at a time, each with the context that makes it an emoji's (a pictograph shown as one or
# joined to one; a modifier, variation selector or tag after one, at most 8: a flag's tag sequence has 7; a ZERO WIDTH
# JOINER between two): the regex package reads a repeated group of several characters backwards in quadratic time
# (a reference followed by "😀." 200,000 times took 14 s), a character at a time in linear time.
_PICTOGRAPH = r"\p{Extended_Pictographic}"
_EMOJI_BEFORE = (  # an emoji's pictograph and its modifiers, right before what follows
    rf"(?:(?=\p{{Emoji_Presentation}}){_PICTOGRAPH}|{_PICTOGRAPH}(?=\ufe0f)"
    rf"|(?<={_PICTOGRAPH}[{_EMOJI_MODIFIERS}]{{0,8}}\u200d){_PICTOGRAPH})[{_EMOJI_MODIFIERS}]{{0,8}}"
)
TRAILING_EMOJI = (
    rf"(?=\p{{Emoji_Presentation}}){_PICTOGRAPH}|{_PICTOGRAPH}(?=\ufe0f)|(?<={_EMOJI_BEFORE}\u200d){_PICTOGRAPH}"
    rf"|(?<={_EMOJI_BEFORE})[{_EMOJI_MODIFIERS}]|(?<={_EMOJI_BEFORE})\u200d(?={_PICTOGRAPH})"
    rf"|[{_REGIONAL_INDICATORS}]"
)
# Any one character of those emoji.
EMOJI_CHARACTER = rf"[{_PICTOGRAPH}{_EMOJI_MODIFIERS}\u200d{_REGIONAL_INDICATORS}]"

# Openers and the closers that may answer them, for naming the delimiter of a bare reference (delimiters are not part
# of the reference): RFC 3986 appendix C's double quotes, single quotes, the brackets of prose and Markdown, and their
# CJK and full-width forms; and the quotation marks of the other languages whose prose wraps a reference in them,
# each opener with the closers its languages pair it with (the Unicode Standard 6.2, "Quotation Marks": German
# „…“ and Polish „…”, French «…» and German »…«, Swedish »…», ”…” and ’…’; Chinese 〝…〞, Japanese 〝…〟).
ENCLOSERS: dict[str, tuple[str, Delimiter]] = {
    '"': ('"', "quote"),
    "'": ("'", "quote"),
    "\u201c": ("\u201d", "quote"),  # “ ”
    "\u2018": ("\u2019", "quote"),  # ‘ ’
    "\u201e": ("\u201c\u201d", "quote"),  # „ “, „ ”
    "\u201a": ("\u2018\u2019", "quote"),  # ‚ ‘, ‚ ’
    "\u00ab": ("\u00bb", "quote"),  # « »
    "\u00bb": ("\u00ab\u00bb", "quote"),  # » «, » »
    "\u2039": ("\u203a", "quote"),  # ‹ ›
    "\u203a": ("\u2039\u203a", "quote"),  # › ‹, › ›
    "\u201d": ("\u201d", "quote"),  # ” ” (Swedish, Finnish)
    "\u2019": ("\u2019", "quote"),  # ’ ’ (Swedish, Finnish)
    "\u301d": ("\u301e\u301f", "quote"),  # 〝 〞 (Chinese), 〝 〟 (Japanese): the double prime quotation marks
    "\u300c": ("\u300d", "quote"),  # 「 」
    "\u300e": ("\u300f", "quote"),  # 『 』
    "\uff62": ("\uff63", "quote"),  # ｢ ｣ (half-width)
    "\uff02": ("\uff02", "quote"),  # ＂ ＂ (full-width)
    "\uff07": ("\uff07", "quote"),  # ＇ ＇ (full-width)
    "\ufe41": ("\ufe42", "quote"),  # ﹁ ﹂, 「」 of vertical text
    "\ufe43": ("\ufe44", "quote"),  # ﹃ ﹄, 『』 of vertical text
    "(": (")", "bracket"),
    "[": ("]", "bracket"),
    "\uff08": ("\uff09", "bracket"),  # （ ）
    "\uff3b": ("\uff3d", "bracket"),  # ［ ］
    "\u3010": ("\u3011", "bracket"),  # 【 】
    "\u3008": ("\u3009", "bracket"),  # 〈 〉
    "\u300a": ("\u300b", "bracket"),  # 《 》
    "\u3014": ("\u3015", "bracket"),  # 〔 〕
    "\u3016": ("\u3017", "bracket"),  # 〖 〗
    "\u3018": ("\u3019", "bracket"),  # 〘 〙
    "\u301a": ("\u301b", "bracket"),  # 〚 〛
    "\uff1c": ("\uff1e", "bracket"),  # ＜ ＞ (full-width), which CJK prose writes around a URL as around a title
    # ⟨ ⟩ (MATHEMATICAL ANGLE BRACKETS): groff's \[la] and \[ra], which a man page prints around the URL of .UR and
    # the address of .MT (groff_man(7)) on a UTF-8 terminal, where it prints < > on an ASCII one.
    "\u27e8": ("\u27e9", "bracket"),
    "<": (">", "angle"),  # an e-mail in <...>; URIs in <...> take the angle path below
}


# "'" is a URI character (a sub-delim, RFC 3986 2.2) and a quotation mark (policy rule 1's '...'): in a reference that
# a "'" opens, a "'" belongs to it only inside a word ("'http://example.org/it's'"); one that no letter or digit
# follows closes the quotation and ends the reference ("['http://a.example/','http://b.example/']").
QUOTE_MARK = "'"

# A "," or ";" right before another "scheme://" separates two references of a list.
LIST_SEPARATORS = ",;"
