"""The same rewriting on trees others have built: lxml and BeautifulSoup (imported only when used)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ..uri.resolution import Base
from .base import _base, _target
from .css import _css_escape
from .places import ASCII_WHITESPACE, CSS, FOREIGN_PLACES, GLOBAL_PLACES, PLACES, REFRESH, Link
from .rewrite import _held, _held_after, _written
from .tokenizer import _INTEGRATION_POINTS, RAW_TEXT, READERS

# ------------------------------------------------------------------------------------- trees others have built
_NAMESPACES = {"http://www.w3.org/1999/xhtml": "html", "http://www.w3.org/2000/svg": "svg",
               "http://www.w3.org/1998/Math/MathML": "math"}
_XLINK = "{http://www.w3.org/1999/xlink}"
# An element of a tree, its lower-case local name, its namespace ("html", "svg", "math"), inside a template?
_Element = tuple[Any, str, str, bool]


def _walk(
    root: Any, children: Callable[[Any], list[Any]], name: Callable[[Any], tuple[str | None, str | None]]
) -> Iterator[_Element]:
    """The elements under *root* in tree order, with the namespace and template context of each."""
    pending: list[tuple[Any, str, bool]] = [(root, "html", False)]
    while pending:
        element, namespace, template = pending.pop()
        uri, local = name(element)
        if local is None:
            continue
        local = local.lower()
        if uri in _NAMESPACES:
            namespace = _NAMESPACES[uri]
        elif namespace == "html" and local in ("svg", "math"):
            namespace = local
        yield element, local, namespace, template
        inner = "html" if namespace != "html" and local in _INTEGRATION_POINTS[namespace] else namespace
        inside = template or (local == "template" and namespace == "html")
        pending.extend((child, inner, inside) for child in reversed(children(element)))


def _replaced(text: str, kind: str, make: Callable[[str, tuple[int, int]], Link], repl: Callable[[Link], str],
              style_text: bool = False) -> str | None:
    """*text*, a value of this *kind* of place (the text of a <style> if *style_text*), with each URL replaced by
    ``repl``, or None when none changes. A new value is held as :func:`linkkit.html.rewrite` holds it (what the place
    cannot hold percent-encoded, CSS escapes, no "</" in style text), so that it reads back the same once the tree
    is serialized; the serializer does the markup's escaping."""
    pieces, position = [], 0
    for start, end, raw, css in list(READERS[kind](text)):
        new = repl(make(raw, (start, end)))
        if new != raw:
            new = _held(new, kind)
            if kind == REFRESH:
                new = _held_after(text[:start], new)
            if style_text:
                new = _written(new, css, RAW_TEXT)[0]
            elif css is not None:
                new = _css_escape(new, css)
            pieces += [text[position:start], new]
            position = end
    return None if not pieces else "".join(pieces) + text[position:]


