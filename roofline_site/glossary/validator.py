"""Read every ``glossary/*.md`` and check it against the schema and against each other.

:func:`load_glossary` is what the build and the command line call: it returns a
:class:`Glossary` or raises :class:`~roofline_site.glossary.errors.GlossaryError` with every
problem found, each located by file and line. Nothing is rendered before it passes.
"""

from __future__ import annotations

import datetime as dt
import difflib
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any

from roofline_core.vocabulary import SLUG_PATTERN, Invalid
from roofline_site.glossary.check_cache import CheckCache
from roofline_site.glossary.entry import Entry, SourceRef
from roofline_site.glossary.errors import GlossaryError, Problem
from roofline_site.glossary.frontmatter import FrontMatter, FrontMatterError, parse
from roofline_site.glossary.hostile import (
    check_size,
    decode_entry,
    find_deep_nesting,
    find_hostile_html,
    find_slow_patterns,
)
from roofline_site.glossary.load_cache import LoadCache, glossary_key
from roofline_site.glossary.markup import find_markdown_links, rewrite
from roofline_site.glossary.prose_checks import check_entry
from roofline_site.glossary.schema import FRONT_MATTER, RESERVED_SLUGS, lookalike_key, name_key, slugify


# eq=False: one glossary is one build's; compared and hashed by identity, so work derived from
# it can be remembered per glossary.
@dataclass(frozen=True, eq=False)
class Glossary:
    """Every validated entry, read-only once loaded: what is derived from them is worked out
    once per build (a term page asks for the titles and the A-Z order of every entry).

    Attributes:
        entries: By slug, sorted by slug (a read-only mapping; make a new ``Glossary`` to change it).
        root: Folder the entries were read from.
        drafts: Entries loaded as drafts (only under ``load_glossary(drafts=True)``), by slug:
            the scaffold placeholders each still holds.
    """

    entries: Mapping[str, Entry]
    root: Path | None = None
    drafts: Mapping[str, tuple[Problem, ...]] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        object.__setattr__(self, "entries", MappingProxyType(dict(self.entries)))

    @cached_property
    def titles(self) -> Mapping[str, str]:
        return MappingProxyType({slug: e.title for slug, e in self.entries.items()})

    def redirects(self) -> dict[str, str]:
        """Old or alias slug -> the slug of the entry it leads to."""
        return {old: e.slug for e in self.entries.values() for old in e.redirect_slugs}

    def suggest(self, unknown: str) -> str | None:
        """The slug a mistyped ``[[...]]`` or ``related`` item most likely meant."""
        return suggest_slug(unknown, self.entries.values())

    def sorted_entries(self) -> list[Entry]:
        """Entries A-Z by title (case-insensitive)."""
        return list(self._alphabetical)

    def neighbours(self, slug: str) -> tuple[Entry | None, Entry | None]:
        """The entries just before and just after ``slug`` A-Z (None at either end)."""
        ordered = self._alphabetical
        at = self._alphabetical_positions[slug]
        return (ordered[at - 1] if at > 0 else None, ordered[at + 1] if at + 1 < len(ordered) else None)

    @cached_property
    def _alphabetical(self) -> tuple[Entry, ...]:
        return tuple(sorted(self.entries.values(), key=lambda e: (e.title.casefold(), e.slug)))

    @cached_property
    def _alphabetical_positions(self) -> dict[str, int]:
        return {e.slug: at for at, e in enumerate(self._alphabetical)}


def suggest_slug(unknown: str, entries) -> str | None:
    key = slugify(unknown)
    names: dict[str, str] = {}
    for e in entries:
        names[e.slug] = e.slug
        names[slugify(e.title)] = e.slug
        for alias in e.aliases:
            names[slugify(alias)] = e.slug
        for old in e.renamed_from:
            names[old] = e.slug
    if key in names:
        return names[key]
    close = difflib.get_close_matches(key, list(names), n=1, cutoff=0.75)
    return names[close[0]] if close else None


