"""The site for assistants and crawlers: ``llms.txt``, ``llms-full.txt``, Markdown twins, JSON-LD.

A MkDocs adapter over :mod:`roofline_site.glossary.twins` and
:mod:`roofline_site.glossary.structured_data`; it reads the glossary ``hooks/glossary.py``
loaded (listed after it in ``mkdocs.yml``). Each term page gets its twin's address and its
``DefinedTerm`` in ``page.meta`` (``markdown_twin``, ``json_ld``), which the theme override
(``site_assets/overrides/main.html``) writes into ``<head>``; the index gets the
``DefinedTermSet`` and the measurement page a ``Dataset``. Once every page has its title
(``on_env``) the twins and the two text files are written by a second process, and waited for
before any hook reads the site directory.
"""

from __future__ import annotations

import html
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files, InclusionLevel
from mkdocs.utils import get_relative_url

from roofline_core.calculators import CALCULATORS
from roofline_site.background_writes import BackgroundWriteError, PendingWrites, start_writing, wait_all
from roofline_site.glossary import site_build, structured_data, twins
from roofline_site.glossary.site_files import FEED_URI, INDEX_URI, JSON_URI, SCHEMA_URI
from roofline_site.measurements_page import METRIC_LABELS

#: The "Model vs measurement" page, whose table is the site's dataset.
MEASUREMENTS_URI = "model-vs-measurement.md"
DATASET_DESCRIPTION = (
    "Published LLM-inference measurements (decode and prefill speed, time to first token), each with"
    " its model, accelerators, engine and source, beside the roofline bound for the same scenario."
)
_pending: list[PendingWrites] = []

# Hooks ---------------------------------------------------------------------------------


def on_config(config):
    wait_all(_pending, quietly=True)  # a build that failed before on_post_build (mkdocs serve goes on)
    _pending.clear()
    return config


def on_page_content(html_text: str, page, config, files: Files) -> str:
    build, src_uri = site_build.loaded(), page.file.src_uri
    urls = _urls(config, files)
    index_url = urls.page(INDEX_URI) or urls.absolute("glossary/")
    slug = build.term_of.get(src_uri)
    if slug is not None:
        page.meta["markdown_twin"] = get_relative_url(twins.twin_path(page.url), page.url)
        document = structured_data.defined_term(
            build.glossary.entries[slug], url=urls.term(slug), site_name=config.site_name, index_url=index_url
        )
    elif src_uri == INDEX_URI:
        document = structured_data.defined_term_set(
            build.glossary, site_name=config.site_name, index_url=index_url, url_of=urls.term
        )
    elif src_uri == MEASUREMENTS_URI:
        document = structured_data.dataset(
            name=html.unescape(str(page.meta.get("title") or page.title or "Model vs measurement")),
            description=str(page.meta.get("description") or DATASET_DESCRIPTION),
            url=urls.absolute(page.url),
            variables=METRIC_LABELS.values(),
            site_name=config.site_name,
        )
    else:
        return html_text
    page.meta["json_ld"] = structured_data.script_text(document)
    return html_text


def on_env(env, config, files: Files):
    build = site_build.loaded()
    urls = _urls(config, files)
    try:
        texts = {
            twins.twin_path(files.get_file_from_path(src).url): twins.twin_markdown(
                build.glossary.entries[slug], build.glossary, urls
            )
            for src, slug in sorted(build.term_of.items(), key=lambda item: item[1])
        }
    except ValueError as exc:  # a quantity or link that no longer resolves: validated before, so a bug
        raise PluginError(f"machine_readable: {exc}") from None
    ordered = [texts[path] for path in sorted(texts)]
    texts[twins.LLMS_TXT] = twins.llms_txt(
        title=config.site_name,
        summary=config.site_description or "",
        details=(
            "Every term page has a Markdown twin beside it (its address with index.md), numbers"
            " resolved; llms-full.txt holds them all. Numbers are computed by the roofline_core"
            " Python package at build time."
        ),
        sections=_sections(files, urls, build),
    )
    texts[twins.LLMS_FULL_TXT] = twins.llms_full_txt(
        title=config.site_name, summary=config.site_description or "", twins=ordered
    )
    _pending.append(start_writing(Path(config.site_dir), texts=texts))
    return env


# Before any other hook reads the site directory.
@event_priority(100)
def on_post_build(config) -> None:
    try:
        wait_all(_pending)
    except BackgroundWriteError as exc:
        raise PluginError(f"machine_readable: {exc}") from None
    finally:
        _pending.clear()


# Helper functions ----------------------------------------------------------------------


def _urls(config, files: Files) -> twins.TwinUrls:
    def url_of(src_uri: str) -> str | None:
        file = files.get_file_from_path(src_uri)
        return None if file is None else file.url

    return twins.TwinUrls(site_url=config.site_url, url_of=url_of)


def _sections(files: Files, urls: twins.TwinUrls, build) -> list[tuple[str, list[twins.Link]]]:
    """Terms, calculators, guides (every other page in the navigation) and data files."""
    calculators, guides = [], []
    for file in files.documentation_pages(inclusion=InclusionLevel.is_included):
        page, src_uri = file.page, file.src_uri
        if page is None or src_uri.startswith(("glossary/", "embed/")) or src_uri in build.term_of:
            continue
        # Titles and descriptions are escaped text by now (hooks/page_text.py); this is Markdown.
        title = html.unescape(str(page.meta.get("title") or page.title or src_uri))
        calculator = CALCULATORS.get(Path(src_uri).stem) if src_uri.startswith("calculators/") else None
        summary = (
            calculator.description
            if calculator
            else html.unescape(str(page.meta.get("description") or "")) or twins.first_sentence(page.markdown or "")
        )
        (calculators if calculator else guides).append(twins.Link(title, urls.absolute(file.url), summary))
    data = [
        twins.Link("llms-full.txt", urls.absolute(twins.LLMS_FULL_TXT), "every term's Markdown twin in one file"),
        twins.Link("glossary.json", urls.absolute(JSON_URI), "every term as data: slug, title, category, summary, URL"),
        twins.Link("glossary.schema.json", urls.absolute(SCHEMA_URI), "the JSON Schema of glossary.json"),
        twins.Link("RSS feed", urls.absolute(FEED_URI), "new and updated terms"),
    ]
    return [
        ("Glossary terms", twins.term_links(build.glossary, urls)),
        ("Calculators", sorted(calculators, key=lambda link: link.name)),
        ("Guides", guides),
        ("Data", data),
    ]
