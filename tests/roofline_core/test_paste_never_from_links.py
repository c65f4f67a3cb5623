"""A pasted field (benchmark output) is never read from a link: not from the query string, not
from a pinned scenario, in Python (the pin the page hands it) or in the browser (url-state.mjs).

Links never write a paste, so one in a link is something a reader did not paste; it is also the
largest text a field takes.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from roofline_core.calculators import CALCULATORS, definition, linked_inputs
from roofline_core.calculators.compare import compare
from roofline_core.view.calculator import compute_view_json
from roofline_core.view.compare import comparison_tree
from tests.support.bench_outputs import VLLM_SUMMARY
from tests.support.site_build import PROJECT_ROOT

URL_STATE = PROJECT_ROOT / "site_assets" / "calculators" / "url-state.mjs"


def test_only_pasted_text_is_unlinked_and_the_page_is_told() -> None:
    unlinked = {(c.id, f.id) for c in CALCULATORS.values() for f in c.inputs if not f.linked}
    assert unlinked == {("reconcile", "benchmark_output"), ("engine-log", "engine_log")}
    fields = {f["id"]: f for f in definition("reconcile")["inputs"]}
    assert fields["benchmark_output"]["linked"] is False
    # The config box stays linked: a link carries its short code.
    assert "linked" not in fields["model_config"]


def test_linked_inputs_drop_a_paste_and_keep_the_rest() -> None:
    raw = {"benchmark_output": VLLM_SUMMARY, "measured": "9", "model_config": "t-llama"}
    assert linked_inputs("reconcile", raw) == {"measured": "9", "model_config": "t-llama"}
    assert linked_inputs("reconcile", None) == {}


def test_a_paste_inside_a_pin_is_not_read() -> None:
    def compared(pinned: dict) -> str:
        return json.dumps(json.loads(compute_view_json("reconcile", {}, "c", pinned=pinned))["compare"])

    # Read, the paste would make A another scenario (its numbers fill A's fields); ignored, the
    # pin is A at the defaults, the same as pinning nothing.
    read = comparison_tree(compare("reconcile", {"benchmark_output": VLLM_SUMMARY}, {}))
    assert json.dumps(read) != compared({})
    assert compared({"benchmark_output": VLLM_SUMMARY}) == compared({})


NODE_CHECK = """
const { linkedInputIds, readPinned, readUrlInputs } = await import(process.argv[1]);
globalThis.window = { location: { search: process.argv[2] } };
const fields = new Map(JSON.parse(process.argv[3]).map((field) => [field.id, field]));
const ids = linkedInputIds(fields);
console.log(JSON.stringify({ ids, url: readUrlInputs(ids, ""), pin: readPinned(ids, "") }));
"""


def test_the_browser_reads_no_paste_from_the_query_string_or_the_pin() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    pin = "measured=9&benchmark_output=" + "%3D" * 50
    search = "?benchmark_output=Successful+requests%3A+1&measured=12&pin=" + pin.replace("&", "%26").replace("=", "%3D")
    fields = json.dumps(definition("reconcile")["inputs"])
    done = subprocess.run(
        [node, "--input-type=module", "-e", NODE_CHECK, URL_STATE.as_uri(), search, fields],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    read = json.loads(done.stdout)
    assert "benchmark_output" not in read["ids"] and "model_config" in read["ids"]
    assert read["url"] == {"measured": "12"}
    assert read["pin"] == {"measured": "9"}
