"""Build-time figures: figure fences in Markdown, drawn from ``roofline_core.figures`` data.

* :mod:`.scan` finds figure fences in a page and their line numbers;
* :mod:`.spec` parses and validates a fence's ``key: value`` lines;
* :mod:`.cache` keys a drawing by its data, this code and matplotlib's version;
* :mod:`.draw` draws with matplotlib (imported on a cache miss only);
* :mod:`.theme` makes the SVG follow the site's light and dark palettes;
* :mod:`.html` wraps it with alt text, caption and a table of the numbers;
* :mod:`.pages` ties them together per page and holds the superfences formatter.

Nothing here imports MkDocs or, until a figure must be drawn, matplotlib.
"""
