"""A made-up measurement row for tests of the regime model and the validation: Llama 3 8B on one
H100 SXM, decode at batch 1 in FP16; a test changes only the fields it is about."""

from __future__ import annotations

import dataclasses

from roofline_core.evidence.measurements import Measurement, WeightFormat
from roofline_core.hardware import get_accelerator
from roofline_core.models import get_model
from roofline_core.sources import Source


def measurement_row(**changes: object) -> Measurement:
    base = Measurement(
        id="row",
        line=1,
        source_kind="engine",
        model_slug="llama-3-8b",
        model=get_model("llama-3-8b"),
        accelerator_slug="h100-sxm",
        accelerator=get_accelerator("h100-sxm"),
        devices=1,
        parallelism="none",
        weight_format=WeightFormat("fp16", 16.0),
        kv_format="fp16",
        compute_format="fp16",
        batch=1,
        input_tokens=100,
        output_tokens=200,
        metric="decode_tokens_per_s_per_sequence",
        value=100.0,
        unit="tok/s",
        engine="e",
        engine_version="1",
        date="2024",
        source=Source(title="t", url="https://example.org", states="100.0"),
        conditions="c",
    )
    return dataclasses.replace(base, **changes)
