"""Published inference measurements: the cited table the estimates are checked against.

The table is a TOML file (``measurements/measurements.toml`` in the repository) that
contributors extend. This module parses it with the standard library's :mod:`tomllib`, checks
every row and resolves its model and accelerator, so :mod:`roofline_core.evidence.validation` can put
each measurement beside the roofline. The schema is documented at the top of the data file and
in :data:`ROW_FIELDS`.

A row names a model and an accelerator by slug. A slug with a preset in
:mod:`roofline_core.models` or :mod:`roofline_core.hardware` uses the preset; otherwise the file
must declare it in a ``[models.<slug>]`` or ``[accelerators.<slug>]`` table, built from numbers
the table cites (a preset, once it exists, wins, and the declared numbers are checked against it).
A weight format is a number format (``bf16``), a block-scaled preset of
:mod:`roofline_core.hardware.block_formats` (``q4_0``, ``mxfp4``), or a format the file declares in
``[formats.<slug>]`` with its bits per weight, scale bytes included.

Problems are reported as ``<file>:<line>: <what is wrong>; <what is expected>``.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from typing import Any

from roofline_core.formatting import format_amount
from roofline_core.hardware import ACCELERATORS, AnyAccelerator, CustomAccelerator
from roofline_core.hardware.block_formats import BLOCK_FORMATS
from roofline_core.hardware.dtypes import DTYPES, STORAGE_DTYPES
from roofline_core.models import ATTENTION_KINDS, MODELS, AnyModel, CustomModel, Model
from roofline_core.sources import Source

#: What each metric measures, the unit its ``value`` is in, and whether bigger is faster.
#: ``decode_*``: one sequence's decode speed at the row's batch, over a generation from
#: ``input_tokens`` of prompt to ``input_tokens + output_tokens`` of context.
#: ``ttft_ms`` / ``prefill_tokens_per_s``: processing ``batch`` prompts of ``input_tokens``.
#: ``static_batch_output_tokens_per_s_per_device``: a static batch of ``batch`` requests run to
#: completion (prefill, then ``output_tokens - 1`` decode steps), output tokens per second per
#: device.
#: ``serving_*``: a continuous-batching server kept at ``batch`` requests in flight (the benchmark's
#: concurrency), each with ``input_tokens`` of prompt and ``output_tokens`` of output: the server's
#: output tokens per second (all requests), the mean time per output token (TPOT or ITL) and the
#: mean time to first token.
METRICS: dict[str, tuple[str, bool]] = {
    "decode_tokens_per_s_per_sequence": ("tok/s", True),
    "decode_ms_per_token": ("ms", False),
    "prefill_tokens_per_s": ("tok/s", True),
    "ttft_ms": ("ms", False),
    "static_batch_output_tokens_per_s_per_device": ("tok/s", True),
    "serving_output_tokens_per_s": ("tok/s", True),
    "serving_tpot_ms": ("ms", False),
    "serving_ttft_ms": ("ms", False),
}

#: Kinds of source, for the count by kind on the page.
SOURCE_KINDS: tuple[str, ...] = ("mlperf", "vendor", "engine", "community", "blog")

#: How the devices of a row share the model.
PARALLELISMS: tuple[str, ...] = ("none", "tensor", "pipeline", "expert")

#: Every field a ``[[measurement]]`` row may have, and what it holds.
ROW_FIELDS: dict[str, str] = {
    "id": "unique slug of the row (lower-case letters, digits, hyphens)",
    "source_kind": f"one of {', '.join(SOURCE_KINDS)}",
    "model": "model slug: a roofline_core preset or a [models.<slug>] table",
    "accelerator": "accelerator slug: a roofline_core preset or an [accelerators.<slug>] table",
    "devices": "devices the model runs on (whole number >= 1)",
    "parallelism": f"one of {', '.join(PARALLELISMS)} ('none' exactly when devices = 1)",
    "weight_format": "number format of the weights, or a [formats.<slug>] table",
    "kv_format": f"number format of the KV cache, one of {', '.join(STORAGE_DTYPES)}",
    "compute_format": "number format the matrix math runs in (the accelerator must have a peak for it)",
    "batch": "sequences run together; for a serving_* metric the requests kept in flight (whole number >= 1)",
    "input_tokens": "prompt tokens per sequence (whole number >= 1)",
    "output_tokens": "generated tokens per sequence (whole number >= 1)",
    "metric": f"one of {', '.join(METRICS)}",
    "value": "the measured number (> 0), in the metric's unit",
    "unit": "the metric's unit, repeated so a reader sees it",
    "engine": "inference engine",
    "engine_version": "its version or commit",
    "date": "date of the source, YYYY, YYYY-MM or YYYY-MM-DD",
    "source_url": "https address of the source",
    "source_quote": "the exact sentence or table cells the value comes from",
    "conditions": "what else a reader needs to know about the run",
    "exclude": "optional: why the row cannot be estimated honestly (it is then listed, not compared)",
}
_OPTIONAL_ROW_FIELDS = frozenset({"exclude"})

_MODEL_ARCHITECTURE_FIELDS = (
    "name",
    "layers",
    "hidden_size",
    "heads",
    "kv_heads",
    "head_dim",
    "ffn_size",
    "vocab_size",
    "tied_embeddings",
    "attention",
)
_MODEL_MOE_FIELDS = ("experts", "experts_per_token", "shared_experts", "moe_ffn_size", "dense_layers")
_CUSTOM_MODEL_FIELDS = ("name", "streamed_params_per_token", "attention", "layers", "kv_heads", "head_dim")
_ACCELERATOR_FIELDS = ("name", "peak_flop_per_s", "bandwidth_bytes_per_s", "memory_bytes")
_SOURCE_FIELDS = ("source_url", "source_quote")
_DECLARATION_SOURCE_FIELDS = (*_SOURCE_FIELDS, "extra_sources")

_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_DATE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")


class MeasurementError(ValueError):
    """A problem in the measurements file, located as ``<file>:<line>: ...``."""


@dataclass(frozen=True)
class WeightFormat:
    """A storage format of weights, with its real size per weight.

    Attributes:
        slug: Name rows use (``"q4_0"``, ``"bf16"``).
        bits_per_weight: Average stored bits per weight, block scales included.
        source: Where the layout comes from (None for a plain number format).
    """

    slug: str
    bits_per_weight: float
    source: Source | None = None

    @property
    def bytes_per_weight(self) -> float:
        """Stored bytes per weight, in bytes."""
        return self.bits_per_weight / 8.0


@dataclass(frozen=True)
class Measurement:
    """One published measurement, its conditions resolved to roofline_core objects.

    Attributes:
        id: Unique slug of the row.
        line: Line of the row in the file (for messages).
        source_kind: One of :data:`SOURCE_KINDS`.
        model_slug: The model as the row names it.
        model: The preset or the model the file declares.
        accelerator_slug: The accelerator as the row names it.
        accelerator: The preset or the custom accelerator the file declares.
        devices: Devices the model runs on.
        parallelism: One of :data:`PARALLELISMS`.
        weight_format: Storage format of the weights.
        kv_format: Number format of the KV cache.
        compute_format: Number format of the matrix math.
        batch: Sequences run together.
        input_tokens: Prompt tokens per sequence.
        output_tokens: Generated tokens per sequence.
        metric: One of :data:`METRICS`.
        value: The measured number, in ``unit``.
        unit: The metric's unit.
        engine: Inference engine.
        engine_version: Its version.
        date: Date of the source.
        source: Address of the source and the exact quote.
        conditions: Other conditions of the run.
        exclude: Why the row is not compared, or ``""``.
    """

    id: str
    line: int
    source_kind: str
    model_slug: str
    model: AnyModel
    accelerator_slug: str
    accelerator: AnyAccelerator
    devices: int
    parallelism: str
    weight_format: WeightFormat
    kv_format: str
    compute_format: str
    batch: int
    input_tokens: int
    output_tokens: int
    metric: str
    value: float
    unit: str
    engine: str
    engine_version: str
    date: str
    source: Source
    conditions: str
    exclude: str = ""

    @property
    def higher_is_faster(self) -> bool:
        """Whether a bigger value means a faster run (tokens/s yes, milliseconds no)."""
        return METRICS[self.metric][1]


@dataclass(frozen=True)
class MeasurementTable:
    """Every row of a measurements file, with what the file declares.

    Attributes:
        rows: The measurements, in file order.
        declared_models: Slug to source for each ``[models.*]`` table the file declares.
        declared_accelerators: Slug to source for each ``[accelerators.*]`` table.
        formats: Slug to weight format, for the ``[formats.*]`` tables.
        filename: The file's path, for messages that name ``file:line``.
    """

    rows: tuple[Measurement, ...]
    declared_models: dict[str, Source]
    declared_accelerators: dict[str, Source]
    formats: dict[str, WeightFormat]
    filename: str = "measurements.toml"


def load_measurements(text: str, *, filename: str = "measurements.toml") -> MeasurementTable:
    """Parse and check a measurements file.

    Args:
        text: The file's contents (TOML).
        filename: Its path, used in messages.

    Returns:
        The checked :class:`MeasurementTable`.

    Raises:
        MeasurementError: ``<filename>:<line>: <what is wrong>; <what is expected>`` for the
            first problem found.
    """
    lines = _Lines(text, filename)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = getattr(error, "lineno", None) or _line_from_message(str(error))
        raise MeasurementError(f"{filename}:{line}: not valid TOML ({error}); expected TOML as documented") from None
    unknown = sorted(set(data) - {"formats", "models", "accelerators", "measurement"})
    if unknown:
        raise lines.error(1, f"unknown top-level table {unknown[0]!r}", "formats, models, accelerators, measurement")
    formats = _load_formats(data.get("formats", {}), lines)
    models, model_sources = _load_models(data.get("models", {}), lines)
    accelerators, accelerator_sources = _load_accelerators(data.get("accelerators", {}), lines)
    raw_rows = data.get("measurement", [])
    if not isinstance(raw_rows, list):
        raise lines.error(1, "'measurement' must be an array of tables", "[[measurement]] rows")
    row_lines = lines.array_header_lines("measurement")
    rows: list[Measurement] = []
    seen: dict[str, int] = {}
    for raw, line in zip(raw_rows, row_lines):
        row = _load_row(raw, line, lines, formats, models, accelerators)
        if row.id in seen:
            raise lines.error(line, f"duplicate id {row.id!r} (first at line {seen[row.id]})", "a unique id per row")
        seen[row.id] = line
        rows.append(row)
    return MeasurementTable(
        rows=tuple(rows),
        declared_models=model_sources,
        declared_accelerators=accelerator_sources,
        formats=formats,
        filename=filename,
    )


def load_measurements_file(path: str) -> MeasurementTable:
    """:func:`load_measurements` on the file at ``path`` (UTF-8)."""
    with open(path, encoding="utf-8") as handle:
        return load_measurements(handle.read(), filename=path)


# Helper functions ----------------------------------------------------------------------


class _Lines:
    """Finds the line of a table or a key, since :mod:`tomllib` keeps no positions."""

    def __init__(self, text: str, filename: str) -> None:
        self.filename = filename
        self.text_lines = text.splitlines()

    def error(self, line: int, what: str, expected: str) -> MeasurementError:
        return MeasurementError(f"{self.filename}:{line}: {what}; expected {expected}")

    def array_header_lines(self, name: str) -> list[int]:
        pattern = re.compile(rf"^\s*\[\[\s*{re.escape(name)}\s*\]\]")
        return [i + 1 for i, text in enumerate(self.text_lines) if pattern.match(text)]

    def table_line(self, kind: str, key: str) -> int:
        pattern = re.compile(rf"^\s*\[\s*{re.escape(kind)}\s*\.\s*\"?{re.escape(key)}\"?\s*\]")
        for i, text in enumerate(self.text_lines):
            if pattern.match(text):
                return i + 1
        return 1

    def key_line(self, start: int, key: str) -> int:
        """Line of ``key = ...`` in the table that starts at ``start`` (the table's line if absent)."""
        pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
        for i in range(start, len(self.text_lines)):
            text = self.text_lines[i]
            if text.lstrip().startswith("["):
                break
            if pattern.match(text):
                return i + 1
        return start


def _line_from_message(message: str) -> int:
    match = re.search(r"line (\d+)", message)
    return int(match.group(1)) if match else 1


def _source(raw: dict[str, Any], title: str, start: int, lines: _Lines) -> Source:
    for key in _SOURCE_FIELDS:
        value = raw.get(key)
        if not (isinstance(value, str) and value.strip()):
            raise lines.error(lines.key_line(start, key), f"{title}: {key} missing or empty", "a non-empty string")
    if not raw["source_url"].startswith("https://"):
        raise lines.error(
            lines.key_line(start, "source_url"), f"{title}: source_url {raw['source_url']!r}", "an https:// address"
        )
    states = raw["source_quote"]
    # A declaration whose numbers come from two documents names the second in extra_sources.
    for extra in raw.get("extra_sources", []):
        url, quote = (extra.get("url"), extra.get("quote")) if isinstance(extra, dict) else (None, None)
        if not (isinstance(url, str) and url.startswith("https://") and isinstance(quote, str) and quote.strip()):
            raise lines.error(
                lines.key_line(start, "extra_sources"),
                f"{title}: extra_sources entry {extra!r}",
                "{ url = an https:// address, quote = the words used }",
            )
        states += f" Also {url}: {quote}"
    return Source(title=title, url=raw["source_url"], states=states)


def _check_keys(raw: dict[str, Any], allowed: tuple[str, ...], title: str, start: int, lines: _Lines) -> None:
    unknown = sorted(set(raw) - set(allowed))
    if unknown:
        raise lines.error(
            lines.key_line(start, unknown[0]), f"{title}: unknown field {unknown[0]!r}", ", ".join(allowed)
        )


def _number(raw: dict[str, Any], key: str, title: str, start: int, lines: _Lines, *, whole: bool = False) -> Any:
    value = raw.get(key)
    ok = isinstance(value, int) if whole else isinstance(value, (int, float))
    if isinstance(value, bool) or not ok or value <= 0:
        kind = "a whole number >= 1" if whole else "a number > 0"
        raise lines.error(lines.key_line(start, key), f"{title}: {key} is {value!r}", kind)
    return value


def _load_formats(raw_formats: dict[str, Any], lines: _Lines) -> dict[str, WeightFormat]:
    formats = {slug: WeightFormat(slug, DTYPES[slug].bytes_per_element * 8.0) for slug in STORAGE_DTYPES}
    formats |= {slug: WeightFormat(slug, f.bits_per_weight, f.source) for slug, f in BLOCK_FORMATS.items()}
    for slug, raw in raw_formats.items():
        start = lines.table_line("formats", slug)
        title = f"format {slug}"
        if slug in formats:
            raise lines.error(
                start, f"{title} redefines a preset format", "a new name for a format roofline_core has no preset of"
            )
        _check_keys(raw, ("bits_per_weight", *_DECLARATION_SOURCE_FIELDS), title, start, lines)
        bits = _number(raw, "bits_per_weight", title, start, lines)
        formats[slug] = WeightFormat(slug, float(bits), _source(raw, title, start, lines))
    return formats


def _load_models(raw_models: dict[str, Any], lines: _Lines) -> tuple[dict[str, AnyModel], dict[str, Source]]:
    models: dict[str, AnyModel] = dict(MODELS)
    sources: dict[str, Source] = {}
    for slug, raw in raw_models.items():
        start = lines.table_line("models", slug)
        title = f"model {slug}"
        source = _source(raw, title, start, lines)
        sources[slug] = source
        fields = {k: v for k, v in raw.items() if k not in _DECLARATION_SOURCE_FIELDS}
        try:
            if "streamed_params_per_token" in fields:
                _check_keys(raw, (*_CUSTOM_MODEL_FIELDS, *_DECLARATION_SOURCE_FIELDS), title, start, lines)
                declared: AnyModel = CustomModel(**fields)
            else:
                allowed = (*_MODEL_ARCHITECTURE_FIELDS, *_MODEL_MOE_FIELDS, *_DECLARATION_SOURCE_FIELDS)
                _check_keys(raw, allowed, title, start, lines)
                missing = [k for k in _MODEL_ARCHITECTURE_FIELDS if k not in fields]
                if missing:
                    raise lines.error(start, f"{title}: {missing[0]} missing", "every architecture field of a config")
                if fields["attention"] not in ATTENTION_KINDS:
                    raise lines.error(
                        lines.key_line(start, "attention"), f"{title}: attention {fields['attention']!r}", "mha or gqa"
                    )
                declared = Model(slug=slug, source=source, **fields)
        except (TypeError, ValueError) as error:
            if isinstance(error, MeasurementError):
                raise
            raise lines.error(start, f"{title}: {error}", "a consistent architecture") from None
        preset = MODELS.get(slug)
        if preset is not None:
            # A preset landed for a model the file declared: the file's cited numbers must agree.
            if preset.streamed_params_per_token != declared.streamed_params_per_token:
                raise lines.error(
                    start,
                    f"{title} declares {declared.streamed_params_per_token:,} streamed parameters but the preset "
                    f"has {preset.streamed_params_per_token:,}",
                    "the declaration removed, or the two reconciled",
                )
            continue
        models[slug] = declared
    return models, sources


def _load_accelerators(
    raw_accelerators: dict[str, Any], lines: _Lines
) -> tuple[dict[str, AnyAccelerator], dict[str, Source]]:
    accelerators: dict[str, AnyAccelerator] = dict(ACCELERATORS)
    sources: dict[str, Source] = {}
    for slug, raw in raw_accelerators.items():
        start = lines.table_line("accelerators", slug)
        title = f"accelerator {slug}"
        _check_keys(raw, (*_ACCELERATOR_FIELDS, *_DECLARATION_SOURCE_FIELDS), title, start, lines)
        sources[slug] = _source(raw, title, start, lines)
        peaks = raw.get("peak_flop_per_s")
        if not (isinstance(peaks, dict) and peaks and set(peaks) <= set(DTYPES)):
            raise lines.error(
                lines.key_line(start, "peak_flop_per_s"),
                f"{title}: peak_flop_per_s is {peaks!r}",
                f"a table of number formats ({', '.join(DTYPES)}) to FLOP/s",
            )
        for dtype in peaks:
            _number(peaks, dtype, f"{title} peak_flop_per_s", start, lines)
        bandwidth = _number(raw, "bandwidth_bytes_per_s", title, start, lines)
        memory = _number(raw, "memory_bytes", title, start, lines) if "memory_bytes" in raw else None
        preset = ACCELERATORS.get(slug)
        if preset is not None:
            # A preset landed for a chip the file declared: the file's cited bandwidth must agree.
            if preset.bandwidth_bytes_per_s != float(bandwidth):
                raise lines.error(
                    start,
                    f"{title} declares {float(bandwidth):g} bytes/s but the preset has "
                    f"{preset.bandwidth_bytes_per_s:g}",
                    "the declaration removed, or the two reconciled",
                )
            continue
        accelerators[slug] = CustomAccelerator(
            peak_flop_per_s={k: float(v) for k, v in peaks.items()},
            bandwidth_bytes_per_s=float(bandwidth),
            memory_bytes=None if memory is None else float(memory),
            name=str(raw.get("name", slug)),
        )
    return accelerators, sources


def _text(raw: dict[str, Any], key: str, start: int, lines: _Lines) -> str:
    value = raw.get(key)
    if not (isinstance(value, str) and value.strip()):
        raise lines.error(lines.key_line(start, key), f"measurement: {key} missing or empty", ROW_FIELDS[key])
    return value.strip()


def _choice(raw: dict[str, Any], key: str, choices: Any, start: int, lines: _Lines) -> str:
    value = _text(raw, key, start, lines)
    if value not in choices:
        raise lines.error(lines.key_line(start, key), f"measurement: {key} {value!r}", ROW_FIELDS[key])
    return value


def _load_row(
    raw: dict[str, Any],
    start: int,
    lines: _Lines,
    formats: dict[str, WeightFormat],
    models: dict[str, AnyModel],
    accelerators: dict[str, AnyAccelerator],
) -> Measurement:
    unknown = sorted(set(raw) - set(ROW_FIELDS))
    if unknown:
        raise lines.error(
            lines.key_line(start, unknown[0]), f"measurement: unknown field {unknown[0]!r}", "a field of the schema"
        )
    missing = [k for k in ROW_FIELDS if k not in raw and k not in _OPTIONAL_ROW_FIELDS]
    if missing:
        raise lines.error(start, f"measurement: {missing[0]} missing", ROW_FIELDS[missing[0]])
    row_id = _text(raw, "id", start, lines)
    if not _SLUG.match(row_id):
        raise lines.error(lines.key_line(start, "id"), f"measurement: id {row_id!r}", ROW_FIELDS["id"])
    model_slug = _choice(raw, "model", models, start, lines)
    accelerator_slug = _choice(raw, "accelerator", accelerators, start, lines)
    accelerator = accelerators[accelerator_slug]
    counts = {k: _number(raw, k, "measurement", start, lines, whole=True) for k in ("devices", "batch")}
    tokens = {k: _number(raw, k, "measurement", start, lines, whole=True) for k in ("input_tokens", "output_tokens")}
    parallelism = _choice(raw, "parallelism", PARALLELISMS, start, lines)
    if (parallelism == "none") != (counts["devices"] == 1):
        raise lines.error(
            lines.key_line(start, "parallelism"),
            f"measurement: parallelism {parallelism!r} with {format_amount(counts['devices'], 'devices')}",
            ROW_FIELDS["parallelism"],
        )
    compute_format = _text(raw, "compute_format", start, lines)
    if not accelerator.supports(compute_format):
        raise lines.error(
            lines.key_line(start, "compute_format"),
            f"measurement: {accelerator.name} has no {compute_format!r} peak",
            f"one of {', '.join(accelerator.peak_flop_per_s)}",
        )
    metric = _choice(raw, "metric", METRICS, start, lines)
    unit = _text(raw, "unit", start, lines)
    if unit != METRICS[metric][0]:
        raise lines.error(
            lines.key_line(start, "unit"), f"measurement: unit {unit!r} for {metric}", repr(METRICS[metric][0])
        )
    date = _text(raw, "date", start, lines)
    if not _DATE.match(date):
        raise lines.error(lines.key_line(start, "date"), f"measurement: date {date!r}", ROW_FIELDS["date"])
    exclude = raw.get("exclude", "")
    if not isinstance(exclude, str) or ("exclude" in raw and not exclude.strip()):
        raise lines.error(lines.key_line(start, "exclude"), "measurement: exclude is empty", "the reason, as text")
    return Measurement(
        id=row_id,
        line=start,
        source_kind=_choice(raw, "source_kind", SOURCE_KINDS, start, lines),
        model_slug=model_slug,
        model=models[model_slug],
        accelerator_slug=accelerator_slug,
        accelerator=accelerator,
        devices=counts["devices"],
        parallelism=parallelism,
        weight_format=formats[_choice(raw, "weight_format", formats, start, lines)],
        kv_format=_choice(raw, "kv_format", STORAGE_DTYPES, start, lines),
        compute_format=compute_format,
        batch=counts["batch"],
        input_tokens=tokens["input_tokens"],
        output_tokens=tokens["output_tokens"],
        metric=metric,
        value=float(_number(raw, "value", "measurement", start, lines)),
        unit=unit,
        engine=_text(raw, "engine", start, lines),
        engine_version=_text(raw, "engine_version", start, lines),
        date=date,
        source=_source(raw, f"measurement {row_id}", start, lines),
        conditions=_text(raw, "conditions", start, lines),
        exclude=exclude.strip(),
    )
