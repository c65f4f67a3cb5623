"""Deep JSON and huge numbers from a reader's text: one located error each, never a traceback.

A pasted ``config.json`` nested thousands of levels deep overflows Pyodide's WebAssembly stack
(a fatal error, not a RecursionError), so its depth is measured before the JSON reader runs; a
number of thousands of digits makes ``int()`` raise a bare ValueError, and ``1e999`` reads as an
infinity. Each must come back as the field's own message, with the other fields still read.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from roofline_core.calculators import compute
from roofline_core.models.config_code import read_model_config
from roofline_core.models.hf_config import (
    MAX_CONFIG_CHARS,
    MAX_JSON_DEPTH,
    MAX_NUMBER_DIGITS,
    ConfigError,
    check_json_shape,
    parse_config_text,
)
from tests.support.hf_configs import CONFIG_DIR

LLAMA = json.loads((CONFIG_DIR / "llama-3.1-8b.json").read_text(encoding="utf-8"))
#: CPU seconds: linear scans of a megabyte take a fraction of this.
SCAN_BOUND_S = 2.0


def _config_with(key: str, raw_json_value: str) -> str:
    """Llama 3.1 8B's config.json with ``key`` set to a value written as raw JSON text."""
    others = {k: v for k, v in LLAMA.items() if k != key}
    return json.dumps(others, indent=2)[:-2] + f',\n  "{key}": {raw_json_value}\n}}'


def _nested(levels: int) -> str:
    return '{"rope_scaling": ' + "[" * (levels - 1) + "]" * (levels - 1) + "}"


# --- depth --------------------------------------------------------------------------------------


def test_every_real_config_is_well_inside_the_limits() -> None:
    for path in sorted(CONFIG_DIR.glob("*.json")):
        check_json_shape(path.read_text(encoding="utf-8"))


def test_nesting_past_the_limit_is_refused_with_its_depth_and_line() -> None:
    check_json_shape(_nested(MAX_JSON_DEPTH))
    with pytest.raises(ConfigError) as caught:
        parse_config_text("{\n" + '"a": ' + "[" * 64 + "]" * 64 + "}")
    assert str(caught.value) == (
        f"line 2: the JSON is nested 65 levels deep; expected at most {MAX_JSON_DEPTH} levels (a config.json has 4)"
    )


def test_brackets_inside_strings_do_not_count() -> None:
    text = json.dumps({"_name_or_path": "[" * 1000 + '\\"{' * 500, "architectures": ["x"]})
    check_json_shape(text)


@pytest.mark.parametrize(
    "text",
    [
        "[" * MAX_CONFIG_CHARS,
        '{"a": ' + "[" * (MAX_CONFIG_CHARS // 2 - 10) + "]" * (MAX_CONFIG_CHARS // 2 - 10) + "}",
        # Strings that never close: each must be skipped once, not rescanned from every quote.
        '{"a": "' + '\\"' * (MAX_CONFIG_CHARS // 2 - 10),
        '{"a": "' + '"\\' * (MAX_CONFIG_CHARS // 2 - 10),
        "1" * MAX_CONFIG_CHARS,
        "1 " * (MAX_CONFIG_CHARS // 2),
    ],
    ids=["open brackets", "balanced brackets", "open escaped quotes", "quote backslash", "digits", "short numbers"],
)
def test_the_pre_scan_is_linear_at_the_size_cap(text: str) -> None:
    # This thread's CPU time, not the clock: a quadratic scan takes minutes of it at the cap, while
    # on a machine busy with other work a linear one can take seconds of wall time.
    started = time.thread_time()
    with pytest.raises(ConfigError):
        parse_config_text(text)
    assert time.thread_time() - started < SCAN_BOUND_S


def test_a_deep_config_in_a_calculator_is_that_fields_error_and_the_rest_still_reads() -> None:
    result = compute("kv-cache", {"model": "config", "model_config": _nested(100_000), "batch": "4"})
    assert result["errors"] == {
        "model_config": "Model config.json: line 1: the JSON is nested 100,000 levels deep; "
        f"expected at most {MAX_JSON_DEPTH} levels (a config.json has 4)"
    }
    assert result["inputs"]["batch"] == 4


# --- huge numbers -------------------------------------------------------------------------------


def test_a_number_of_thousands_of_digits_is_located_not_raised() -> None:
    with pytest.raises(ConfigError) as caught:
        read_model_config(_config_with("hidden_size", "1" * 5000))
    # The value is the last line of the object: indent=2 puts the key on its own line.
    line = _config_with("hidden_size", "1").count("\n")
    assert str(caught.value) == (f"line {line}: a number of 5,000 digits; expected at most {MAX_NUMBER_DIGITS} digits")


@pytest.mark.parametrize("key", ["hidden_size", "sliding_window", "decoder_sparse_step", "first_k_dense_replace"])
@pytest.mark.parametrize("number", ["1e999", "-1e999", "Infinity", "NaN", "[1e999]"])
def test_infinite_and_not_a_number_values_are_named_by_their_field(key: str, number: str) -> None:
    # decoder_sparse_step is read by no Llama model: it reached int(inf) when the code was written.
    result = compute("kv-cache", {"model": "config", "model_config": _config_with(key, number), "batch": "2"})
    assert set(result["errors"]) == {"model_config"}
    assert f"field '{key}' is " in result["errors"]["model_config"]
    assert "; expected a whole number" in result["errors"]["model_config"]
    assert result["inputs"]["batch"] == 2


@pytest.mark.parametrize("typed", ["1" * 5000, "1e999", "9" * 64, "1" + "_1" * 31])
def test_a_calculator_number_too_long_or_infinite_is_a_field_error(typed: str) -> None:
    result = compute("kv-cache", {"batch": typed, "context_tokens": "1024"})
    assert set(result["errors"]) == {"batch"}
    assert result["inputs"]["context_tokens"] == 1024


# --- the command line ---------------------------------------------------------------------------


def _cli(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "roofline_core", *argv], capture_output=True, text=True, timeout=60, check=False
    )


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        ("huge-int.json", _config_with("hidden_size", "1" * 5000), "a number of 5,000 digits; expected at most"),
        ("deep.json", _nested(50_000), "nested 50,000 levels deep; expected at most 32 levels"),
        ("infinite.json", _config_with("decoder_sparse_step", "1e999"), "field 'decoder_sparse_step' is inf"),
    ],
    ids=["huge int", "deep", "infinite"],
)
def test_the_cli_prints_one_error_line_and_exits_2_for_a_hostile_config(
    tmp_path: Path, name: str, text: str, words: str
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    done = _cli("kv-cache", "--config", str(path))
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("roofline: error: ") and words in lines[0], done.stderr


@pytest.mark.parametrize("value", ["1" * 5000, "1e999"])
def test_the_cli_refuses_a_huge_option_value_in_one_line(value: str) -> None:
    done = _cli("decode", "--batch", value)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith("roofline: error: "), done.stderr


def test_the_cli_reads_a_llama_bench_row_with_a_huge_count_without_a_traceback(tmp_path: Path) -> None:
    paste = tmp_path / "bench.md"
    paste.write_text("| llama 8B Q4_0 | 4 GiB | 8 B | CUDA | pp" + "1" * 5000 + " | 1.00 ± 0.10 |\n", encoding="utf-8")
    done = _cli("reconcile", "--model", "llama-3.1-8b", "--paste-file", str(paste), "--json")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
