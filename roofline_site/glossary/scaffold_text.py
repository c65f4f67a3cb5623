"""The placeholder text the scaffold writes, in one place.

``python -m roofline_site.glossary new`` writes it and the validator refuses an entry that
still holds it, so an untouched scaffold can be previewed but never published.
"""

from __future__ import annotations

#: The summary the scaffold writes when none is given; ``{title}`` is the term, lowercased.
SUMMARY = "Replace this with one plain sentence that defines {title}."
#: The scaffold's source: a reserved documentation address (RFC 2606), never a real citation.
SOURCE_TITLE = "Replace with the document you took the facts from"
SOURCE_URL = "https://example.org/replace-me"
#: The scaffold's body, one paragraph per part of an entry; ``{title}`` is the term.
BODY_PARAGRAPHS: tuple[str, ...] = (
    "Start with the definition: what **{title}** is, in one or two sentences a newcomer can follow.",
    "## Why it matters",
    "Say what it changes for LLM inference; link other terms with `[[slug]]` or `[[slug|your words]]`.",
    "## The numbers",
    "Quote numbers through quantities, never by hand: the H100's ridge point is\n"
    "{{ ridge_point accelerator=h100-sxm }}. See docs/authoring-terms.md for the list.",
)


def summary_for(title: str) -> str:
    """The placeholder summary for ``title``."""
    return SUMMARY.format(title=title.lower())


def body_for(title: str) -> str:
    """The placeholder body for ``title``."""
    return "\n\n".join(p.replace("{title}", title) for p in BODY_PARAGRAPHS) + "\n"


def is_placeholder_summary(summary: str) -> bool:
    """Whether ``summary`` is the scaffold's, for any title."""
    head, _, tail = SUMMARY.partition("{title}")
    return summary.startswith(head) and summary.endswith(tail)


def placeholder_lines(body: str) -> list[int]:
    """0-based line offsets in ``body`` where a scaffold paragraph's fixed wording remains."""
    # The words before "{title}" (or the whole first line) identify each prose paragraph.
    markers = [p.split("{title}")[0].splitlines()[0] for p in BODY_PARAGRAPHS if not p.startswith("#")]
    return [index for index, line in enumerate(body.splitlines()) if any(line.startswith(m) for m in markers)]
