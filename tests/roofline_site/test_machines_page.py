"""The "Which machine for which model" page's Markdown."""

from __future__ import annotations

import pytest

from roofline_core.hardware import ACCELERATORS
from roofline_core.questions.which_machine import largest_fit
from roofline_site.machines_page import MARKER, render_markdown
from roofline_site.measurements_page import MarkerError, replace_marker


def test_one_table_per_group_and_a_row_per_chip():
    text = render_markdown()
    assert "## NVIDIA GeForce\n" in text and "## Apple\n" in text and "## CPUs: Intel\n" in text
    rows = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith("| Chip")]
    assert len(rows) == len(ACCELERATORS)
    pick = largest_fit(ACCELERATORS["rtx-4090"], weight_dtype="int4")
    row = next(line for line in rows if line.startswith("| NVIDIA GeForce RTX 4090 |"))
    assert f"| {pick.model.name} (" in row


def test_unified_memory_rows_say_the_gpu_share_of_the_pool():
    # The M4 Max (40-core GPU) with 128 GB: macOS wires 96 GiB for the GPU by default.
    row = next(line for line in render_markdown().splitlines() if line.startswith("| Apple M4 Max (40-core GPU)"))
    assert "| 96 GiB of 128 GiB |" in row


def test_the_marker_is_replaced_once_and_a_second_one_is_an_error():
    assert replace_marker(f"# T\n\n{MARKER}\n", "TABLES", page="docs/x.md", marker=MARKER) == "# T\n\nTABLES\n"
    with pytest.raises(MarkerError, match=r"docs/x.md:2: a second"):
        replace_marker(f"{MARKER}\n{MARKER}\n", "TABLES", page="docs/x.md", marker=MARKER)
