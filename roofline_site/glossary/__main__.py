"""Command line: ``python -m roofline_site.glossary new "Title" --category memory`` and ``check``.

``new`` writes a valid entry to fill in; ``check`` validates every entry, and the term links,
quantities and composition phrases of every ``docs/`` page, without building the site, and
prints the same ``glossary/<file>.md:<line>: ...`` lines the build would.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from roofline_site.glossary import doc_pages
from roofline_site.glossary.errors import GlossaryError
from roofline_site.glossary.scaffold import ScaffoldError, new_entry
from roofline_site.glossary.schema import CATEGORIES
from roofline_site.glossary.validator import load_glossary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m roofline_site.glossary", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--glossary-dir", type=Path, default=Path("glossary"), help="the glossary folder (default: ./glossary)"
    )
    commands = parser.add_subparsers(dest="command", required=True)
    new = commands.add_parser("new", help="create a new entry")
    new.add_argument("title", help='the term, e.g. "Paged attention"')
    new.add_argument("--category", required=True, choices=list(CATEGORIES))
    new.add_argument("--summary", help="the one-sentence summary (default: a placeholder to replace)")
    check = commands.add_parser("check", help="validate every entry and the docs pages that use them")
    check.add_argument(
        "--docs-dir",
        type=Path,
        help="the hand-written pages (default: docs beside the glossary folder; skipped if absent)",
    )
    args = parser.parse_args(argv)

    if args.command == "new":
        try:
            path = new_entry(args.glossary_dir, args.title, args.category, summary=args.summary)
        except ScaffoldError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        print(f"created {path}: fill in the summary, body and sources, then preview with scripts/serve")
        return 0
    try:
        glossary = load_glossary(args.glossary_dir, display_dir=args.glossary_dir.as_posix())
        # The pages link into this glossary, so by default they are the ones beside it.
        root = args.glossary_dir.resolve().parent
        docs_dir = args.docs_dir if args.docs_dir is not None else root / "docs"
        pages = doc_pages.read_pages(docs_dir, root) if docs_dir.is_dir() else []
        doc_pages.check(pages, glossary)
    except GlossaryError as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"{len(pages)} pages and {len(glossary.entries)} entries, all valid")
    return 0


if __name__ == "__main__":
    sys.exit(main())
