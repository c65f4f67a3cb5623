"""schema.org structured data (JSON-LD) for term pages, the glossary index and the measurement table.

What each page is, for search engines and other readers of https://schema.org/:

* a term page is a ``DefinedTerm``: its title (``name``), summary (``description``), ``url``, its
  aliases as ``alternateName`` (``sameAs`` is for URLs of the same thing elsewhere, and an alias
  is a word, not a URL), and ``inDefinedTermSet``, the glossary;
* the glossary index is that ``DefinedTermSet``, listing every term (``hasDefinedTerm``);
* the "Model vs measurement" page is a ``Dataset``.

The types and properties used are checked against an extract of schema.org's vocabulary in the
tests (``tests/data/schemaorg/``). Every value is contributor or data-file text, so the JSON is
written for the inside of ``<script type="application/ld+json">`` (:func:`script_text`): a
``<``, ``>`` or ``&`` in it is a JSON escape, so no string can close the element or start a
comment. Such a script is data: browsers never run it, and the site's Content-Security-Policy
authorises scripts by type (``roofline_site.csp.EXECUTABLE_SCRIPT_TYPES``), so it needs no hash.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping

from roofline_core.version import data_version
from roofline_site.glossary.entry import Entry
from roofline_site.glossary.validator import Glossary

CONTEXT = "https://schema.org"
#: The script element's type: JSON-LD, which browsers treat as a data block.
SCRIPT_TYPE = "application/ld+json"
#: Characters escaped in the script's text: none of them then appears raw, so ``</script>``,
#: ``<!--`` and ``]]>`` cannot be written by any value (JSON reads ``\u003c`` as ``<``).
_SCRIPT_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def script_text(document: Mapping[str, object]) -> str:
    """``document`` as JSON safe to put between ``<script type="application/ld+json">`` tags."""
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return "".join(_SCRIPT_ESCAPES.get(char, char) for char in text)


def term_set_reference(*, site_name: str, index_url: str) -> dict[str, object]:
    """The glossary as a ``DefinedTermSet``, as a term points to it."""
    return {"@type": "DefinedTermSet", "@id": index_url, "name": site_name, "url": index_url}


def defined_term(entry: Entry, *, url: str, site_name: str, index_url: str) -> dict[str, object]:
    """A term page's ``DefinedTerm``.

    Args:
        url: The term page's absolute address.
        index_url: The glossary index's absolute address (the ``DefinedTermSet``'s id).
    """
    document: dict[str, object] = {
        "@context": CONTEXT,
        "@type": "DefinedTerm",
        "@id": url,
        "name": entry.title,
        "description": entry.summary,
        "url": url,
        "inDefinedTermSet": term_set_reference(site_name=site_name, index_url=index_url),
    }
    if entry.aliases:
        document["alternateName"] = list(entry.aliases)
    return document


def defined_term_set(
    glossary: Glossary, *, site_name: str, index_url: str, url_of: Callable[[str], str]
) -> dict[str, object]:
    """The glossary index's ``DefinedTermSet``, with every term.

    Args:
        url_of: A term's absolute address by slug.
    """
    entries = glossary.sorted_entries()
    return {
        "@context": CONTEXT,
        **term_set_reference(site_name=site_name, index_url=index_url),
        "description": f"{len(entries)} terms of LLM-inference performance, each with a definition, numbers and sources.",
        "version": data_version(),
        "hasDefinedTerm": [
            {
                "@type": "DefinedTerm",
                "@id": url_of(e.slug),
                "name": e.title,
                "description": e.summary,
                "url": url_of(e.slug),
            }
            for e in entries
        ],
    }


def dataset(*, name: str, description: str, url: str, variables: Iterable[str], site_name: str) -> dict[str, object]:
    """The measurement table's ``Dataset``.

    Args:
        variables: What each measurement reports, in words (``variableMeasured``).
    """
    return {
        "@context": CONTEXT,
        "@type": "Dataset",
        "@id": url,
        "name": name,
        "description": description,
        "url": url,
        "version": data_version(),
        "isAccessibleForFree": True,
        "variableMeasured": list(variables),
        "creator": {"@type": "Organization", "name": site_name},
    }