def load_glossary(
    directory: Path,
    *,
    display_dir: str = "glossary",
    check_cache: CheckCache | None = None,
    load_cache: LoadCache | None = None,
    drafts: bool = False,
) -> Glossary:
    """Read and validate every ``*.md`` in ``directory``.

    Args:
        directory: The glossary folder.
        display_dir: How messages name that folder (relative to the project).
        check_cache: Entries that passed their own checks before, under the same code (the
            build's; :mod:`.check_cache`): not checked again. None checks every entry.
        load_cache: The last glossary that loaded cleanly (:mod:`.load_cache`): if no file and
            no checking code changed since, its entries are used as they are. None reads all.
        drafts: Accept an entry whose only problems are scaffold placeholders, as a draft
            (``Glossary.drafts``), for ``mkdocs serve``'s preview; never for a published build.

    Returns:
        The :class:`Glossary`.

    Raises:
        GlossaryError: with every problem found, if any.
    """
    files = _entry_files(directory)
    key = None
    if load_cache is not None and files is not None:
        key = glossary_key(((file.name, data) for file, data in files), display_dir=display_dir)
        known = load_cache.entries(key)
        if known is not None:
            return Glossary(entries=dict(sorted((e.slug, e) for e in known)), root=directory)
    entries, problems = read_entries(directory, display_dir=display_dir, check_cache=check_cache, files=files)
    if check_cache is not None:
        check_cache.save()
    problems += check_cross_references(entries)
    found_drafts = _drafts(problems) if drafts else {}
    problems = [p for p in problems if not (p.draft and p.path in found_drafts)]
    if problems:
        raise GlossaryError(problems)
    if key is not None and not found_drafts:
        load_cache.record(key, entries)
    by_path = {e.path: e.slug for e in entries}
    return Glossary(
        entries=dict(sorted((e.slug, e) for e in entries)),
        root=directory,
        drafts=MappingProxyType({by_path[path]: tuple(sorted(found)) for path, found in found_drafts.items()}),
    )


def _drafts(problems: list[Problem]) -> dict[str, list[Problem]]:
    """By file, the placeholders of each file whose every problem is a placeholder."""
    by_path: dict[str, list[Problem]] = {}
    for problem in problems:
        by_path.setdefault(problem.path, []).append(problem)
    return {path: found for path, found in by_path.items() if all(p.draft for p in found)}


def _entry_files(directory: Path) -> list[tuple[Path, bytes]] | None:
    """Each ``*.md`` in ``directory`` with its bytes, by name; None if there is no such folder."""
    if not directory.is_dir():
        return None
    return [(file, file.read_bytes()) for file in sorted(directory.glob("*.md"))]


def read_entries(
    directory: Path,
    *,
    display_dir: str = "glossary",
    check_cache: CheckCache | None = None,
    files: list[tuple[Path, bytes]] | None = None,
) -> tuple[list[Entry], list[Problem]]:
    """Read each file on its own; cross-file checks are :func:`check_cross_references`.

    ``files`` are the folder's files as :func:`_entry_files` read them, if already read.
    """
    entries, problems = [], []
    if files is None:
        files = _entry_files(directory)
    if files is None:
        return [], [
            Problem(
                display_dir, 1, "glossary folder not found", "expected a folder of <slug>.md entries next to mkdocs.yml"
            )
        ]
    for file, data in files:
        path = f"{display_dir}/{file.name}"
        text, unreadable = decode_entry(data, path)
        if unreadable is not None:
            problems.append(unreadable)
            entries.append(_stand_in(file.stem, path))
            continue
        key = CheckCache.key(text, slug=file.stem, path=path) if check_cache is not None else ""
        known_good = check_cache is not None and check_cache.passed(key)
        entry, found = read_entry(text, slug=file.stem, path=path, own_checks=not known_good)
        if check_cache is not None and not found:
            check_cache.record_pass(key)
        problems += found
        entries.append(entry)
    return entries, problems


def read_entry(text: str, *, slug: str, path: str, own_checks: bool = True) -> tuple[Entry, list[Problem]]:
    """Parse and check one entry on its own.

    ``own_checks=False`` skips the body's safety and prose checks, for an entry whose exact text
    passed them under the same code (:mod:`.check_cache`); its front matter is still read.

    Returns:
        The entry and the problems found. An entry with problems is still returned (with
        stand-ins for unusable fields) so that links to it do not raise further, misleading
        problems; a glossary with any problem is never rendered.
    """
    problems: list[Problem] = []
    if not SLUG_PATTERN.fullmatch(slug) or slug in RESERVED_SLUGS:
        reason = "is reserved" if slug in RESERVED_SLUGS else "is not a valid slug"
        problems.append(
            Problem(
                path,
                1,
                f"file name '{slug}.md' {reason}",
                f"expected lowercase letters, digits and single hyphens, e.g. '{slugify(slug) or 'kv-cache'}.md'",
            )
        )
    too_big = check_size(text, path)
    if too_big is not None:
        # Nothing else is read: a huge file is refused before costing the build any more time.
        return _stand_in(slug, path), [*problems, too_big]
    _text, unreadable = decode_entry(text.encode("utf-8", "surrogatepass"), path)
    if unreadable is not None:
        return _stand_in(slug, path), [*problems, unreadable]
    try:
        fm = parse(text, path)
    except FrontMatterError as exc:
        return _stand_in(slug, path), [*problems, exc.problem]
    values, found = check_front_matter(fm, path)
    problems += found
    body_problems = _check_body(fm, path) if own_checks else []
    problems += body_problems
    entry = Entry(
        slug=slug,
        path=path,
        title=values.get("title") or slug,
        category=values.get("category") or "",
        summary=values.get("summary") or "",
        aliases=tuple(values.get("aliases") or ()),
        related=tuple(values.get("related") or ()),
        sources=tuple(SourceRef(**source) for source in values.get("sources") or ()),
        added=values.get("added") or dt.date(1970, 1, 1),
        updated=values.get("updated"),
        renamed_from=tuple(values.get("renamed_from") or ()),
        body=fm.body,
        body_line=fm.body_line,
        lines=_flat_lines(fm),
    )
    if own_checks and not body_problems:
        # What the body says (figures, scenarios, placeholders) is read once it is safe to render.
        problems += check_entry(entry)
    return entry, problems


