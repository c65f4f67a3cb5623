"""The "Which machine for which model" page: Markdown generated from
:mod:`roofline_core.questions.which_machine`.

A page places the tables with a line holding only :data:`MARKER`; ``hooks/machines.py`` swaps it
at build time, so every number is computed from the presets, none typed. The tables are plain
Markdown, read without JavaScript.
"""

from __future__ import annotations

import html

from roofline_core.formatting import format_bytes, format_capacity, format_tokens_per_s
from roofline_core.questions.which_machine import CONTEXT_TOKENS, FORMATS, MachineRow, Pick, machine_rows

#: The line a page writes where the generated tables go.
MARKER = "<!-- roofline:machines -->"

_BITS = {"int4": "4-bit", "int8": "8-bit"}


def _cell(text: str) -> str:
    """Preset text as a table cell: escaped, and no pipe can end the cell."""
    return html.escape(text, quote=False).replace("|", "\\|")


def _pick_cells(pick: Pick) -> list[str]:
    if pick.model is None:
        return ["none of the presets", "–"]
    return [
        f"{_cell(pick.model.name)} ({format_bytes(pick.used_bytes)})",
        f"{format_tokens_per_s(pick.tokens_per_s)} (about {format_tokens_per_s(pick.expected_tokens_per_s)})",
    ]


def _row(row: MachineRow) -> str:
    chip = row.accelerator
    memory = format_capacity(row.usable_bytes)
    if chip.gpu_usable_memory_bytes is not None:
        memory += f" of {format_capacity(chip.memory_bytes)}"
    cells = [_cell(chip.name), memory, *(cell for pick in row.picks for cell in _pick_cells(pick))]
    return "| " + " | ".join(cells) + " |"


def render_markdown(groups: dict[str, list[MachineRow]] | None = None) -> str:
    """Every chip's largest model at each format and its decode speed, one table per group."""
    groups = machine_rows() if groups is None else groups
    header = ["Chip", "Memory for the model"]
    for dtype in FORMATS:
        bits = _BITS.get(dtype, dtype)
        header += [f"Largest at {bits} (weights + cache)", f"Decode at {CONTEXT_TOKENS // 1024}k, {bits}"]
    parts = []
    for group, rows in groups.items():
        parts.append(f"## {_cell(group)}\n")
        parts.append("| " + " | ".join(header) + " |")
        parts.append("|" + "---|" * len(header))
        parts.extend(_row(row) for row in rows)
        parts.append("")
    return "\n".join(parts)
