"""Counts and lists that README.md states, generated from the code rather than typed.

A sentence that says how many calculators there are goes stale the day one is added. Each such
passage sits between markers in the Markdown (invisible once rendered)::

    <!-- generated: calculators -->Ten calculators (...) live under `docs/calculators/`.<!-- /generated -->

and :data:`FACTS` makes its text from the registries (``roofline_core.calculators.CALCULATORS``,
``roofline_core.figures.FIGURE_KINDS``). ``python -m roofline_site.doc_facts`` rewrites the
passages; a test fails while any is out of date (:func:`stale`).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

import yaml

PROJECT_ROOT = Path(__file__).resolve().parent.parent
#: The files whose marked passages are generated.
DOCUMENTS = ("README.md", "CONTRIBUTING.md")
_MARKED = re.compile(r"<!-- generated: (?P<name>[a-z-]+) -->(?P<text>.*?)<!-- /generated -->", re.S)
_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def count_words(n: int) -> str:
    """``n`` in words up to twelve, in digits beyond (as prose writes small counts).

    >>> count_words(10), count_words(31)
    ('ten', '31')
    """
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


class _IgnoreTags(yaml.SafeLoader):
    """Reads mkdocs.yml without its tags (``!ENV``, ``!!python/name``): only the navigation is used."""


_IgnoreTags.add_multi_constructor("", lambda loader, suffix, node: None)
_IgnoreTags.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)


def calculator_menu_names(root: Path = PROJECT_ROOT) -> dict[str, str]:
    """Each calculator's name in the site's menu (mkdocs.yml), by calculator id.

    Raises:
        ValueError: naming a calculator that has no page ``docs/calculators/<id>.md`` in the menu.
    """
    from roofline_core.calculators import CALCULATORS

    config = yaml.load((root / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_IgnoreTags)  # noqa: S506 - SafeLoader subclass
    pages: dict[str, str] = {}

    def walk(items) -> None:
        for item in items or ():
            if isinstance(item, dict):
                for title, target in item.items():
                    if isinstance(target, str):
                        pages[target] = title
                    else:
                        walk(target)

    walk(config.get("nav"))
    names = {}
    for calculator_id in CALCULATORS:
        page = f"calculators/{calculator_id}.md"
        if page not in pages:
            raise ValueError(
                f"mkdocs.yml: no menu entry for {page}; expected one per calculator (roofline_core.calculators)"
            )
        names[calculator_id] = pages[page]
    return names


def _lower_first(name: str) -> str:
    # "Roofline explorer" -> "roofline explorer"; "KV cache size" and "config.json" stay.
    return name[0].lower() + name[1:] if name[:2].istitle() and not name[:2].isupper() else name


def calculators_sentence(root: Path = PROJECT_ROOT) -> str:
    names = [_lower_first(name) for name in calculator_menu_names(root).values()]
    return f"{count_words(len(names)).capitalize()} calculators ({', '.join(names)}) live under `docs/calculators/`."


def figure_kinds_sentence(root: Path = PROJECT_ROOT) -> str:
    from roofline_core.figures import FIGURE_KINDS

    return "Kinds: " + ", ".join(f"`{kind}`" for kind in FIGURE_KINDS)


#: Each generated passage's text, by the name its markers give.
FACTS: dict[str, Callable[[Path], str]] = {
    "calculators": calculators_sentence,
    "figure-kinds": figure_kinds_sentence,
}


def regenerate(text: str, *, root: Path = PROJECT_ROOT, where: str = "document") -> str:
    """``text`` with every marked passage made afresh.

    Raises:
        ValueError: for a marker naming no fact in :data:`FACTS`.
    """

    def replace(match: re.Match[str]) -> str:
        name = match.group("name")
        if name not in FACTS:
            line = text.count("\n", 0, match.start()) + 1
            raise ValueError(f"{where}:{line}: unknown generated passage {name!r}; expected one of {', '.join(FACTS)}")
        return f"<!-- generated: {name} -->{FACTS[name](root)}<!-- /generated -->"

    return _MARKED.sub(replace, text)


def stale(root: Path = PROJECT_ROOT) -> list[str]:
    """The documents (of :data:`DOCUMENTS`) whose generated passages are out of date."""
    found = []
    for name in DOCUMENTS:
        text = (root / name).read_text(encoding="utf-8")
        if regenerate(text, root=root, where=name) != text:
            found.append(name)
    return found


def main() -> int:
    for name in DOCUMENTS:
        path = PROJECT_ROOT / name
        text = path.read_text(encoding="utf-8")
        new = regenerate(text, where=name)
        if new != text:
            path.write_text(new, encoding="utf-8")
            print(f"doc_facts: updated {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