def _rewrite_elements(elements: list[_Element], attributes: Callable[[Any], dict[str, tuple[str, str]]],
                      set_attribute: Callable[[Any, str, str], None], style: Callable[[Any], str | None],
                      set_style: Callable[[Any, str], None], repl: Callable[[Link], str], base_url: str | None) -> None:
    """The rewriting of :func:`rewrite`, on a tree: the same places, base and resolution."""
    base_href = None
    for element, tag, namespace, template in elements:
        if tag == "base" and namespace == "html" and not template and "href" in attributes(element):
            base_href = attributes(element)["href"][1].strip(ASCII_WHITESPACE)
            break
    base = _base(base_href, base_url)
    parsed_base = None if base is None else Base(base)
    parsed_base_url = None if base_url is None else Base(base_url)

    def maker(tag: str, attr: str | None, is_base: bool) -> Callable[[str, tuple[int, int]], Link]:
        def make(raw: str, span: tuple[int, int]) -> Link:
            if is_base:  # a <base href> is resolved against the retrieval URL (its fallback base)
                return Link(tag, attr, raw, _target(raw, parsed_base_url), span, base_url)
            return Link(tag, attr, raw, _target(raw, parsed_base), span, base)

        return make

    for element, tag, namespace, _ in elements:
        attrs = attributes(element)
        places = FOREIGN_PLACES if namespace != "html" else {**PLACES.get(tag, {}), **GLOBAL_PLACES}
        for name, kind in places.items():
            if name in attrs:
                key, value = attrs[name]
                make = maker(tag, name, tag == "base" and namespace == "html" and name == "href")
                new = _replaced(value, kind, make, repl)
                if new is not None:
                    set_attribute(element, key, new)
        if tag == "meta" and "content" in attrs and attrs.get("http-equiv", ("", ""))[1].lower() == "refresh":
            key, value = attrs["content"]
            new = _replaced(value, REFRESH, maker(tag, "content", False), repl)
            if new is not None:
                set_attribute(element, key, new)
        if tag == "style":
            text = style(element)
            if text:
                new = _replaced(text, CSS, maker(tag, None, False), repl, style_text=True)
                if new is not None:
                    set_style(element, new)


def rewrite_lxml(tree: Any, repl: Callable[[Link], str], *, base_url: str | None = None) -> Any:
    """The rewriting of :func:`rewrite` on an lxml tree (``lxml.html`` or ``lxml.etree``), in place; returns it.

    The bytes are not preserved: serializing the tree writes it anew. Spans are offsets in the attribute
    value or the <style> text. Values are written unescaped (but CSS escapes); the serializer escapes them.
    """
    root = tree.getroot() if hasattr(tree, "getroot") else tree

    def name(element: Any) -> tuple[str | None, str | None]:
        if not isinstance(element.tag, str):  # comments, processing instructions, entities
            return None, None
        uri, _, local = element.tag[1:].partition("}") if element.tag[:1] == "{" else ("", "", element.tag)
        return uri, local

    def attributes(element: Any) -> dict[str, tuple[str, str]]:
        result: dict[str, tuple[str, str]] = {}
        for key, value in element.attrib.items():
            result.setdefault(("xlink:" + key[len(_XLINK):]) if key.startswith(_XLINK) else key.lower(), (key, value))
        return result

    def set_style(element: Any, text: str) -> None:
        element.text = text

    _rewrite_elements(list(_walk(root, list, name)), attributes, lambda e, k, v: e.set(k, v),
                      lambda e: e.text, set_style, repl, base_url)
    return tree


def rewrite_soup(soup: Any, repl: Callable[[Link], str], *, base_url: str | None = None) -> Any:
    """The rewriting of :func:`rewrite` on a BeautifulSoup tree, in place; returns it.

    The bytes are not preserved: serializing the tree writes it anew. Spans are offsets in the attribute
    value or the <style> text. Values are written unescaped (but CSS escapes); the serializer escapes them.
    """
    from bs4.element import Tag

    def name(element: Any) -> tuple[str | None, str | None]:
        if element.name == "[document]":
            return None, "#document"
        return getattr(element, "namespace", None), element.name

    def attributes(element: Any) -> dict[str, tuple[str, str]]:
        result: dict[str, tuple[str, str]] = {}
        for key, value in element.attrs.items():
            result.setdefault(key.lower(), (key, " ".join(value) if isinstance(value, list) else value))
        return result

    def set_attribute(element: Any, key: str, value: str) -> None:
        element[key] = value

    def style(element: Any) -> str | None:
        text = element.string
        return None if text is None else str(text)

    def set_style(element: Any, text: str) -> None:
        element.string.replace_with(type(element.string)(text))

    def children(element: Any) -> list[Any]:
        return [child for child in element.children if isinstance(child, Tag)]

    _rewrite_elements(list(_walk(soup, children, name)), attributes, set_attribute, style, set_style, repl, base_url)
    return soup
