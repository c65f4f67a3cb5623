"""Read a pasted benchmark summary into the reconciler's fields, naming whatever is not used.

Two formats are recognised, as their printers write them (read from the source, not guessed):

- **vLLM's serving benchmark** (``vllm bench serve``; formerly ``benchmarks/benchmark_serving.py``):
  ``benchmark()`` in ``vllm/benchmarks/serve.py`` (vllm-project/vllm at commit 009e6d4a1cd6)
  prints a block opened by ``"{s:{c}^{n}}".format(s=" Serving Benchmark Result ", n=50, c="=")``
  and closed by ``"=" * 50``; each line is ``"{:<40} {:<10}"`` (counts) or ``"{:<40} {:<10.2f}"``
  (rates and times) of a label and a value: ``Successful requests:``, ``Failed requests:``,
  ``Maximum request concurrency:`` (only with ``--max-concurrency``), ``Request rate configured
  (RPS):``, ``Benchmark duration (s):``, ``Total input tokens:``, ``Total generated tokens:``,
  ``Request throughput (req/s):``, ``Output token throughput (tok/s):``, ``Peak output token
  throughput (tok/s):``, ``Peak concurrent requests:``, ``Total token throughput (tok/s):``, then
  per metric (``process_one_metric``) a ``-`` rule with a header and ``Mean {TTFT,TPOT,ITL,E2EL}
  (ms):``, ``Median ... (ms):`` and ``P{p} ... (ms):`` lines (also for ``Client Queue Time`` and
  ``E2EL incl. Client Queue``), and the optional blocks: ``Probe Requests`` (``Probe requests
  completed:``, ``Probe requests failed:``, ``Median``/``P99``/``Max probe E2EL (ms):``),
  ``Speculative Decoding`` (``Acceptance rate (%):``, ``Acceptance length:``, ``Drafts:``,
  ``Draft tokens:``, ``Accepted tokens:``, ``Per-position acceptance (%):`` and ``  Position
  {i}:`` lines) or ``Diffusion Decoding`` (``Committed throughput (tok/s):``, ``Denoising steps
  per canvas:``, ``Committed per denoising step:``, ``Committed tokens:``, ``Denoising steps:``,
  ``Canvas positions evaluated:``). Before the block it prints ``Traffic request rate: {rate}``
  (or ``Traffic ramp-up strategy: ...`` and ``Will increase RPS from ...``), ``Burstiness
  factor: ...`` and ``Maximum request concurrency: {n or None}``; the older
  ``benchmarks/benchmark_serving.py`` wrote ``Total Token throughput (tok/s):``.
- **llama.cpp's llama-bench** markdown table: ``markdown_printer`` in
  ``tools/llama-bench/llama-bench.cpp`` (ggml-org/llama.cpp at commit 0104b151c56d) prints the
  columns ``model | size | params | backend`` first, then optional ones (``ngl``, ``threads``,
  ``n_batch``, ``type_k``, ``fa`` ...), and ``test | t/s`` last. ``model`` is the model's
  description (``llama 8B Q4_K - Medium``), ``size`` ``"%.2f GiB"`` (or MiB), ``params``
  ``"%.2f B"`` (or M), ``test`` ``pp%d``, ``tg%d`` or ``pp%d+tg%d`` with `` @ d%d`` for a depth
  of context already in the cache, and ``t/s`` ``"%.2f ± %.2f"`` (mean and standard deviation).
  Before the table, ggml's backends log the devices they found: ``ggml_cuda_init`` in
  ``ggml/src/ggml-cuda/ggml-cuda.cu`` prints ``found %d CUDA devices:`` (or ROCm, MUSA) and per
  device ``"  Device %d: %s, compute capability %d.%d, VMM: %s"`` (later with ``, VRAM: %zu
  MiB``; ROCm prints the architecture in place of the compute capability); the device's name
  picks the accelerator preset (:data:`DEVICE_PRESETS`).

:func:`parse_benchmark_output` never raises: text too long, binary or unrelated gets a message
saying so. Standard library only.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from roofline_core.vocabulary import MAX_PASTED_CHARS

#: Longest paste read, in characters (the paste box's own limit): a vLLM summary is about
#: 1,500 and a llama-bench row about 150, so this leaves room for logs around them.
MAX_PASTE_CHARS = MAX_PASTED_CHARS
#: How much of a line a message quotes.
_QUOTED = 60

VLLM, LLAMA_BENCH = "vLLM benchmark summary", "llama-bench table"

# The reconciler's field ids (roofline_core.calculators.reconcile) this module fills.
ACCELERATOR, BATCH, CONTEXT, PROMPT = "accelerator", "batch", "context_tokens", "prompt_tokens"
KIND, MEASURED, TTFT, WEIGHTS = "measurement_kind", "measured", "ttft_ms", "weight_dtype"


@dataclass(frozen=True)
class Reading:
    """One value read for a field.

    Attributes:
        field: The reconciler's field id.
        value: The value, as the field takes it (a number, or a choice's value).
        line: The pasted line it came from (shortened), or a description of how it was derived.
    """

    field: str
    value: float | int | str
    line: str


@dataclass(frozen=True)
class Parsed:
    """What a paste gave.

    Attributes:
        source: :data:`VLLM`, :data:`LLAMA_BENCH`, or ``""`` when neither was recognised.
        readings: Field values read, in field order of first reading.
        unused: Each line or column that could not be used, with why (not a line of the format,
            a value that is not a number, a row that mixes prefill and decode).
        not_needed: Lines of the format that were read but fill no field (a P99, the duration).
        notes: Things read that fill no field (a model's size, the backend), for the reader.
    """

    source: str
    readings: tuple[Reading, ...]
    unused: tuple[str, ...]
    notes: tuple[str, ...] = ()
    not_needed: tuple[str, ...] = ()

    def fields(self) -> dict[str, float | int | str]:
        """``{field id: value}`` of every reading."""
        return {r.field: r.value for r in self.readings}


def _quote(line: str) -> str:
    line = " ".join(line.split())
    return repr(line if len(line) <= _QUOTED else line[: _QUOTED - 1] + "…")


def _line(line: str) -> str:
    """A line as a reading cites it: spaces joined, at most 100 characters."""
    line = " ".join(line.split())
    return line if len(line) <= 100 else line[:99] + "…"


def _number(text: str) -> float | None:
    """A finite non-negative number written plainly (``12.34``), else None."""
    text = text.strip()
    if not re.fullmatch(r"\d{1,15}(?:\.\d{1,12})?", text):
        return None
    value = float(text)
    return value if math.isfinite(value) else None


# --- vLLM -------------------------------------------------------------------------------------

#: Labels of benchmark() and process_one_metric() whose values the reconciler uses.
_VLLM_LABELS = {
    "Successful requests:": "completed",
    "Maximum request concurrency:": "concurrency",
    "Total input tokens:": "total_input",
    "Total generated tokens:": "total_output",
    "Median TPOT (ms):": "median_tpot",
    "Mean TPOT (ms):": "mean_tpot",
    "Median ITL (ms):": "median_itl",
    "Mean ITL (ms):": "mean_itl",
    "Median TTFT (ms):": "median_ttft",
    "Mean TTFT (ms):": "mean_ttft",
    "Output token throughput (tok/s):": "output_throughput",
}
#: Other labels the summary prints (without their colon): recognised, and named as not needed.
_VLLM_OTHER = frozenset(
    {
        "Failed requests",
        "Request rate configured (RPS)",
        "Benchmark duration (s)",
        "Request throughput (req/s)",
        "Request goodput (req/s)",
        "Peak output token throughput (tok/s)",
        "Peak concurrent requests",
        "Total token throughput (tok/s)",
        "RTFx (Inverse Real-Time Factor)",
        "Input throughput (inputs/s)",
        "Traffic request rate",
        "Max request concurrency",
        "Backend",
        "Acceptance rate (%)",
        "Acceptance length",
        "Drafts",
        "Draft tokens",
        "Accepted tokens",
        "Per-position acceptance (%)",
        # benchmarks/benchmark_serving.py before it moved to vllm/benchmarks/serve.py.
        "Total Token throughput (tok/s)",
        # The traffic lines printed before the block.
        "Burstiness factor",
        "Traffic ramp-up strategy",
        # --probe-request-rate
        "Probe requests completed",
        "Probe requests failed",
        "Max probe E2EL (ms)",
        # A diffusion model's block (in place of the speculative one).
        "Committed throughput (tok/s)",
        "Denoising steps per canvas",
        "Committed per denoising step",
        "Committed tokens",
        "Denoising steps",
        "Canvas positions evaluated",
    }
)
#: Lines without a label: the ramp-up's plan, and each position's acceptance rate.
_VLLM_OTHER_LINE = re.compile(r"Will increase RPS from .{1,200}|Position \d{1,3}:\s*\d{1,15}(?:\.\d{1,12})?")
#: process_one_metric's labels (``Mean TTFT (ms)``, ``P99.9 E2EL (ms)``). Matched on the text
#: before a line's first colon, at most :data:`_LONGEST_LABEL` characters, so the pattern's
#: one open-ended part never sees more than that.
_VLLM_METRIC = re.compile(r"(?:Mean|Median|P\d{1,3}(?:\.\d{1,3})?) [A-Za-z0-9 .]{1,40} \(ms\)")
_LONGEST_LABEL = 60
#: The characters of the block's rules (``=====`` and ``-----``, with or without a title).
_RULE_CHARS = frozenset("=-")


def _is_rule(line: str) -> bool:
    """A rule or a titled rule: three rule characters at each end (``=== Title ===``).

    Only the ends are looked at, so the time does not depend on the line's length (a pattern
    with a free middle between two runs of the same characters backtracks cubically).
    """
    return len(line) >= 6 and set(line[:3]) <= _RULE_CHARS and set(line[-3:]) <= _RULE_CHARS


def _other_label(line: str) -> bool:
    """Whether ``line`` is one of the summary's lines the reconciler does not need."""
    if _VLLM_OTHER_LINE.fullmatch(line):
        return True
    label, colon, _ = line.partition(":")
    if not colon or len(label) > _LONGEST_LABEL:
        return False
    return label in _VLLM_OTHER or _VLLM_METRIC.fullmatch(label) is not None


def _concurrency_given(line: str) -> bool:
    """Whether ``line`` states a concurrency limit (readable or not); ``None`` states there was none."""
    label = "Maximum request concurrency:"
    stripped = line.strip()
    return stripped.startswith(label) and stripped[len(label) :].strip() != "None"


def _vllm(lines: list[str]) -> Parsed:
    found: dict[str, tuple[float, str]] = {}
    unused: list[str] = []
    not_needed: list[str] = []
    for line in lines:
        stripped = line.strip()
        if not stripped or _is_rule(stripped):
            continue  # blank lines and the block's rules and headers
        label = next((lab for lab in _VLLM_LABELS if stripped.startswith(lab)), None)
        if label is None:
            if _other_label(stripped):
                not_needed.append(_quote(stripped))
            else:
                unused.append(f"{_quote(stripped)}: not a line of vLLM's summary")
            continue
        number = _number(stripped[len(label) :])
        if label == "Maximum request concurrency:" and stripped[len(label) :].strip() == "None":
            # The traffic line of a run without --max-concurrency: no batch to read.
            not_needed.append(_quote(stripped))
            continue
        if number is None:
            unused.append(f"{_quote(stripped)}: the value is not a number")
            continue
        found.setdefault(_VLLM_LABELS[label], (number, _line(stripped)))
    readings: list[Reading] = []
    used: set[str] = set()
    concurrency = found.get("concurrency")
    if concurrency and concurrency[0] >= 1 and concurrency[0] == int(concurrency[0]):
        readings.append(Reading(BATCH, int(concurrency[0]), concurrency[1]))
        used.add("concurrency")
    elif not any(_concurrency_given(line) for line in lines):
        unused.append(
            "the concurrency: the run had no --max-concurrency, so the batch the server ran is "
            "unknown (enter it yourself)"
        )
    # The median time per output token says most about a typical step; the mean, then the
    # inter-token latency, stand in when a run printed only those.
    per_token = next((key for key in ("median_tpot", "mean_tpot", "median_itl", "mean_itl") if key in found), None)
    if per_token and found[per_token][0] > 0:
        readings.append(Reading(KIND, "ms_per_token", found[per_token][1]))
        readings.append(Reading(MEASURED, found[per_token][0], found[per_token][1]))
        used.add(per_token)
    elif "output_throughput" in found and "concurrency" in used and found["output_throughput"][0] > 0:
        readings.append(Reading(KIND, "total_tokens_per_s", found["output_throughput"][1]))
        readings.append(Reading(MEASURED, found["output_throughput"][0], found["output_throughput"][1]))
        used.add("output_throughput")
    ttft = next((key for key in ("median_ttft", "mean_ttft") if key in found and found[key][0] > 0), None)
    if ttft:
        readings.append(Reading(TTFT, found[ttft][0], found[ttft][1]))
        used.add(ttft)
    completed = found.get("completed")
    if completed and completed[0] >= 1:
        requests = completed[0]
        used.add("completed")
        if "total_input" in found:
            used.add("total_input")
            prompt = max(1, round(found["total_input"][0] / requests))
            readings.append(Reading(PROMPT, prompt, f"{found['total_input'][1]} / {completed[1]}"))
            if "total_output" in found:
                used.add("total_output")
                # A sequence's context grows from the prompt to prompt + output over its decode:
                # the middle of that range is the context of an average step.
                output = found["total_output"][0] / requests
                readings.append(
                    Reading(
                        CONTEXT,
                        round(prompt + output / 2),
                        f"mean prompt + half the mean output ({found['total_output'][1]} / {completed[1]})",
                    )
                )
    for key, (_, line) in found.items():
        if key not in used:
            not_needed.append(_quote(line))
    return Parsed(VLLM, tuple(readings), tuple(unused), not_needed=tuple(not_needed))


# --- llama-bench ------------------------------------------------------------------------------

#: The columns markdown_printer always prints first and last (llama-bench.cpp, print_header).
_FIRST = ("model", "size", "params", "backend")
_LAST = ("test", "t/s")
#: Token counts in a test name have at most this many digits (llama-bench prints an int; more
#: digits would also reach Python's limit on converting long digit strings).
_COUNT_DIGITS = 9
_COUNT = rf"(\d{{1,{_COUNT_DIGITS}}})"
_TEST = re.compile(rf"(?:pp{_COUNT})?\+?(?:tg{_COUNT})?(?:\s*@\s*d{_COUNT})?")
_RATE = re.compile(r"(\d{1,12}(?:\.\d{1,6})?)\s*(?:±\s*\d{1,12}(?:\.\d{1,6})?)?")
#: llama.cpp's file-type names (llama_model_ftype_name) that match a weight format here.
_FTYPES = (
    (re.compile(r"\bQ4_K\b"), "q4_k"),
    (re.compile(r"\bQ4_0\b"), "q4_0"),
    (re.compile(r"\bQ8_0\b"), "q8_0"),
    (re.compile(r"\bBF16\b"), "bf16"),
    (re.compile(r"\bF16\b"), "fp16"),
    (re.compile(r"\bF32\b"), "fp32"),
    (re.compile(r"\bMXFP4\b"), "mxfp4"),
)


#: Device names as the drivers report them (``cudaDeviceProp.name``, ``hipDeviceProp_t.name``,
#: the names ``nvidia-smi`` and ``rocm-smi`` show) -> this site's accelerator preset. Only names
#: that pin one preset: an "A100 80GB PCIe" or an "A10G" has none (their bandwidths differ from
#: the SXM and A10 sheets), and one GCD of an MI250X is half the preset's two dies.
DEVICE_PRESETS: dict[str, str] = {
    "NVIDIA H100 80GB HBM3": "h100-sxm",
    "NVIDIA H100 SXM": "h100-sxm",
    "NVIDIA H100 PCIe": "h100-pcie",
    "NVIDIA H100 NVL": "h100-nvl",
    "NVIDIA H200": "h200",
    "NVIDIA H20": "h20",
    "NVIDIA B200": "b200",
    "NVIDIA A100-SXM4-40GB": "a100-sxm-40gb",
    "NVIDIA A100-SXM4-80GB": "a100-sxm-80gb",
    "NVIDIA L40S": "l40s",
    "NVIDIA L40": "l40",
    "NVIDIA L4": "l4",
    "NVIDIA A10": "a10",
    "NVIDIA GeForce RTX 3090": "rtx-3090",
    "NVIDIA GeForce RTX 4090": "rtx-4090",
    "NVIDIA GeForce RTX 5090": "rtx-5090",
    "AMD Instinct MI210": "mi210",
    "AMD Instinct MI300X": "mi300x",
    "AMD Instinct MI325X": "mi325x",
    "AMD Instinct MI355X": "mi355x",
}
#: ggml_cuda_init's lines: ``found N CUDA devices:`` and ``  Device 0: NAME, ...`` (the name
#: ends at the first comma; a CUDA build of mid-2024 wrote ``NAME(24080M), compute ...``).
_DEVICES_FOUND = re.compile(r"ggml_cuda_init: found (\d{1,4}) (?:CUDA|ROCm|MUSA) devices:")
_DEVICE = re.compile(r"Device (\d{1,4}): ([^,]{1,100}?)(?:\(\d{1,12}M\))?, .{1,300}")
#: Other log lines ggml and llama.cpp print before the table (``ggml_cuda_init: GGML_CUDA_FORCE_MMQ:
#: no``, ``load_backend: loaded CUDA backend from ...``): recognised, not needed.
_LOG_LINE = re.compile(r"(?:ggml|llama|load_backend|register_backend)[a-z_]{0,40}: .{0,400}")


def _devices(lines: list[str], readings: list[Reading], notes: list[str], unused: list[str]) -> list[str]:
    """Read ggml's device lines into the accelerator (when they name one preset) and return the
    lines that are neither device nor log lines, for the table reader."""
    rest: list[str] = []
    names: list[tuple[str, str]] = []
    for line in lines:
        stripped = line.strip()
        device = _DEVICE.fullmatch(stripped)
        if device:
            names.append((device.group(2).strip(), _line(stripped)))
        elif _DEVICES_FOUND.fullmatch(stripped) or _LOG_LINE.fullmatch(stripped):
            continue
        else:
            rest.append(line)
    distinct = list(dict.fromkeys(name for name, _ in names))
    if len(distinct) > 1:
        unused.append(f"the devices: {', '.join(map(_quote, distinct))} differ; choose the accelerator yourself")
    elif distinct:
        name, line = distinct[0], names[0][1]
        slug = DEVICE_PRESETS.get(name)
        if slug is None:
            notes.append(f"device {_quote(name)}: not one of this site's accelerators; choose the nearest")
        else:
            readings.append(Reading(ACCELERATOR, slug, line))
        if len(names) > 1:
            notes.append(
                f"{len(names)} devices: llama-bench splits the layers over them by default (-sm layer), "
                "which run one after another, so leave the devices at 1 unless it split by rows (-sm row)"
            )
    return rest


def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return [cell.strip() for cell in inner.split("|")]


def _llama_bench(lines: list[str]) -> Parsed:
    header: list[str] | None = None
    readings: list[Reading] = []
    unused: list[str] = []
    notes: list[str] = []
    seen: set[str] = set()
    for line in _devices(lines, readings, notes, unused):
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("|"):
            if stripped.startswith("build:"):
                continue  # print_footer's build line
            unused.append(f"{_quote(stripped)}: not a row of llama-bench's table")
            continue
        cells = _cells(stripped)
        if cells and cells[0] == "model":
            header = cells
            continue
        if all(re.fullmatch(r":?-+:?", cell) for cell in cells):
            continue  # the header's rule
        if len(cells) < len(_FIRST) + len(_LAST):
            unused.append(f"{_quote(stripped)}: has {len(cells)} columns; a llama-bench row has at least 6")
            continue
        if header is not None and len(header) == len(cells):
            row = dict(zip(header, cells))
        else:
            # Without the header, the columns printed first and last are still known.
            row = dict(zip(_FIRST, cells)) | dict(zip(_LAST, cells[-2:]))
            if header is not None:
                unused.append(f"{_quote(stripped)}: has {len(cells)} columns, the header {len(header)}")
        _row(row, _line(stripped), readings, unused, notes, seen)
    return Parsed(LLAMA_BENCH, tuple(readings), tuple(unused), tuple(dict.fromkeys(notes)))


def _row(
    row: dict[str, str], line: str, readings: list[Reading], unused: list[str], notes: list[str], seen: set[str]
) -> None:
    test = _TEST.fullmatch(row.get("test", ""))
    rate = _RATE.fullmatch(row.get("t/s", ""))
    if test is None or not (test.group(1) or test.group(2)):
        unused.append(
            f"{_quote(line)}: test {_quote(row.get('test', ''))} is not ppN, tgN or ppN+tgN "
            f"(N of at most {_COUNT_DIGITS} digits)"
        )
        return
    if rate is None or float(rate.group(1)) <= 0:
        unused.append(f"{_quote(line)}: t/s {_quote(row.get('t/s', ''))} is not 'mean ± std'")
        return
    prompt, generated = int(test.group(1) or 0), int(test.group(2) or 0)
    depth = int(test.group(3) or 0)
    per_s = float(rate.group(1))
    if prompt and generated:
        unused.append(f"{_quote(line)}: {row['test']} mixes prefill and decode in one rate; paste its pp or tg row")
        return
    kind = "tg" if generated else "pp"
    if kind in seen:
        unused.append(f"{_quote(line)}: a second {kind} row; the first one was used")
        return
    seen.add(kind)
    if generated:
        # tgN: one sequence generates N tokens after `depth` cached ones; t/s is that sequence's rate.
        readings.append(Reading(BATCH, 1, line))
        readings.append(Reading(KIND, "tokens_per_s_per_sequence", line))
        readings.append(Reading(MEASURED, per_s, line))
        readings.append(Reading(CONTEXT, depth + generated // 2, f"{row['test']}: the middle of its generation"))
    else:
        # ppN: N prompt tokens at t/s, so the prefill took N / t/s seconds.
        readings.append(Reading(PROMPT, prompt, line))
        readings.append(Reading(TTFT, round(prompt / per_s * 1e3, 3), f"{row['test']} at {rate.group(1)} t/s"))
        if depth:
            notes.append(
                f"{row['test']}: the prompt follows {depth:,} cached tokens, which the prefill bound leaves out"
            )
    model = row.get("model", "")
    fmt = next((slug for pattern, slug in _FTYPES if pattern.search(model)), None)
    if fmt and not any(r.field == WEIGHTS for r in readings):
        readings.append(Reading(WEIGHTS, fmt, f"model {_quote(model)}"))
        if "Q4_K - Medium" in model or "Q4_K_M" in model:
            notes.append("Q4_K - Medium keeps some tensors in Q6_K: its weights are a little larger than Q4_K's")
    elif not fmt and model:
        notes.append(f"model {_quote(model)}: its weight format is not one of this site's; choose the nearest")
    for column in ("model", "size", "params", "backend"):
        if row.get(column):
            notes.append(f"{column}: {row[column]}")


# --- Entry point ------------------------------------------------------------------------------


def parse_benchmark_output(text: object) -> Parsed:
    """Read a pasted vLLM serving summary or llama-bench table into the reconciler's fields.

    Args:
        text: What was pasted (anything: only text up to :data:`MAX_PASTE_CHARS` is read).

    Returns:
        A :class:`Parsed`; ``source`` is ``""`` and ``unused`` says why when nothing was
        recognised. Never raises.

    >>> parse_benchmark_output("| llama 8B Q4_0 | 4.33 GiB | 8.03 B | CUDA | 99 | tg128 | 98.50 ± 0.20 |").fields()
    {'batch': 1, 'measurement_kind': 'tokens_per_s_per_sequence', 'measured': 98.5, 'context_tokens': 64, 'weight_dtype': 'q4_0'}
    """
    if not isinstance(text, str):
        return Parsed("", (), (f"the paste is {type(text).__name__}, not text",))
    if len(text) > MAX_PASTE_CHARS:
        return Parsed(
            "",
            (),
            (f"the paste is {len(text):,} characters; at most {MAX_PASTE_CHARS:,} are read (paste the summary alone)",),
        )
    lines = text.splitlines()
    if not any(line.strip() for line in lines):
        return Parsed("", (), ())
    if any(line.strip().startswith(tuple(_VLLM_LABELS)) for line in lines) or any(
        "Serving Benchmark Result" in line for line in lines
    ):
        return _vllm(lines)
    if any(line.strip().startswith("|") for line in lines):
        return _llama_bench(lines)
    return Parsed(
        "",
        (),
        ("nothing recognised: paste vLLM's 'Serving Benchmark Result' block or a llama-bench table row",),
    )