def _stand_in(slug: str, path: str) -> Entry:
    return Entry(
        slug=slug,
        path=path,
        title=slug,
        category="",
        summary="",
        aliases=(),
        related=(),
        sources=(),
        added=dt.date(1970, 1, 1),
        updated=None,
        renamed_from=(),
        body="",
        body_line=1,
        lines={},
    )


def _flat_lines(fm: FrontMatter) -> dict[str, int]:
    """Field lines as ``{"title": 2, "related": 7, "related[0]": 8}`` (top two levels)."""
    lines = {}
    for path, line in fm.lines.items():
        if len(path) == 1:
            lines[str(path[0])] = line
        elif len(path) == 2 and isinstance(path[1], int):
            lines[f"{path[0]}[{path[1]}]"] = line
    return lines


def check_front_matter(fm: FrontMatter, path: str) -> tuple[dict[str, Any], list[Problem]]:
    """Check the front matter against :data:`~roofline_site.glossary.schema.FRONT_MATTER`.

    Returns:
        The valid fields by name (sources as mappings) and every problem, each on the line of
        the key or list item at fault.
    """
    values, found = FRONT_MATTER.check(fm.data)
    problems = [_located(invalid, fm, path) for invalid in found]
    if values.get("updated") and values.get("added") and values["updated"] < values["added"]:
        problems.append(
            Problem(
                path,
                fm.line_of("updated"),
                f"'updated' ({values['updated']}) is before 'added' ({values['added']})",
                "expected updated on or after added",
            )
        )
    for index, alias in enumerate(values.get("aliases") or ()):
        if "title" in values and name_key(alias) == name_key(values["title"]):
            problems.append(
                Problem(
                    path,
                    fm.line_of("aliases", index),
                    f"alias '{alias}' repeats the title",
                    "expected other names only",
                )
            )
    return values, problems


def _located(invalid: Invalid, fm: FrontMatter, path: str) -> Problem:
    """A vocabulary problem as ``glossary/x.md:LINE: field '...': what; expected ...``."""
    where = f"field {invalid.where()}: " if invalid.at else ""
    return Problem(path, fm.line_of(*invalid.at), where + invalid.problem, f"expected {invalid.expected}")


def _check_body(fm: FrontMatter, path: str) -> list[Problem]:
    if not fm.body.strip():
        return [
            Problem(
                path,
                fm.body_line,
                "the body is empty",
                "expected Markdown after the front matter: the definition first, then why it matters, then numbers with sources",
            )
        ]
    # Nesting is checked first and alone: a body nested too deep would crash the renderer.
    too_deep = find_deep_nesting(fm.body, path, fm.body_line)
    if too_deep is not None:
        return [too_deep]
    # Slow patterns are checked before the other body checks, which use regular expressions
    # of their own over the same text.
    slow = find_slow_patterns(fm.body, path, fm.body_line)
    if slow:
        return slow
    return find_hostile_html(fm.body, path, fm.body_line)


