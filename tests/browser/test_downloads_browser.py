"""Downloads in Chromium: what a reader saves is what the page shows.

The CSV of a calculator's table holds the rows the table shows (before and after the reader
changes the scenario); a live chart's SVG holds the chart's texts and shapes, and its PNG is the
same drawing at twice its size; a figure's SVG is the file the page shows; the measurement table's
files hold its rows. Without JavaScript the built files still download. Playwright's download
event gives each file's bytes.
"""

from __future__ import annotations

import csv
import io
import json
import struct
import xml.etree.ElementTree as ET
from urllib.parse import urljoin

import pytest

from tests.support.calculator_driver import wait_until_mounted, wait_until_settled

pytestmark = pytest.mark.browser

CALCULATOR_PAGE = "calculators/decode-speed-of-light/"
ROOT = '[data-calculator="decode-speed-of-light"]'
FIGURE_PAGE = "glossary/roofline/"
SVG_NS = "{http://www.w3.org/2000/svg}"


def _download(page, selector: str) -> tuple[str, bytes]:
    with page.expect_download() as info:
        page.locator(selector).first.click()
    download = info.value
    with open(download.path(), "rb") as saved:
        return download.suggested_filename, saved.read()


def _csv_rows(data: bytes) -> tuple[list[str], list[list[str]]]:
    text = data.decode("utf-8")
    comments = [line for line in text.split("\r\n") if line.startswith("#")]
    body = "\r\n".join(line for line in text.split("\r\n") if not line.startswith("#"))
    return comments, list(csv.reader(io.StringIO(body)))


def _table_batches(page) -> list[int]:
    cells = page.locator(f"{ROOT} [data-table] tbody tr:not(.roofline-calc__prose-row) td:first-child")
    return [int(text.replace(",", "")) for text in cells.all_inner_texts()]


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:8]
    return struct.unpack(">II", data[16:24])


def _texts(svg: ET.Element) -> list[str]:
    return ["".join(el.itertext()).strip() for el in svg.iter(f"{SVG_NS}text")]


def test_a_calculators_table_csv_holds_the_table_before_and_after_the_scenario_changes(site_server, page_factory):
    page, watch = page_factory()
    page.goto(site_server + CALCULATOR_PAGE)
    name, data = _download(page, f'{ROOT} [data-download="table-csv"]')
    assert name == "decode-speed-of-light-table.csv"
    comments, rows = _csv_rows(data)
    assert rows[0][:2] == ["Batch (sequences)", "Intensity (FLOP/byte)"] and "Latency (s)" in rows[0]
    assert [int(row[0]) for row in rows[1:]] == _table_batches(page)
    assert any(line.startswith("# data version: ") for line in comments)
    # A new scenario: the live result's CSV, computed by roofline_core in the worker.
    wait_until_mounted(page)
    page.select_option(f"{ROOT} [name=accelerator]", "a100-sxm-80gb")
    assert wait_until_settled(page, ROOT) == "live"
    _, data = _download(page, f'{ROOT} [data-download="table-csv"]')
    comments, rows = _csv_rows(data)
    assert "accelerator=a100-sxm-80gb" in comments[1]
    assert [int(row[0]) for row in rows[1:]] == _table_batches(page)
    regimes = page.locator(
        f"{ROOT} [data-table] tbody tr:not(.roofline-calc__prose-row) td:nth-child(3)"
    ).all_inner_texts()
    assert [row[2] for row in rows[1:]] == regimes
    assert watch.page_errors == [] and watch.console_errors == [] and watch.external_requests == []


def test_a_live_charts_svg_is_the_chart_on_the_page_and_its_png_twice_its_size(site_server, page_factory):
    page, watch = page_factory(width=390, color_scheme="dark")
    page.goto(site_server + CALCULATOR_PAGE)
    wait_until_mounted(page)
    svg_button = page.locator(f'{ROOT} [data-download="chart-svg"]')
    assert svg_button.is_visible() and svg_button.get_attribute("aria-label") == "Download SVG of the chart"
    name, data = _download(page, f'{ROOT} [data-download="chart-svg"]')
    assert name == "decode-speed-of-light-chart.svg"
    saved = ET.fromstring(data)
    shown = page.locator(f"{ROOT} [data-chart-box] svg text").all_text_contents()
    assert _texts(saved) == [text.strip() for text in shown]
    assert len(list(saved.iter(f"{SVG_NS}path"))) == page.locator(f"{ROOT} [data-chart-box] svg path").count()
    # Stand-alone: painted by attributes, not the page's classes.
    assert not [el for el in saved.iter() if el.get("class")]
    assert all(el.get("fill") for el in saved.iter(f"{SVG_NS}text"))
    width, height = (float(v) for v in saved.get("viewBox").split()[2:])
    name, png = _download(page, f'{ROOT} [data-download="chart-png"]')
    assert name == "decode-speed-of-light-chart.png" and _png_size(png) == (2 * width, 2 * height)
    assert watch.page_errors == [] and watch.console_errors == [] and watch.external_requests == []


def test_a_figures_svg_is_its_file_its_csv_its_numbers_and_its_png_twice_its_size(site_server, page_factory):
    page, watch = page_factory()
    page.goto(site_server + FIGURE_PAGE)
    figure = "article figure.roofline-figure"
    src = page.locator(f"{figure} [data-download='figure-svg']").first.get_attribute("href")
    name, data = _download(page, f"{figure} [data-download='figure-svg']")
    assert name.endswith(".svg") and data == page.request.get(urljoin(page.url, src)).body()
    title = page.locator(f"{figure} figcaption strong").first.inner_text()
    _, table = _download(page, f"{figure} [data-download='figure-csv']")
    comments, rows = _csv_rows(table)
    assert comments[0] == f"# Roofline Glossary figure: {title}".replace(",", ";")
    assert rows[0] == ["panel", "layer", "label", "x", "x unit", "y", "y unit", "bound"] and len(rows) > 2
    width, height = (float(v) for v in ET.fromstring(data).get("viewBox").split()[2:])
    _, png = _download(page, f"{figure} [data-download='figure-png']")
    assert _png_size(png) == (round(2 * width), round(2 * height))
    assert watch.page_errors == [] and watch.console_errors == [] and watch.external_requests == []


def test_the_measurement_tables_files_hold_its_rows(site_server, page_factory):
    page, watch = page_factory()
    page.goto(site_server + "model-vs-measurement/")
    shown = int(page.locator("[data-measurements-table]").get_attribute("data-measurements-table"))
    _, data = _download(page, "[data-download='table-json']")
    rows = json.loads(data)["rows"]
    assert len([row for row in rows if row["role"] != "excluded"]) == shown
    _, data = _download(page, "[data-download='table-csv']")
    _, table = _csv_rows(data)
    assert [row[0] for row in table[1:]] == [row["id"] for row in rows]
    assert watch.page_errors == [] and watch.console_errors == []


def test_without_javascript_the_built_files_download_and_no_dead_button_shows(site_server, page_factory):
    page, _ = page_factory(java_script_enabled=False)
    page.goto(site_server + CALCULATOR_PAGE)
    assert page.locator(f'{ROOT} [data-download="chart-png"]').is_hidden()
    _, data = _download(page, f'{ROOT} [data-download="table-csv"]')
    assert [int(row[0]) for row in _csv_rows(data)[1][1:]] == _table_batches(page)
    page.goto(site_server + FIGURE_PAGE)
    assert page.locator("article [data-download='figure-png']").first.is_hidden()
    name, data = _download(page, "article [data-download='figure-svg']")
    assert name.endswith(".svg") and data.lstrip().startswith(b"<svg")
