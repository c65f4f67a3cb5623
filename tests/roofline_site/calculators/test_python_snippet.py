""" "Copy as Python" (site_assets/calculators/share.mjs): the copied code names every input by the
label its field has on the page and prints every result under the page's label, and it runs.

The snippet is made by the page's own module in Node, from the definition the build ships to
the page, then run in CPython with roofline_core and compared with ``compute``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from roofline_core.calculators import CALCULATORS, compute, definition
from roofline_core.version import data_version
from roofline_site.calculators.render import browser_definition
from roofline_site.wheel import install_comment
from tests.support.site_build import PROJECT_ROOT

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="needs Node.js to run the page's module")

#: Inputs a reader might have changed, per calculator (the rest at their defaults).
CHANGED = {
    "decode-speed-of-light": {"model": "qwen3-30b-a3b", "batch": "24"},
    "kv-cache": {"context_tokens": "65536", "kv_dtype": "fp8"},
    "what-fits": {"accelerator": "h200", "max_ms_per_token": "12"},
    "prefill-ttft": {"prompt_tokens": "4096"},
}

_SCRIPT = """
import { pythonSnippet } from "./site_assets/calculators/share.mjs";
const scenario = JSON.parse(process.argv[1]);
process.stdout.write(pythonSnippet(scenario));
"""


def _snippet(calculator_id: str, values: dict[str, str]) -> str:
    shipped = browser_definition(definition(calculator_id))
    scenario = {
        "id": calculator_id,
        "title": shipped["title"],
        "values": values,
        "version": data_version(),
        "install": install_comment("https://example.org/"),
        "link": f"https://example.org/calculators/{calculator_id}/",
        "inputs": shipped["inputs"],
        "outputs": shipped.get("outputs", []),
    }
    run = subprocess.run(
        [NODE, "--input-type=module", "-e", _SCRIPT, json.dumps(scenario)],
        capture_output=True,
        text=True,
        cwd=PROJECT_ROOT,
        timeout=60,
        check=True,
    )
    return run.stdout


@pytest.mark.parametrize("calculator_id", sorted(CALCULATORS))
def test_the_copied_python_prints_each_result_under_the_pages_label(calculator_id):
    values = CHANGED.get(calculator_id, {})
    snippet = _snippet(calculator_id, values)
    calculator = CALCULATORS[calculator_id]
    # Each input the reader changed sits beside the label its field has on the page.
    for field in calculator.inputs:
        if field.id in values:
            unit = getattr(field, "unit", "")
            shown = f"{field.label} ({unit})" if unit else field.label
            (line,) = [line for line in snippet.splitlines() if line.startswith(f"    {json.dumps(field.id)}: ")]
            assert f"# {shown}" in line, line
    # It starts with the line that installs the site's roofline_core, and pins the data version.
    assert snippet.splitlines()[0] == install_comment("https://example.org/")
    assert f'check_data_version("{data_version()}")' in snippet
    run = subprocess.run([sys.executable, "-c", snippet], capture_output=True, text=True, cwd=PROJECT_ROOT, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""  # the same data version: no warning
    result = compute(calculator_id, values)
    labels = {output.id: output.label for output in calculator.outputs}
    # Then, indented, the parts of the main time where the calculator has one (issue 31).
    parts = [f"  {i['phrase']}: {i['text']} ({i['working']})" for i in result.get("parts", {}).get("items", [])]
    assert parts or calculator_id not in {
        "decode-speed-of-light",
        "prefill-ttft",
        "speculative-decoding",
        "operations-table",
    }
    assert (
        run.stdout.splitlines()
        == [f"{labels.get(key, key)}: {out['text']}" for key, out in result["outputs"].items()] + parts
    )


def test_a_label_cannot_break_out_of_its_comment():
    shipped = browser_definition(definition("decode-speed-of-light"))
    shipped["inputs"][0]["label"] = "Model\nimport os  # injected"
    scenario = {
        "id": "decode-speed-of-light",
        "title": "Decode\nprint('x')",
        "values": {shipped["inputs"][0]["id"]: "llama-3-8b"},
        "version": "test",
        "install": "# pip install x\nprint('x')",
        "link": "https://example.org/",
        "inputs": shipped["inputs"],
        "outputs": shipped["outputs"],
    }
    run = subprocess.run(
        [NODE, "--input-type=module", "-e", _SCRIPT, json.dumps(scenario)],
        capture_output=True,
        text=True,
        cwd=PROJECT_ROOT,
        timeout=60,
        check=True,
    )
    code_lines = [line for line in run.stdout.splitlines() if not line.lstrip().startswith("#")]
    assert not any(line.startswith(("import os", "print('x')")) for line in code_lines)
