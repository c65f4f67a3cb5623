"""The CSV files a reader downloads: SI units named in headers, comment lines, quoting, and no
formula a spreadsheet would run from text a contributor or a link wrote."""

from __future__ import annotations

import csv
import io
import json

import pytest

from roofline_core.calculators import CALCULATORS, compute
from roofline_core.calculators.base import Calculator, Output, value
from roofline_core.figures import FIGURE_KINDS, figure_data
from roofline_core.version import data_version
from roofline_core.view import compute_view_json, figure_csv, table_csv
from roofline_core.view.downloads import chart_csv, csv_text, safe_cell


def _parts(text: str) -> tuple[list[str], list[list[str]]]:
    lines = text.split("\r\n")
    comments = [line for line in lines if line.startswith("#")]
    body = "\r\n".join(line for line in lines if not line.startswith("#"))
    return comments, list(csv.reader(io.StringIO(body)))


def test_a_table_csv_names_units_in_its_header_and_holds_the_si_numbers():
    result = compute("decode-speed-of-light", {"batch": "16"})
    text = table_csv(CALCULATORS["decode-speed-of-light"], result["table"], result["inputs"], data_version="abc123")
    comments, rows = _parts(text)
    assert rows[0] == [
        "Batch (sequences)",
        "Intensity (FLOP/byte)",
        "Regime",
        "Latency (s)",
        "Throughput (tokens/s)",
        "Utilisation (ratio)",
    ]
    first = result["table"][0]
    assert float(rows[1][3]) == first["step_time"]["value"]  # seconds, not the "4.64 ms" shown
    assert rows[1][2] == "memory-bound"
    assert len(rows) == len(result["table"]) + 1
    assert comments[0] == "# Roofline Glossary: Decode speed of light"
    assert "batch=16" in comments[1] and "accelerator=h100-sxm" in comments[1]
    assert "# data version: abc123" in comments


def test_a_column_of_mixed_units_gets_a_unit_column():
    result = compute("what-fits")
    text = table_csv(CALCULATORS["what-fits"], result["table"], result["inputs"], data_version="v")
    _, rows = _parts(text)
    assert rows[0][:3] == ["Question", "Answer", "Answer unit"]
    units = {row[2] for row in rows[1:]}
    assert {"tokens", "sequences", "devices"} <= units
    assert rows[1][1] == str(result["table"][0]["answer"]["value"])


@pytest.mark.parametrize("hostile", ['=HYPERLINK("http://x","y")', "+1+1", "-2+3", "@SUM(A1)", "\tx", "\rx"])
def test_text_that_starts_a_formula_is_prefixed_but_numbers_are_not(hostile):
    assert safe_cell(hostile) == "'" + hostile
    assert safe_cell(-2.5) == -2.5 and safe_cell(-3) == -3
    assert safe_cell("2 + 2") == "2 + 2"


def test_commas_quotes_and_line_breaks_stay_inside_their_cell():
    text = csv_text(["a", "b"], [['x, "quoted"\nnext', 1.5]], comments=['hostile, "comment"\n=1+1'])
    comments, rows = _parts(text)
    # A comment line is one spreadsheet cell beginning with "#": no comma, quote or line break.
    assert comments == ["# hostile; comment =1+1"]
    assert rows == [["a", "b"], ['x, "quoted"\nnext', "1.5"]]


def test_hostile_table_text_cannot_become_a_formula():
    calc = Calculator(
        id="t",
        title="T",
        description="",
        inputs=(),
        outputs=(),
        compute=lambda values: {},
        table_columns=(Output("name", "Name"), Output("time", "Time")),
    )
    table = [{"name": value("=cmd|' /C calc'!A0", "", "=cmd|' /C calc'!A0"), "time": value(-1.0, "s", "-1 s")}]
    _, rows = _parts(table_csv(calc, table, {}, data_version="v"))
    assert rows[1] == ["'=cmd|' /C calc'!A0", "-1.0"]


def test_a_chart_csv_holds_the_roof_and_the_points_in_si_units():
    result = compute("roofline-explorer")
    text = chart_csv(result["chart"], title="Roofline explorer", scenario="accelerator=h100-sxm", data_version="v")
    _, rows = _parts(text)
    assert rows[0] == ["element", "label", "arithmetic intensity (FLOP/byte)", "attainable (FLOP/s)"]
    ridge = next(row for row in rows if row[0] == "ridge")
    assert float(ridge[3]) == result["chart"]["peak_flop_per_s"]


def test_the_view_carries_the_csv_of_its_table_and_chart():
    view = json.loads(compute_view_json("decode-speed-of-light", {"batch": "32"}, "calc"))
    assert f"# data version: {data_version()}" in view["table_csv"]
    assert "batch=32" in view["table_csv"]
    assert view["chart_csv"].startswith("# Roofline Glossary: Decode speed of light")
    assert json.loads(compute_view_json("speculative-decoding", {}, "calc"))["table_csv"] is None


@pytest.mark.parametrize("kind", FIGURE_KINDS)
def test_every_figure_csv_names_si_units_and_has_a_row_per_number(kind):
    figure = figure_data(kind)
    _, rows = _parts(figure_csv(figure, data_version="v"))
    assert rows[0] == ["panel", "layer", "label", "x", "x unit", "y", "y unit", "bound"]
    assert len(rows) > 2
    for panel in figure["panels"]:
        assert "x_unit" in panel and "y_unit" in panel
    # Labels written with a prefix ("TFLOP/s", "ms") are drawn that way only: the CSV is SI.
    assert not {row[6] for row in rows[1:]} & {"TFLOP/s", "ms"}
