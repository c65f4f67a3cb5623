"""Link previews for calculator scenarios: a card with the scenario's headline result.

A chat or blog unfurls a pasted link from the page it fetches: its ``og:image``. A calculator
page is one static file whatever its query string, so ``calculators/kv-cache/?batch=8`` can only
name the calculator's own card. Each scenario the glossary's entries link to therefore gets an
address of its own, a preview page (:func:`preview_html`, ``calculators/<id>/scenario/<key>/``)
whose Open Graph tags name a card drawn for that scenario (its headline results, computed by
``roofline_core``'s calculator, and its inputs), and which sends a reader straight on to the
scenario's calculator link. Any other link keeps the calculator page's card.

Open Graph wants absolute addresses, so a build without ``SITE_URL`` leaves ``og:image`` and
``og:url`` out of the preview pages (their title and description still name the result).

The calculator's "Copy link" gives the preview's address for a scenario that has one
(:func:`share_previews`); the key it is found by is the scenario's inputs that differ from the
calculator's defaults, sorted (:func:`canonical_query`), which is how the page's script writes
them too.
"""

from __future__ import annotations

import hashlib
import html
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

from roofline_core.calculators import CALCULATORS, compute, definition
from roofline_core.view import box_text
from roofline_site.calculators.render import SCENARIO_FIELDS, is_shown, scenario_text

#: A scenario link in an entry: ``](../calculators/<id>.md?<query>)``.
SCENARIO_LINK = re.compile(r"\]\(\.\./calculators/([a-z0-9-]+)\.md\?([^)#\s]+)\)")
#: Where the preview pages and cards go.
PAGE_DIR = "calculators/{calculator}/scenario/{key}/"
CARD_DIR = "assets/cards/scenario"
#: How many headline results a card shows (the first is drawn large).
CARD_RESULTS = 2


@dataclass(frozen=True)
class Scenario:
    """A calculator with the inputs a link sets (those that differ from its defaults, sorted)."""

    calculator_id: str
    inputs: tuple[tuple[str, str], ...]

    @property
    def query(self) -> str:
        return urlencode(self.inputs)

    @property
    def key(self) -> str:
        """12 hex digits naming the scenario's preview page and card."""
        return hashlib.sha256(f"{self.calculator_id}?{self.query}".encode()).hexdigest()[:12]

    @property
    def page_path(self) -> str:
        return PAGE_DIR.format(calculator=self.calculator_id, key=self.key)

    @property
    def card_path(self) -> str:
        return f"{CARD_DIR}/{self.calculator_id}.{self.key}.png"


def canonical_query(calculator_id: str, pairs: Iterable[tuple[str, str]]) -> Scenario:
    """The scenario a link's query sets: pairs equal to the calculator's defaults dropped, sorted.

    >>> canonical_query("kv-cache", [("model", "llama-3-8b"), ("batch", "8"), ("kv_dtype", "fp16")]).inputs
    (('batch', '8'), ('model', 'llama-3-8b'))
    """
    defaults = {field["id"]: box_text(field["default"]) for field in definition(calculator_id)["inputs"]}
    kept = {key: value for key, value in pairs if defaults.get(key) != value}
    return Scenario(calculator_id, tuple(sorted(kept.items())))


def linked_scenarios(texts: Iterable[str]) -> list[Scenario]:
    """Every calculator scenario the texts (entries' Markdown) link to, once each, in key order."""
    found: dict[str, Scenario] = {}
    for text in texts:
        for calculator_id, query in SCENARIO_LINK.findall(text):
            if calculator_id not in CALCULATORS:
                continue  # the build's link check names it
            scenario = canonical_query(calculator_id, parse_qsl(html.unescape(query), keep_blank_values=True))
            if scenario.inputs:  # a link to the defaults is the calculator page, with its own card
                found.setdefault(scenario.page_path, scenario)
    return [found[path] for path in sorted(found)]


def entry_scenarios(glossary_dir: Path) -> list[Scenario]:
    """The scenarios the glossary's entries (``glossary/*.md``) link to."""
    return linked_scenarios(path.read_text(encoding="utf-8") for path in sorted(glossary_dir.glob("*.md")))


@dataclass(frozen=True)
class Preview:
    """What a scenario's card and preview page say.

    Attributes:
        title: The calculator's title.
        results: ``(label, text)`` of its headline results at the scenario, as the page shows them.
        inputs: ``(label, text)`` of the inputs the link sets, as the scenario line names them.
    """

    scenario: Scenario
    title: str
    results: tuple[tuple[str, str], ...]
    inputs: tuple[tuple[str, str], ...]

    @property
    def description(self) -> str:
        """One line: the headline results, then the scenario (``og:description``)."""
        results = "; ".join(f"{label}: {text}" for label, text in self.results)
        return f"{results}. For {self.inputs_text}." if self.inputs else f"{results}."

    @property
    def inputs_text(self) -> str:
        return ", ".join(f"{label}: {text}" for label, text in self.inputs)


