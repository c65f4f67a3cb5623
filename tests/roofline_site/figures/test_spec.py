"""Figure blocks: what parses, and the exact message of each mistake."""

from __future__ import annotations

import pytest

from roofline_core.figures import FIGURE_KINDS
from roofline_core.figures.parameters import MAX_COMPARED, MAX_LIST, FigureParameter
from roofline_core.hardware import ACCELERATORS as ACCELERATOR_PRESETS
from roofline_core.models import MODELS
from roofline_core.vocabulary import ListOf, OneOf, WholeNumber
from roofline_site.figures.spec import KIND_PARAMS, FigureBlockError, figure_data_for, parse_block
from tests.support.site_build import PROJECT_ROOT

ACCELERATORS = ", ".join(ACCELERATOR_PRESETS)


def parse(*lines: str, fence_line: int = 10):
    return parse_block(list(enumerate(lines, start=fence_line + 1)), path="docs/page.md", fence_line=fence_line)


def error_of(*lines: str) -> str:
    with pytest.raises(FigureBlockError) as caught:
        parse(*lines)
    return str(caught.value)


def test_a_full_block_parses_to_data_function_arguments():
    spec = parse(
        "kind: roofline",
        "# a comment, then a blank line",
        "",
        "accelerators: h100-sxm, a100-sxm-80gb",
        "model: llama-3-8b",
        "batch: 1, 64",
        "prompt: 2k",
        "context: 4_096",
        "weight-dtype: int8",
        "title: My roofline",
        "caption: With two accelerators.",
    )
    assert spec.kind == "roofline"
    assert spec.arguments == {
        "accelerators": ["h100-sxm", "a100-sxm-80gb"],
        "model": "llama-3-8b",
        "batches": [1, 64],
        "prompt_tokens": [2048],
        "context_tokens": 4096,
        "weight_dtype": "int8",
    }
    assert (spec.title, spec.caption) == ("My roofline", "With two accelerators.")
    data = figure_data_for(spec)
    assert data["title"] == "My roofline" and data["caption"] == "With two accelerators."


def test_every_kind_parses_with_only_its_kind():
    for kind in FIGURE_KINDS:
        spec = parse(f"kind: {kind}")
        assert spec.arguments == {}
        assert figure_data_for(spec)["kind"] == kind


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (
            ("model: llama-3-8b",),
            "docs/page.md:10: figure block has no kind; expected a line 'kind: <kind>' with one of roofline, intensity, decode-batch, kv-cache, decode-split, prefill-decode",
        ),
        (
            ("kind: rooflin",),
            "docs/page.md:11: kind: unknown figure kind 'rooflin' (did you mean roofline?); expected one of roofline, intensity, decode-batch, kv-cache, decode-split, prefill-decode",
        ),
        (
            ("kind: roofline", "acclerators: h100-sxm"),
            "docs/page.md:12: unknown key 'acclerators' for kind roofline (did you mean accelerators?); expected one of kind, title, caption, accelerators, dtype, model, batch, prompt, context, weight-dtype, kv-dtype",
        ),
        (
            ("kind: roofline", "accelerators: h100"),
            f"docs/page.md:12: accelerators: unknown accelerator 'h100' (did you mean h100-sxm?); expected one of {ACCELERATORS}",
        ),
        (
            ("kind: roofline", "batch: 0"),
            "docs/page.md:12: batch: '0' is out of range; expected a whole number from 1 to 65,536 sequences",
        ),
        (
            ("kind: roofline", "context: 4,5"),
            "docs/page.md:12: context: '4,5' has a decimal comma (use a dot: 4.5); expected a whole number from 0 to 10,485,760 tokens (32k = 32,768)",
        ),
        (
            ("kind: decode-batch", "batch: 1,024"),
            "docs/page.md:12: batch: '1,024' is ambiguous: commas separate the values of a list; expected values without thousands separators (1024 or 1k)",
        ),
        (
            ("kind: roofline", "batch: 1,,64"),
            "docs/page.md:12: batch: '1,,64' has an empty item; expected values separated by single commas",
        ),
        (("kind: roofline", "batch: 1, 1"), "docs/page.md:12: batch: '1, 1' repeats a value; expected each value once"),
        (
            ("kind: roofline", "accelerators: h100-sxm, h200, b200, l40s, mi300x"),
            "docs/page.md:12: accelerators: 5 values; expected at most 4",
        ),
        (
            ("kind: roofline", "model:"),
            "docs/page.md:12: model has no value; expected model: model whose decode and prefill steps are marked",
        ),
        (
            ("kind: roofline", "kind: intensity"),
            "docs/page.md:12: kind is given twice (first on line 11); expected each key once",
        ),
        (
            ("kind: roofline", "roofline"),
            "docs/page.md:12: 'roofline' is not a 'key: value' line; expected one 'key: value' per line, e.g. 'kind: roofline'",
        ),
        (
            ("kind: intensity", "accelerators: h100-sxm, a100-sxm-80gb", "dtype: fp8"),
            "docs/page.md:13: dtype: NVIDIA A100 SXM 80GB has no fp8 peak; expected one of tf32, bf16, fp16, int8",
        ),
        (
            ("kind: decode-split", "batch: 1, 64"),
            "docs/page.md:12: batch: '1, 64' is not a number; expected a whole number from 1 to 65,536 sequences (commas may only group thousands: 32,768)",
        ),
        (
            ("kind: intensity", "operations: gemv"),
            "docs/page.md:12: operations: unknown operation 'gemv' (did you mean decode-gemv?); expected one of decode-gemv, decode-gemm-batched, prefill-gemm, decode-attention-mha, decode-attention-gqa, prefill-attention-unfused, prefill-attention-fused, elementwise-add",
        ),
        (
            ("kind: kv-cache", "models: lama-3-8b"),
            "docs/page.md:12: models: unknown model 'lama-3-8b' (did you mean llama-3-8b?); expected one of "
            + ", ".join(MODELS),
        ),
        (
            ("kind: kv-cache", "kv-dtype: fp12"),
            "docs/page.md:12: kv-dtype: unknown storage format 'fp12' (did you mean fp32?); expected one of fp32, bf16, fp16, fp8, int8, fp4, int4",
        ),
        (
            ("kind: roofline", "title: " + "x" * 301),
            "docs/page.md:12: title: a text of 301 characters; expected at most 300 characters",
        ),
    ],
)
def test_each_mistake_has_its_message(lines, message):
    assert error_of(*lines) == message


