"""The srcset and refresh readers against literal transcriptions of the HTML standard's own algorithms: "parse a
srcset attribute" (4.8.4.3.10, its candidate URLs) and the "shared declarative refresh steps" (7.11.1), step by
step, on generated values made of the characters the algorithms branch on."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from linkkit.html.places import read_refresh, read_srcset

WHITESPACE = "\t\n\f\r "  # Infra: ASCII whitespace


def srcset_urls(value: str) -> list[tuple[int, int, str]]:
    """(start, end, url) of each image candidate, by "parse a srcset attribute" steps 1-8 and the descriptor
    tokenizer's states (the descriptors themselves are collected and dropped: linkkit reports every URL)."""
    position, candidates = 0, list[tuple[int, int, str]]()
    while True:
        # 3. splitting loop: skip ASCII whitespace and commas
        while position < len(value) and value[position] in WHITESPACE + ",":
            position += 1
        if position >= len(value):  # 4.
            return candidates
        start = position  # 5. collect a sequence of code points that are not ASCII whitespace
        while position < len(value) and value[position] not in WHITESPACE:
            position += 1
        url = value[start:position]
        if url.endswith(","):  # 7. remove all trailing commas
            url = url.rstrip(",")
        else:  # 8. tokenize the descriptors
            while position < len(value) and value[position] in WHITESPACE:  # 8.1
                position += 1
            current, state = "", "in descriptor"
            while True:  # 8.5
                c = value[position] if position < len(value) else None
                if state == "in descriptor":
                    if c is not None and c in WHITESPACE:
                        if current:
                            current, state = "", "after descriptor"
                    elif c == ",":
                        position += 1
                        break
                    elif c is None:
                        break
                    else:
                        current += c
                        if c == "(":
                            state = "in parens"
                elif state == "in parens":
                    if c is None:
                        break
                    current += c
                    if c == ")":
                        state = "in descriptor"
                elif c is None:  # after descriptor
                    break
                elif c not in WHITESPACE:
                    state, position = "in descriptor", position - 1
                position += 1
        candidates.append((start, start + len(url), url))


def refresh_url(value: str) -> tuple[int, int, str] | None:
    """(start, end, url) of the URL the shared declarative refresh steps parse, without its surrounding ASCII
    whitespace (which the URL parser strips); None when the steps return or leave the document's own URL."""
    position, length = 0, len(value)

    def skip_whitespace(at: int) -> int:
        while at < length and value[at] in WHITESPACE:
            at += 1
        return at

    position = skip_whitespace(position)  # 2.
    digits = position  # 4. collect ASCII digits
    while position < length and value[position].isascii() and value[position].isdigit():
        position += 1
    if position == digits and value[position : position + 1] != ".":  # 5.
        return None
    while position < length and (value[position] == "." or (value[position].isascii() and value[position].isdigit())):
        position += 1  # 7. digits and full stops, ignored
    if position < length:  # 9.
        if value[position] not in ";," + WHITESPACE:
            return None
        position = skip_whitespace(position)
        if position < length and value[position] in ";,":
            position += 1
        position = skip_whitespace(position)
    if position >= length:  # 10. not reached: no URL
        return None
    start = position  # 10.1 urlString is the remainder
    skip_quotes = False
    if value[position] in "Uu":  # 10.2-10.7
        position += 1
        if position < length and value[position] in "Rr":
            position += 1
            if position < length and value[position] in "Ll":
                position = skip_whitespace(position + 1)
                if position < length and value[position] == "=":
                    position, skip_quotes = skip_whitespace(position + 1), True
    else:
        skip_quotes = True
    end = length
    if skip_quotes:  # 10.8-10.10
        start = position
        if position < length and value[position] in "'\"":
            quote, start = value[position], position + 1
            close = value.find(quote, start)
            end = length if close == -1 else close
    url = value[start:end].strip(WHITESPACE)  # 11. parse (the URL parser strips leading and trailing spaces)
    if not url:
        return None
    start += len(value[start:end]) - len(value[start:end].lstrip(WHITESPACE))
    return start, start + len(url), url


SRCSET_VALUES = st.text(alphabet=" \t\n,()a1wx.", max_size=16)
REFRESH_VALUES = st.text(alphabet=" \t;,.0123uUrRlL=x'\"", max_size=16)


@given(SRCSET_VALUES)
@example("a.png 1x b.png 2x, c,d.png,, (e, f) g.png (1x, 2x), h.png")
@example("a.png (1x, ")
def test_srcset_candidates_are_those_of_parse_a_srcset_attribute(value: str) -> None:
    assert [(start, end, url) for start, end, url, _ in read_srcset(value)] == srcset_urls(value)


@given(REFRESH_VALUES)
@example("0; url = 'a.html' b")
@example(".5,URL x")
@example("1.2.3 ;; u")
def test_refresh_url_is_that_of_the_shared_declarative_refresh_steps(value: str) -> None:
    expected = refresh_url(value)
    assert [(start, end, url) for start, end, url, _ in read_refresh(value)] == ([] if expected is None else [expected])