def check_cross_references(entries: list[Entry]) -> list[Problem]:
    """Duplicates across entries, ``related`` and body links to missing terms, bad quantities."""
    problems: list[Problem] = []
    by_slug = {e.slug: e for e in entries}
    titles = {e.slug: e.title for e in entries}

    # Names (titles and aliases) and slugs (file, alias and old slugs) share one namespace:
    # each becomes a URL under glossary/. First claim wins; later ones are duplicates.
    names: dict[str, tuple[Entry, str]] = {}
    for e in sorted(entries, key=lambda x: x.path):
        claims = [("title", e.title, e.lines.get("title", 1))]
        claims += [("alias", a, _item_line(e, "aliases", i)) for i, a in enumerate(e.aliases)]
        for kind, name, line in claims:
            key = name_key(name)
            owner = names.get(key)
            if owner is not None and owner[0].slug != e.slug:
                problems.append(
                    Problem(
                        e.path,
                        line,
                        f"{kind} '{name}' is already used by {owner[0].path}",
                        "expected a title or alias no other entry uses",
                    )
                )
            elif owner is None:
                names[key] = (e, kind)
    problems += _check_lookalikes(entries)
    slugs: dict[str, Entry] = dict(by_slug)
    for e in sorted(entries, key=lambda x: x.path):
        for old in e.renamed_from:
            owner = slugs.get(old)
            if owner is not None and owner.slug != e.slug:
                problems.append(
                    Problem(
                        e.path,
                        _item_line(e, "renamed_from", e.renamed_from.index(old)),
                        f"duplicate slug '{old}': already used by {owner.path}",
                        "expected an old slug no other entry uses",
                    )
                )
            slugs.setdefault(old, e)
        for index, alias in enumerate(e.aliases):
            alias_slug = slugify(alias)
            owner = slugs.get(alias_slug)
            if (
                owner is not None
                and owner.slug != e.slug
                and not any(p.path == e.path and f"'{alias}'" in p.what for p in problems)
            ):
                problems.append(
                    Problem(
                        e.path,
                        _item_line(e, "aliases", index),
                        f"alias '{alias}' is already used by {owner.path} (duplicate slug '{alias_slug}')",
                        "expected an alias whose slug no other entry uses",
                    )
                )
            slugs.setdefault(alias_slug, e)

    for e in entries:
        for index, slug in enumerate(e.related):
            if slug == e.slug:
                problems.append(
                    Problem(
                        e.path,
                        _item_line(e, "related", index),
                        f"'related' lists the entry itself ('{slug}')",
                        "expected other entries",
                    )
                )
            elif slug not in by_slug:
                hint = suggest_slug(slug, entries)
                problems.append(
                    Problem(
                        e.path,
                        _item_line(e, "related", index),
                        f"'related' names unknown term '{slug}'",
                        f"expected the slug of an entry in glossary/{f' (did you mean {hint!r}?)' if hint else ''}",
                    )
                )
        rewritten = rewrite(
            e.body,
            path=e.path,
            src_uri=f"glossary/{e.slug}.md",
            first_line=e.body_line,
            titles=titles,
            suggest=lambda s: suggest_slug(s, entries),
        )
        problems += rewritten.problems
        problems += check_relative_links(
            e.body, path=e.path, src_uri=f"glossary/{e.slug}.md", first_line=e.body_line, slugs=set(by_slug)
        )
    return problems


def _check_lookalikes(entries: list[Entry]) -> list[Problem]:
    """Slugs, titles and aliases that differ from another entry's only by look-alike letters
    (Cyrillic 'а' for Latin 'a'): readers could not tell the two apart. Plain names claim
    first, so the error lands on the name that holds the look-alikes."""
    claims = []
    for e in entries:
        claims.append((e, "slug", e.slug, 1))
        claims.append((e, "title", e.title, e.lines.get("title", 1)))
        claims += [(e, "alias", alias, _item_line(e, "aliases", i)) for i, alias in enumerate(e.aliases)]
    rank = {"title": 0, "alias": 1, "slug": 2}
    claims.sort(
        key=lambda c: (lookalike_key(c[2], confusables=False) != lookalike_key(c[2]), c[0].path, rank[c[1]], c[3])
    )
    owners: dict[str, tuple[Entry, str, str]] = {}
    problems = []
    for e, kind, name, line in claims:
        key = lookalike_key(name)
        if not key:
            continue
        owner = owners.setdefault(key, (e, kind, name))
        # Same entry, or the same name once case and punctuation are ignored: the duplicate
        # checks below report those.
        if owner[0].slug != e.slug and name_key(name) != name_key(owner[2]):
            problems.append(
                Problem(
                    e.path,
                    line,
                    f"{kind} '{name}' looks like the {owner[1]} '{owner[2]}' of {owner[0].path}: they differ only by look-alike letters",
                    "expected a name no other entry uses, written in the letters readers type",
                )
            )
    return problems


def _item_line(e: Entry, name: str, index: int) -> int:
    return e.lines.get(f"{name}[{index}]", e.lines.get(name, 1))


def check_relative_links(text: str, *, path: str, src_uri: str, first_line: int, slugs: set[str]) -> list[Problem]:
    """Plain Markdown links into ``glossary/`` must name an existing entry (or the index)."""
    problems = []
    base = posixpath.dirname(src_uri)
    for link in find_markdown_links(text, first_line):
        target = link.target.split("#", 1)[0].split("?", 1)[0]
        if not target or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("/"):
            continue
        resolved = posixpath.normpath(posixpath.join(base, target))
        directory, name = posixpath.split(resolved)
        if directory != "glossary" or not name.endswith(".md"):
            continue
        slug = name[:-3]
        if slug != "index" and slug not in slugs:
            problems.append(
                Problem(
                    path,
                    link.line,
                    f"link to unknown term '{link.target}'",
                    "expected a link to an existing glossary/<slug>.md (or use [[slug]])",
                )
            )
    return problems
