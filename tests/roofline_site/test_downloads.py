"""Download links: files named by content, real links that work without JavaScript, buttons for
what only a browser can draw hidden until its script runs, and each table's and figure's files."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from roofline_core.estimates.efficiency import FITTED
from roofline_core.evidence.measurements import load_measurements_file
from roofline_core.evidence.validation import validate
from roofline_core.figures import figure_data
from roofline_site.calculators.fence import Placement
from roofline_site.calculators.placement import resolve
from roofline_site.calculators.render import AssetUrls, csv_files, render_calculator, view_for
from roofline_site.downloads import DATA_DIR, data_file, download_link
from roofline_site.figures.html import figure_html
from roofline_site.measurements_page import TABLE_COLUMNS, table_files, table_records
from tests.roofline_site.figures.test_html import SVG
from tests.roofline_site.test_measurements_page import DATA_FILE

URLS = AssetUrls(embed="../../embed/x/", glossary="../../glossary/")


def test_a_data_file_is_named_by_its_content_and_refuses_a_stem_that_is_not_a_name():
    path, data = data_file("kv-cache-chart", "a,b\r\n")
    assert re.fullmatch(rf"{DATA_DIR}kv-cache-chart\.[0-9a-f]{{16}}\.csv", path) and data == b"a,b\r\n"
    assert data_file("kv-cache-chart", "a,c\r\n")[0] != path
    with pytest.raises(ValueError, match="lower-case words joined by '-'; received '../x'"):
        data_file("../x", "")


def test_a_link_escapes_what_it_is_given():
    link = download_link('x".csv', filename="a<b>.csv", label="Download <CSV>", name="N", kind="table-csv")
    assert 'href="x&quot;.csv"' in link and 'download="a&lt;b&gt;.csv"' in link and "Download &lt;CSV&gt;" in link


def test_a_calculator_links_its_table_and_chart_csv_and_offers_svg_and_png_once_scripted():
    resolved = resolve(Placement(calculator_id="decode-speed-of-light"), path="x.md")
    view = view_for(resolved, dom_id="c", assets=URLS)
    files = csv_files("decode-speed-of-light", view)
    assert set(files) == {"table", "chart"}
    assert files["table"][1].decode() == view["table_csv"]
    downloads = {kind: "../../" + path for kind, (path, _data) in files.items()}
    html = render_calculator(resolved, dom_id="c", assets=URLS, view=view, downloads=downloads)
    table_link = re.search(r'<a [^>]*data-download="table-csv"[^>]*>Download CSV</a>', html).group(0)
    assert f'href="{downloads["table"]}"' in table_link and 'download="decode-speed-of-light-table.csv"' in table_link
    assert 'aria-label="Download CSV of the table"' in table_link
    assert f'href="{downloads["chart"]}" download="decode-speed-of-light-chart.csv"' in html
    for kind in ("chart-svg", "chart-png"):
        button = re.search(rf'<button [^>]*data-download="{kind}"[^>]*>', html).group(0)
        assert 'type="button"' in button and button.endswith(" hidden>")
    # The table's link comes after the table, the chart's after the chart.
    assert html.index("data-chart-box") < html.index('data-download="chart-svg"')
    assert html.index("</table>") < html.index('data-download="table-csv"')
    # Without files, no link to nothing.
    assert 'data-download="table-csv"' not in render_calculator(resolved, dom_id="c", assets=URLS, view=view)


def test_a_figure_offers_its_svg_file_its_numbers_and_a_png():
    data = figure_data("roofline", batches=[1])
    html = figure_html(SVG, data, number=1, src="../svg/f.svg", csv_src="../data/f.csv")
    assert '<a class="md-button roofline-download" href="../svg/f.svg" download="roofline.svg"' in html
    assert 'href="../data/f.csv" download="roofline.csv" data-download="figure-csv"' in html
    assert re.search(r'<button [^>]*data-download="figure-png"[^>]*hidden>Download PNG</button>', html)
    assert html.index("</figcaption>") < html.index("roofline-downloads") < html.index("Plotted numbers")
    assert "roofline-downloads" not in figure_html(SVG, data, number=1, src="../svg/f.svg")


def test_the_measurement_table_downloads_hold_every_row_with_the_same_values():
    report = validate(load_measurements_file(str(DATA_FILE)), FITTED)
    files = table_files(report, version="abc")
    records = table_records(report)
    document = json.loads(files["json"])
    assert document["data_version"] == "abc" and document["rows"] == records
    assert [c["name"] for c in document["columns"]] == [name for name, _ in TABLE_COLUMNS]
    lines = files["csv"].split("\r\n")
    assert lines[1] == "# data version: abc"
    rows = list(csv.reader(io.StringIO("\r\n".join(line for line in lines if not line.startswith("#")))))
    assert rows[0] == [name for name, _ in TABLE_COLUMNS] and len(rows) == len(records) + 1
    measured = rows[0].index("measured")
    assert [float(row[measured]) for row in rows[1:]] == [r["measured"] for r in records]


def test_hostile_text_in_a_measurement_cannot_become_a_formula_in_its_csv():
    import dataclasses

    report = validate(load_measurements_file(str(DATA_FILE)), FITTED)
    first = report.comparisons[0]
    hostile = dataclasses.replace(first.measurement, conditions='=HYPERLINK("http://x","click"), more')
    report = dataclasses.replace(report, comparisons=(dataclasses.replace(first, measurement=hostile),))
    text = table_files(report, version="v")["csv"]
    body = "\r\n".join(line for line in text.split("\r\n") if not line.startswith("#"))
    row = list(csv.reader(io.StringIO(body)))[1]
    assert row[[name for name, _ in TABLE_COLUMNS].index("conditions")] == "'" + hostile.conditions