def preview(scenario: Scenario) -> Preview:
    """The scenario's headline results, computed by the calculator the page runs.

    Raises:
        ValueError: when the calculator refuses the link's inputs (naming them).
    """
    spec = definition(scenario.calculator_id)
    result = compute(scenario.calculator_id, dict(scenario.inputs))
    if result["errors"]:
        raise ValueError(f"{scenario.calculator_id}?{scenario.query}: the calculator refuses it: {result['errors']}")
    labels = {output["id"]: output["label"] for output in spec["outputs"]}
    results = tuple(
        (labels[key], result["outputs"][key]["text"]) for key in spec["headline"] if key in result["outputs"]
    )[:CARD_RESULTS]
    # The calculator's key inputs and what the link sets first (a card cut short keeps them),
    # then the scenario's model, chip, devices, batch and context at their defaults (a card that
    # says "Batch size: 64" must say of which model), each group in the form's order.
    first = {key for key, _ in scenario.inputs} | set(spec["key_inputs"])
    named = [f for f in spec["inputs"] if f["id"] in first] + [
        f for f in spec["inputs"] if f["id"] in SCENARIO_FIELDS and f["id"] not in first
    ]
    inputs = tuple(
        (field["label"], scenario_text(field, result["inputs"][field["id"]]))
        for field in named
        if field["kind"] in ("choice", "number") and is_shown(spec, field["id"], result["inputs"])
    )
    return Preview(scenario, spec["title"], results, inputs)


def preview_html(
    item: Preview, *, target_href: str, site_url: str | None, site_name: str, content_security_policy: str = ""
) -> str:
    """The preview page: Open Graph and Twitter tags for the scenario's card, and a refresh (no
    script, as the redirect pages do) to the scenario's calculator link at ``target_href``.

    Args:
        site_url: The site's public address; without one, ``og:image`` and ``og:url`` are left out
            (Open Graph needs absolute addresses).
    """
    e = html.escape
    title = f"{item.title}: {item.results[0][1]}" if item.results else item.title
    tags = [
        ("property", "og:site_name", site_name),
        ("property", "og:type", "website"),
        ("property", "og:title", title),
        ("property", "og:description", item.description),
        ("name", "twitter:title", title),
        ("name", "twitter:description", item.description),
    ]
    if site_url:
        base = site_url.rstrip("/") + "/"
        tags += [
            ("property", "og:url", base + item.scenario.page_path),
            ("property", "og:image", base + item.scenario.card_path),
            ("property", "og:image:width", "1200"),
            ("property", "og:image:height", "630"),
            ("property", "og:image:alt", f"{title}. {item.description}"),
            ("name", "twitter:card", "summary_large_image"),
            ("name", "twitter:image", base + item.scenario.card_path),
        ]
    else:
        tags.append(("name", "twitter:card", "summary"))
    policy = (
        f'<meta http-equiv="Content-Security-Policy" content="{e(content_security_policy)}">\n'
        if content_security_policy
        else ""
    )
    meta = "".join(f'<meta {kind}="{e(name)}" content="{e(value)}">\n' for kind, name, value in tags)
    href = e(target_href)
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"{policy}"
        f"<title>{e(title)}</title>\n"
        '<meta name="robots" content="noindex">\n'
        f"{meta}"
        f'<meta http-equiv="refresh" content="0; url={href}">\n'
        "</head>\n<body>\n"
        f'<p>{e(item.description)} <a href="{href}">Open this scenario in the {e(item.title)} calculator</a>.</p>\n'
        "</body>\n</html>\n"
    )


def share_previews(
    scenarios: Iterable[Scenario], calculator_id: str, *, link_to: Callable[[str], str]
) -> tuple[tuple[str, str], ...]:
    """``(canonical query, preview address)`` for each of ``calculator_id``'s scenarios, for the
    page's "Copy link" (``link_to`` makes a site path the published address)."""
    return tuple(
        (scenario.query, link_to(scenario.page_path))
        for scenario in scenarios
        if scenario.calculator_id == calculator_id
    )


# The scenarios of the build in progress, set by hooks/link_cards.py before any page is made.
_linked: tuple[Scenario, ...] = ()


def configure(scenarios: Iterable[Scenario]) -> None:
    """Make ``scenarios`` the build's: calculators' "Copy link" offers their previews."""
    global _linked
    _linked = tuple(scenarios)


def current() -> tuple[Scenario, ...]:
    """The build's linked scenarios (none before :func:`configure`)."""
    return _linked
