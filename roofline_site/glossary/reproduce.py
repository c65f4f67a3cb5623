""" "Reproduce the numbers on this page": the Python call behind each number, and a citation.

Every ``{{ quantity ... }}`` a page shows is one call of
:func:`roofline_core.quantities.evaluate`; this module writes that call as Python a reader can
paste into a notebook with the package installed, and it prints exactly the text the page shows.
A page's snippets are one script file (:func:`numbers_script`), linked from a collapsed
``<details>`` after a term page's sources (at the end of a docs page with numbers), with one
citation for the page (title, permalink, data version, build date);
each number in the prose is wrapped in ``<span class="roofline-quantity" data-quantity="N">``
so the browser can offer "Copy as Python" and "Cite" on the number itself
(``site_assets/glossary/quantities.mjs``, which copies the text written here and computes
nothing).

An entry's body is contributor Markdown and is sanitised by allowlist after rendering
(:mod:`roofline_site.glossary.sanitize`), so the wrapper cannot be written into the Markdown
as it is: the class and the attribute would be stripped, and if they were allowed, an entry
could forge them. Instead the rewrite inserts a marker, ``<span data-roofline-quantity="T-N">``,
where ``T`` is :func:`marker_token` of the entry's own Markdown; the sanitiser keeps that
attribute only with those exact values, and :func:`finish_markers` turns the survivors into the
wrapper. The token is a digest of the body it must appear in, so the body cannot contain it.
"""

from __future__ import annotations

import hashlib
import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from roofline_core.quantities import QuantityError, evaluate_reference, parse_reference
from roofline_core.version import data_version
from roofline_site.wheel import current_install_comment

#: Class of the element around each number the build computed.
QUANTITY_CLASS = "roofline-quantity"
#: Attribute of the transient marker, between rewriting and sanitising a term page's body.
MARKER_ATTRIBUTE = "data-roofline-quantity"
#: Id of the "Reproduce the numbers" section; each number's item (listed by the page's script)
#: is ``<id>-<N>``. The sanitiser
#: reserves the ``roofline-`` prefix, so an entry cannot take these ids.
SECTION_ID = "roofline-numbers"
SUMMARY = "Reproduce the numbers on this page"
#: Where each page's numbers script is written, content-named, so hosts may cache it for good.
SCRIPTS_DIR = "assets/roofline/numbers/"


@dataclass(frozen=True)
class Shown:
    """A number a page shows: its reference (``ridge_point accelerator=h100-sxm``) and text."""

    reference: str
    text: str


def python_snippet(reference: str) -> str:
    """The Python that prints the number ``reference`` gives, as the page shows it.

    Names and values are written with :func:`repr`, so whatever characters a reference holds
    (the parser only splits on whitespace) they reach :func:`~roofline_core.quantities.evaluate`
    unchanged.

    >>> print(python_snippet("ridge_point accelerator=h100-sxm"), end="")
    from roofline_core.quantities import evaluate
    print(evaluate('ridge_point', {'accelerator': 'h100-sxm'}).text)

    Raises:
        QuantityError: for a reference that does not parse (the page could not have shown it).
    """
    return f"{_IMPORT}\n{_print_line(reference)}\n"


_IMPORT = "from roofline_core.quantities import evaluate"


def version_check_lines(version: str) -> list[str]:
    """The lines that pin a snippet to the data version it was copied at
    (:func:`roofline_core.version.check_data_version`)."""
    return [
        "from roofline_core.version import check_data_version",
        f"check_data_version({version!r})  # warns in one line if the installed data version differs",
    ]


def _print_line(reference: str) -> str:
    """One line that prints the number; for a time (or a rate of one), its parts after it.

    A time's parts are printed indented, one per line, in seconds: what the number is made of
    (issue 31). It stays one line starting with ``print(``, which ``quantities.mjs`` takes as
    the number's snippet.
    """
    name, arguments = parse_reference(reference)
    call = f"evaluate({name!r}, {arguments!r})"
    if not _has_parts(reference):
        return f"print({call}.text)"
    parts = '*(f"  {label}: {seconds:.3g} s" for label, seconds in value.parts)'
    return f'print((value := {call}).text, {parts}, sep="\\n")'


def _has_parts(reference: str) -> bool:
    try:
        return bool(evaluate_reference(reference).parts)
    except QuantityError:
        return False  # the page reports it; the snippet shows the call as written


def citation(*, site_name: str, title: str, url: str, version: str, date: str) -> str:
    """A short citation of a page's numbers: site, page title, permalink, data version, build date.

    Args:
        date: The day the page was built, ISO 8601 (``2026-11-26``).

    >>> citation(site_name="Roofline Glossary", title="KV cache", url="https://x.org/glossary/kv-cache/",
    ...          version="0123456789ab", date="2026-11-26")
    'Roofline Glossary, "KV cache", https://x.org/glossary/kv-cache/ (data version 0123456789ab, built 2026-11-26).'
    """
    return f'{site_name}, "{title}", {url} (data version {version}, built {date}).'


def marker_token(markdown: str) -> str:
    """The marker token for a body: a digest of its Markdown, which therefore cannot contain it."""
    return hashlib.sha256(markdown.encode("utf-8")).hexdigest()[:24]


def marker(token: str, index: int, text: str) -> str:
    """The Markdown put in place of number ``index`` of a term page's body (see the module)."""
    return f'<span {MARKER_ATTRIBUTE}="{token}-{index}">{text}</span>'


def marker_values(token: str, count: int) -> set[str]:
    """The marker attribute values the sanitiser may keep for a body with ``count`` numbers."""
    return {f"{token}-{index}" for index in range(count)}


