"""The static roofline chart: decades on log axes, the roof through the plot, points placed."""

from __future__ import annotations

import re

import pytest

from roofline_core.figures import roofline_curve
from roofline_core.view import chart as layout
from roofline_core.view.chart import tick_label
from roofline_site.calculators.chart_svg import roofline_svg


@pytest.mark.parametrize(
    ("exponent", "label"),
    [
        (-3, "0.001"),
        (-2, "0.01"),
        (0, "1"),
        (2, "100"),
        (3, "1k"),
        (4, "10k"),
        (12, "1T"),
        (14, "100T"),
        (15, "1P"),
        (-4, "1e-4"),
        (21, "1e21"),
    ],
)
def test_tick_labels(exponent, label):
    assert tick_label(exponent) == label


def test_roof_spans_the_plot_and_bends_at_the_ridge():
    chart = roofline_curve(
        peak_flop_per_s=1e15,
        bandwidth_bytes_per_s=1e12,
        points=[{"label": "decode <b>", "intensity_flop_per_byte": 1.0, "highlight": True}],
        x_min_flop_per_byte=0.01,
        x_max_flop_per_byte=1e4,
    )
    svg = roofline_svg(chart, element_id="c")
    (d,) = re.findall(r'class="roofline-chart__roof" d="M ([^"]+)"', svg)
    (x0, y0), (x1, y1), (x2, y2) = [tuple(map(float, p.split())) for p in d.split(" L ")]
    assert x0 == layout.LEFT_PX and x2 == layout.WIDTH_PX - layout.RIGHT_PX
    assert y1 == y2  # flat peak
    # Ridge at 1000 FLOP/byte: five of six decades along the x axis from 0.01.
    plot_w = layout.WIDTH_PX - layout.LEFT_PX - layout.RIGHT_PX
    assert x1 == pytest.approx(layout.LEFT_PX + plot_w * 5 / 6, abs=0.1)
    (cx, cy) = map(float, re.search(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="7"', svg).groups())
    assert cx == pytest.approx(layout.LEFT_PX + plot_w * 2 / 6, abs=0.1)
    assert y0 > cy > y1  # on the slope, below the peak
    assert "decode &lt;b&gt;" in svg and "<b>" not in svg
    assert 'aria-labelledby="c-title"' in svg and "decode &lt;b&gt;: memory-bound" in svg


def test_the_explorer_draws_the_chips_other_memory_roof_dashed_and_names_it():
    """Issue 34: both roofs on the chart. With the datasheet roof chosen the measured one is drawn
    dashed below it (and the reverse), named in the legend and written to the CSV; a chip with no
    cited measurement draws one roof."""
    from roofline_core.calculators import compute
    from roofline_core.view.downloads import chart_csv

    for roof, other_label, other_bandwidth in (
        ("datasheet", "measured 2.97 TB/s", 2.97e12),
        ("measured", "datasheet 3.35 TB/s", 3.35e12),
    ):
        chart = compute("roofline-explorer", {"accelerator": "h100-sxm", "roof": roof})["chart"]
        other = chart["other_roof"]
        assert other["label"] == other_label and other["bandwidth_bytes_per_s"] == other_bandwidth
        assert other["roof"][1] == [pytest.approx(989e12 / other_bandwidth), 989e12]
        assert chart["y_range"][0] <= other["roof"][0][1]
        svg = roofline_svg(chart, element_id="c")
        (solid,) = re.findall(r'class="roofline-chart__roof" d="M ([^"]+)"', svg)
        (dashed,) = re.findall(r'class="roofline-chart__other-roof" d="M ([^"]+)"', svg)
        assert solid != dashed and other_label in svg
        csv = chart_csv(chart, title="t", scenario="s", data_version="v")
        assert csv.count(f"other roof,{other_label}") == 3
    plain = compute("roofline-explorer", {"accelerator": "l4"})["chart"]
    assert "other_roof" not in plain and "other-roof" not in roofline_svg(plain, element_id="c")