def test_the_format_check_uses_the_default_accelerator_when_none_is_written():
    # H100 SXM (the default) has no FP4 peak: the mistake is the dtype line, not the figure.
    assert error_of("kind: decode-batch", "dtype: fp4") == (
        "docs/page.md:12: dtype: NVIDIA H100 SXM has no fp4 peak; expected one of tf32, bf16, fp16, fp8, int8"
    )
    assert parse("kind: decode-batch", "accelerator: b200", "dtype: fp4").arguments["dtype"] == "fp4"


def test_the_accelerator_dtype_check_defaults_to_the_fence_line_only_when_dtype_is_absent():
    # tpu-v5e has bf16 but no fp16: fp16 falls back to bf16 (roofline_core's rule), so no error.
    assert parse("kind: roofline", "accelerators: tpu-v5e").arguments == {"accelerators": ["tpu-v5e"]}


def test_every_key_of_every_kind_has_help_and_maps_to_an_argument():
    import inspect

    from roofline_core.figures import FIGURE_FUNCTIONS

    for kind, params in KIND_PARAMS.items():
        signature = inspect.signature(FIGURE_FUNCTIONS[kind])
        for param in params:
            assert param.help
            assert param.argument in signature.parameters, (kind, param.key)


# --- docs/authoring-figures.md is checked against the declarations ------------------------

AUTHORING_DOCS = PROJECT_ROOT / "docs" / "authoring-figures.md"


def _docs_section(heading: str) -> str:
    text = AUTHORING_DOCS.read_text(encoding="utf-8")
    assert heading in text, heading
    after = text.split(heading, 1)[1]
    return after.split("\n## ", 1)[0].split("\n### ", 1)[0]


def _docs_row(parameter: FigureParameter) -> str:
    default = parameter.describe_default()
    return f"| `{parameter.key}` | {parameter.help} | {default if parameter.default_words else f'`{default}`'} |"


@pytest.mark.parametrize("kind", FIGURE_KINDS)
def test_each_kinds_docs_table_is_its_declared_parameters(kind):
    # Fails when a parameter is added without a row, a row names a parameter that does not
    # exist, or a help text or default changes on one side only.
    rows = [line for line in _docs_section(f"### `{kind}`").splitlines() if line.startswith("| `")]
    expected = [_docs_row(p) for p in KIND_PARAMS[kind]]
    assert rows == expected, f"rows of the `{kind}` table in {AUTHORING_DOCS.name} should be:\n" + "\n".join(expected)


def test_the_docs_accepted_values_name_every_choice_and_limit():
    accepted = _docs_section("### Accepted values")
    for params in KIND_PARAMS.values():
        for param in params:
            value = param.value.item if isinstance(param.value, ListOf) else param.value
            if isinstance(value, OneOf):
                for choice in value.values():
                    assert f"`{choice}`" in accepted, (param.key, choice)
            else:
                assert isinstance(value, WholeNumber)
                assert f"`{param.key}`" in accepted and f"to {value.maximum:,}" in accepted, (param.key, value.maximum)
    assert f"At most {MAX_COMPARED} accelerators or models per figure and {MAX_LIST} values per list." in accepted


def test_a_docs_row_shows_the_default_as_an_author_writes_it():
    by_key = {p.key: p for p in KIND_PARAMS["decode-batch"]}
    assert _docs_row(by_key["batch"]) == "| `batch` | batch sizes of the sweep | `1, 2, 4, ..., 1024` |"
    kv_context = next(p for p in KIND_PARAMS["kv-cache"] if p.key == "context")
    assert _docs_row(kv_context).endswith("| `1k, 4k, 16k, 32k, 64k, 128k` |")
    roofline_batch = next(p for p in KIND_PARAMS["roofline"] if p.key == "batch")
    assert _docs_row(roofline_batch).endswith("| none |")