def finish_markers(sanitised_html: str, token: str) -> str:
    """Turn the markers that came through the sanitiser into the numbers' wrappers."""
    # Split on the marker's fixed opening rather than a pattern made per body: compiling one
    # regular expression per term page was most of this step's time.
    opening = f'<span {MARKER_ATTRIBUTE}="{token}-'
    first, *rest = sanitised_html.split(opening)
    parts = [first]
    for piece in rest:
        index, closed, after = piece.partition('">')
        if closed and index.isascii() and index.isdigit():
            parts.append(wrapper_open(int(index)) + after)
        else:
            parts.append(opening + piece)
    return "".join(parts)


def wrapper_open(index: int) -> str:
    """The opening tag around number ``index`` (closed by ``</span>``)."""
    return f'<span class="{QUANTITY_CLASS}" data-quantity="{index}">'


def wrapped(index: int, text: str) -> str:
    """Number ``index`` in its wrapper, for a hand-written docs page (not sanitised: no marker)."""
    return f"{wrapper_open(index)}{text}</span>"


@dataclass(frozen=True)
class NumbersScript:
    """A page's numbers as one Python script, and the content-named site path it is written to."""

    site_path: str
    text: str


def numbers_script(
    numbers: Sequence[Shown], cite: str, *, install: str | None = None, version: str | None = None
) -> NumbersScript | None:
    """The Python that prints every number of a page, in its order, as the page shows it.

    Each number is two lines, ``# <N>: <text>`` and its ``print(...)``, after the set-up lines,
    so the script runs as it is and the page's script (``quantities.mjs``) can give number ``N``
    its own snippet: the install line, the imports and the version check, then its print line.
    ``None`` for a page without numbers.

    Args:
        install: The install line (default: the build's, :func:`roofline_site.wheel.current_install_comment`).
        version: The data version to pin (default: this package's).

    It starts with the line that installs the package the site publishes (``# pip install
    ...``, :mod:`roofline_site.wheel`) and pins the data version the page was built with:
    run with another, it warns in one line on stderr (the numbers printed stay the page's text).

    >>> print(numbers_script([Shown("ridge_point accelerator=h100-sxm", "295 FLOP/byte")], "C.",
    ...                      install="# pip install X", version="0123456789ab").text, end="")
    # pip install X
    # Every number on the page, in its order, as the page shows it (with roofline_core installed).
    # Cite: C.
    from roofline_core.quantities import evaluate
    from roofline_core.version import check_data_version
    check_data_version('0123456789ab')  # warns in one line if the installed data version differs
    <BLANKLINE>
    # 0: 295 FLOP/byte
    print(evaluate('ridge_point', {'accelerator': 'h100-sxm'}).text)
    """
    if not numbers:
        return None
    lines = [
        install if install is not None else current_install_comment(),
        "# Every number on the page, in its order, as the page shows it (with roofline_core installed).",
        f"# Cite: {_one_line(cite)}",
        _IMPORT,
        *version_check_lines(version if version is not None else data_version()),
        "",
    ]
    for index, number in enumerate(numbers):
        lines += [f"# {index}: {_one_line(number.text)}", _print_line(number.reference)]
    text = "\n".join(lines) + "\n"
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return NumbersScript(f"{SCRIPTS_DIR}numbers.{digest}.py", text)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def section_html(
    numbers: Sequence[Shown], cite: str, *, script_href: str, download_name: str, parts_href: str | None = None
) -> str:
    """The collapsed "Reproduce the numbers on this page" section; empty without numbers.

    It links the page's script (:func:`numbers_script`, at ``script_href``) and cites the page.
    The snippets themselves are not in the page: with 31 numbers they were a sixth of a term
    page's HTML, for a section few readers open. The page's script fetches the file when a
    reader opens the section or a number's popover and lists each number with its snippet
    (``site_assets/glossary/quantities.mjs``); without scripts the link is the way to them.
    Kept out of the search index, which every page downloads. ``parts_href``, where the page's
    numbers have parts, is the file of their drawings (:mod:`roofline_site.glossary.number_parts`),
    named on the script's link (``data-parts``) for the popover to fetch with it.
    """
    if not numbers:
        return ""
    parts = f' data-parts="{html.escape(parts_href)}"' if parts_href else ""
    count = f"{len(numbers)} numbers" if len(numbers) != 1 else "1 number"
    return (
        f'<details class="roofline-reproduce" id="{SECTION_ID}" data-search-exclude>'
        f"<summary>{SUMMARY}</summary>\n"
        f"<p>The Python that prints this page's {count} as it shows them, with <code>roofline_core</code> installed: "
        f'<a class="roofline-reproduce__script" href="{html.escape(script_href)}" download="{html.escape(download_name)}"{parts}>'
        f"{html.escape(download_name, quote=False)}</a>.</p>\n"
        f'<p>Cite this page: <span class="roofline-reproduce__cite">{html.escape(cite, quote=False)}</span></p>\n'
        "</details>\n"
    )


def page_section(
    numbers: Sequence[Shown],
    cite: str,
    *,
    page_url: str,
    href: Callable[[str], str],
    parts_path: str | None = None,
) -> tuple[str, NumbersScript | None]:
    """A page's "Reproduce the numbers" section and the script it links (both absent without numbers).

    Args:
        page_url: The page's site URL; the download is named after its last part.
        href: A site path made relative to the page.
        parts_path: The site path of the page's numbers' parts, if they have any.
    """
    script = numbers_script(numbers, cite)
    if script is None:
        return "", None
    name = (page_url.strip("/").rsplit("/", 1)[-1] or "home") + "-numbers.py"
    parts_href = href(parts_path) if parts_path else None
    return section_html(
        numbers, cite, script_href=href(script.site_path), download_name=name, parts_href=parts_href
    ), script
