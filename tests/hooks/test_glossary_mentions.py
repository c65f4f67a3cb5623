"""Fixture builds: "Mentioned in" capped at the closest ten, and the orphan report."""

from __future__ import annotations

import re

from tests.hooks.glossary_fixture import build, entry, make_project

ORPHAN_LINE = (
    "glossary: 1 term is linked from no other entry's text: glossary/lonely.md; "
    "expected a [[slug]] link to each in another entry, where its reader needs the term"
)


def _entries() -> dict[str, str]:
    # Twelve entries link to target (and the users to each other, in a ring); 'near' links it
    # three times, so it comes first; 'lonely' is linked only from the home page, which does not
    # make it less of an orphan.
    entries = {
        f"user-{i:02d}": entry(f"User {i:02d}", body=f"Uses [[target]] and [[user-{(i + 1) % 11:02d}]].\n")
        for i in range(11)
    }
    entries["near"] = entry("Near", body="[[target]], [[target]] and [[target]].\n")
    entries["target"] = entry("Target", body="Links [[near]].\n")
    entries["lonely"] = entry("Lonely", body="Links [[user-00]].\n")
    return entries


def test_mentioned_in_shows_the_closest_ten_then_and_n_more_with_the_full_list(tmp_path):
    result = build(make_project(tmp_path, _entries(), home="See [[lonely]].\n"))
    assert result.returncode == 0, result.stdout + result.stderr
    page = (tmp_path / "site" / "glossary" / "target" / "index.html").read_text(encoding="utf-8")
    section = page.split('<h2 id="mentioned-in">', 1)[1]
    shown = section.split('<ul class="glossary-mentions">', 1)[1].split("</ul>", 1)[0]
    assert len(re.findall(r"<li>", shown)) == 10
    assert shown.startswith('<li><a href="../near/">Near</a></li>')
    assert '<p class="glossary-mentions__more"><a href="#mentioned-in-all">and 2 more</a></p>' in section
    full = section.split('<details class="glossary-mentions__all" id="mentioned-in-all">', 1)[1].split("</details>")[0]
    assert re.findall(r'href="\.\./([a-z0-9-]+)/"', full) == ["near"] + [f"user-{i:02d}" for i in range(11)]


def test_orphans_are_reported_without_failing_the_strict_build(tmp_path):
    result = build(make_project(tmp_path, _entries(), home="See [[lonely]].\n"))
    assert result.returncode == 0, result.stdout + result.stderr
    lines = (result.stdout + result.stderr).splitlines()
    assert [line for line in lines if ORPHAN_LINE in line] == [f"INFO    -  {ORPHAN_LINE}"]


def test_orphans_fail_the_strict_build_when_set_to_warning(tmp_path):
    project = make_project(
        tmp_path, _entries(), home="See [[lonely]].\n", config="extra:\n  glossary_orphans: warning\n"
    )
    result = build(project)
    assert result.returncode == 1
    assert f"WARNING -  {ORPHAN_LINE}" in (result.stdout + result.stderr).splitlines()
