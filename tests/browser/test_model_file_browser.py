"""A GGUF file chosen in the KV-cache calculator's config box, in Debian's Chromium: only its
header is read (File.slice prefixes, never the whole file), Python in the page reads it, the
results use the file's exact bytes, a hostile header gets one sentence and the calculator keeps
working. The files are written by the pinned ``gguf`` package (tests/support/gguf_files.py).

Screenshots of the calculator with the dropped file, at 1280 px (light and dark) and 390 px,
go to ``screenshots/`` (git-ignored) for people to look at.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import save_file

from roofline_core.view.model_file import model_file_answer
from tests.browser.test_calculators_browser import (
    ROOT,
    real_errors,
    screenshot_calculator,
    set_scheme,
    shown_outputs,
    wait_until_matches_cpython,
)
from tests.conftest import PageWatch
from tests.support.browser_wait import HANG_MS
from tests.support.gguf_files import llama_q4_k_m
from tests.support.hf_configs import config_text

pytestmark = pytest.mark.browser

BOX = f"{ROOT} [name=model_config]"
PICKER = f"{ROOT} input[data-file-for=model_config]"
NOTE = f"{ROOT} [data-file-note-for=model_config]"
#: The file's size on disk: far more than its header, its tail garbage (a sparse file here).
FILE_BYTES = 1 << 30

# Every Blob.slice the page makes, so the test can tell a prefix read from a whole-file read;
# and every whole-Blob read of a file (arrayBuffer, text, stream) without a slice first.
RECORD_READS = """
(() => {
  window.__slices = [];
  window.__wholeReads = [];
  const slice = Blob.prototype.slice;
  Blob.prototype.slice = function (start, end) {
    const part = slice.call(this, start, end);
    if (this instanceof File) {
      window.__slices.push([start ?? 0, end ?? this.size, this.size]);
    }
    return part;
  };
  for (const name of ["arrayBuffer", "text", "stream", "bytes"]) {
    const read = Blob.prototype[name];
    if (read) {
      Blob.prototype[name] = function (...args) {
        if (this instanceof File) {
          window.__wholeReads.push([name, this.size]);
        }
        return read.apply(this, args);
      };
    }
  }
})();
"""


@pytest.fixture(scope="module")
def gguf_path(tmp_path_factory) -> Path:
    """A small Q4_K_M Llama whose header runs past the first 1 MiB read, in a 1 GiB file whose
    tail after the tensors is garbage."""
    path = llama_q4_k_m(tmp_path_factory.mktemp("gguf") / "tiny-llama-Q4_K_M.gguf", vocab=60_000)
    stored = path.stat().st_size
    with open(path, "r+b") as handle:
        handle.truncate(FILE_BYTES)  # sparse: no disk used for the gap
        handle.seek(FILE_BYTES - 4096)
        handle.write(b"\xff\x00garbage" * 400)
    assert path.stat().st_size == FILE_BYTES > stored
    return path


@pytest.fixture(scope="module")
def kv_page(browser, site_server):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    context.add_init_script(RECORD_READS)
    page = context.new_page()
    watch = PageWatch()
    watch.attach(page)
    page.goto(site_server + "calculators/kv-cache/")
    page.select_option(f"{ROOT} [name=model]", "config")
    page.wait_for_selector(f'{ROOT}[data-engine="live"]', timeout=HANG_MS)
    yield page, watch
    context.close()


def expected_answer(path: Path) -> dict:
    with open(path, "rb") as handle:
        head = handle.read(4 << 20)
    return model_file_answer(head, path.stat().st_size, path.name)


def test_a_chosen_gguf_is_read_from_its_header_and_gives_exact_bytes(kv_page, gguf_path, screenshots):
    page, watch = kv_page
    page.set_input_files(PICKER, str(gguf_path))
    expected = expected_answer(gguf_path)
    assert expected["status"] == "read"
    page.wait_for_function(
        "summary => document.querySelector('[data-file-note-for=model_config]').textContent.startsWith(summary)",
        arg=expected["summary"],
        timeout=HANG_MS,
    )
    # The header took two reads (1 MiB, then 2 MiB): never the 1 GiB file, never its tail.
    slices = page.evaluate("window.__slices")
    assert max(end for _, end, _ in slices) == 2 << 20
    assert all(start == 0 and size == FILE_BYTES for start, _, size in slices)
    assert page.evaluate("window.__wholeReads") == []
    # The box holds the model the file describes (shown as its fields), the link its code with
    # the exact bytes per part, and the results are CPython's for those inputs.
    page.wait_for_function(
        "code => new URL(location.href).searchParams.get('model_config') === code", arg=expected["code"]
    )
    # The code's weight format fills the weight format field, which the link carries too.
    page.wait_for_function("() => new URL(location.href).searchParams.get('weight_dtype') === 'q4_k'")
    inputs = wait_until_matches_cpython(page, "kv-cache")
    assert inputs["weight_dtype"] == "q4_k"
    assert '"quant_method": "gguf"' in inputs["model_config"]
    outputs = shown_outputs(page)
    stored = expected["summary"].split("(")[1].split(" bytes")[0]
    assert stored == "21,993,152"
    assert f"Weights as the GGUF file stores them: {stored} bytes" in outputs["weight_format_read"]
    assert outputs["weight_bytes"] == "22 MB"
    note = page.text_content(NOTE)
    assert "Q6_K 58.5%, Q4_K 41.5%" in note and "not the file" in note
    assert page.get_attribute(NOTE, "data-problem") is None
    shoot(page, screenshots)
    assert real_errors(watch) == []


def shoot(page, screenshots) -> None:
    """The calculator with the file's summary under the box: 1280 px light and dark, 390 px (the
    page must not scroll sideways at 390 px, screenshots or not)."""
    page.set_viewport_size({"width": 1280, "height": 900})
    screenshot_calculator(page, screenshots, "gguf-kv-cache-1280-light.png")
    if screenshots.wanted:
        set_scheme(page, "dark")
        screenshot_calculator(page, screenshots, "gguf-kv-cache-1280-dark.png")
        set_scheme(page, "light")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot_calculator(page, screenshots, "gguf-kv-cache-390-light.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    if screenshots.wanted:
        set_scheme(page, "dark")
        screenshot_calculator(page, screenshots, "gguf-kv-cache-390-dark.png")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        set_scheme(page, "light")
    page.set_viewport_size({"width": 1280, "height": 900})


def test_a_hostile_header_gets_one_sentence_and_the_calculator_keeps_working(kv_page, tmp_path):
    page, watch = kv_page
    before = shown_outputs(page)
    hostile = tmp_path / "hostile.gguf"
    hostile.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 2**40, 1) + bytes(64))
    page.set_input_files(PICKER, str(hostile))
    page.wait_for_selector(f"{NOTE}[data-problem]")
    assert page.text_content(NOTE) == (
        "The file 'hostile.gguf' could not be read: byte 8: the header lists 1,099,511,627,776 tensors; "
        "expected at most 65,536."
    )
    # The box and the results keep the last model; the other inputs still recalculate.
    assert shown_outputs(page) == before
    page.fill(f"{ROOT} [name=batch]", "3")
    wait_until_matches_cpython(page, "kv-cache")
    assert shown_outputs(page) != before
    # Typing in the box clears what the file said.
    page.fill(BOX, page.input_value(BOX) + " ")
    page.wait_for_selector(NOTE, state="hidden")
    assert real_errors(watch) == []


def test_a_dropped_safetensors_shard_and_a_pasted_index_say_their_bytes(kv_page, tmp_path):
    page, watch = kv_page
    path = tmp_path / "model-00001-of-00002.safetensors"
    save_file({"a.weight": np.zeros((64, 32), np.float16), "b.weight": np.zeros((16,), np.float32)}, str(path))
    page.fill(BOX, config_text("llama-3.1-8b"))
    wait_until_matches_cpython(page, "kv-cache")
    before = (page.input_value(BOX), shown_outputs(page))
    # Dropped on the box, as a reader drags it from their files.
    page.evaluate(
        """([bytes, name]) => {
            const box = document.querySelector('[data-drop-for=model_config]');
            const transfer = new DataTransfer();
            transfer.items.add(new File([new Uint8Array(bytes)], name));
            box.dispatchEvent(new DragEvent('drop', {dataTransfer: transfer, bubbles: true, cancelable: true}));
        }""",
        [list(path.read_bytes()), path.name],
    )
    page.wait_for_function(
        "() => document.querySelector('[data-file-note-for=model_config]').textContent.startsWith('safetensors: 2 tensors')"
    )
    assert "F16 98.5%, F32 1.54%" in page.text_content(NOTE)
    assert "holds no architecture" in page.text_content(NOTE)
    # The box keeps its config.json and the results their model.
    assert (page.input_value(BOX), shown_outputs(page)) == before
    # The index pasted in the box: its exact total, and a request for the config.json.
    index = {"metadata": {"total_size": 4160}, "weight_map": {"a.weight": path.name, "b.weight": path.name}}
    page.fill(BOX, json.dumps(index))
    page.wait_for_selector(f'{BOX}[aria-invalid="true"]')
    assert page.text_content(f"{ROOT} [data-error-for=model_config]").startswith(
        "Model config.json: this is a model.safetensors.index.json: 2 tensors in 1 file, 4,160 bytes stored"
    )
    assert shown_outputs(page) == before[1]
    assert real_errors(watch) == []
