"""Build-time figures: figure fences in Markdown, drawn from ``roofline_core.figures`` data.

* :mod:`.spec` parses and validates a fence's ``key: value`` lines;
* :mod:`.cache` keys a drawing by its data, this code and matplotlib's version;
* :mod:`.draw` draws with matplotlib (imported on a cache miss only);
* :mod:`.theme` makes the SVG follow the site's light and dark palettes;
* :mod:`.html` wraps it with alt text, caption and a table of the numbers;
* :mod:`.pages` is the ``figure`` kind of :mod:`roofline_site.fences`, which finds the
  fences, their lines and formats them.

Nothing here imports MkDocs or, until a figure must be drawn, matplotlib.
"""
