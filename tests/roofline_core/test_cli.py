"""The command line: presets and custom numbers, tables and JSON, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roofline_core.cli import COMMANDS, main
from tests.support.bench_outputs import BENCH_DIR
from tests.support.hf_configs import CONFIG_DIR


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_ridge_lists_every_preset(capsys) -> None:
    code, out, err = run(capsys, "ridge")
    assert code == 0 and err == ""
    assert "NVIDIA H100 SXM" in out and "295 FLOP/byte" in out
    assert "NVIDIA A100 SXM 80GB" in out and "153 FLOP/byte" in out


def test_ridge_custom_json(capsys) -> None:
    code, out, _ = run(capsys, "ridge", "--peak-tflops", "989", "--bandwidth-tbs", "3.35", "--json")
    assert code == 0
    row = json.loads(out)["rows"][0]
    assert row["ridge_point"]["value"] == pytest.approx(295.22, abs=0.01)
    assert row["ridge_point"]["text"] == "295 FLOP/byte"


def test_decode_custom_numbers_reproduce_the_8b_seed(capsys) -> None:
    code, out, _ = run(capsys, "decode", "--params", "8e9", "--peak-tflops", "989", "--bandwidth-tbs", "3.35")
    assert code == 0
    assert "4.78 ms" in out and "209 tok/s" in out
    # No capacity given: no memory verdict.
    assert "Fits in memory" not in out


def test_decode_preset_json(capsys) -> None:
    code, out, _ = run(
        capsys,
        "decode",
        "--model",
        "llama-3-8b",
        "--accelerator",
        "h100-sxm",
        "--batch",
        "8",
        "--context",
        "0",
        "--json",
    )
    result = json.loads(out)
    assert code == 0
    assert result["outputs"]["intensity"]["value"] == pytest.approx(8.0)
    assert result["outputs"]["fits"]["value"] is True


def test_batch_sweep_is_seed_004s_table(capsys) -> None:
    code, out, _ = run(capsys, "batch-sweep", "--params", "70e9", "--accelerator", "h100-sxm", "--json")
    rows = json.loads(out)["rows"]
    assert code == 0
    assert [r["batch"]["value"] for r in rows] == [1, 2, 4, 8, 16, 32, 64, 128, 256]
    assert rows[0]["step_time"]["text"] == "41.8 ms"
    assert rows[-1]["tokens_per_s"]["text"] == "6,126 tok/s"
    code, out, _ = run(capsys, "batch-sweep", "--params", "70e9", "--batches", "1,512")
    assert code == 0 and "compute-bound" in out


def test_prefill_and_kv_cache(capsys) -> None:
    code, out, _ = run(capsys, "prefill", "--model", "llama-3-8b", "--prompt-tokens", "4096")
    assert code == 0 and "compute-bound" in out and "Time to first token" in out
    code, out, _ = run(capsys, "kv-cache", "--model", "llama-3-70b", "--context", "32768")
    assert code == 0 and "10.7 GB" in out
    code, out, _ = run(capsys, "kv-cache", "--model", "llama-3-70b", "--accelerator", "h100-sxm", "--devices", "4")
    # (4 x 80 GiB x 0.9 - activations - 141 GB of weights) / 10.7 GB per 32k sequence: 15.
    assert code == 0 and "15 sequences" in out
    code, out, _ = run(capsys, "kv-cache", "--attention", "mla", "--layers", "61", "--json")
    assert json.loads(out)["outputs"]["kv_bytes_per_token"]["value"] == 61 * 576 * 2


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["decode", "--model", "llama-3-8b", "--batch", "0"],
            "--batch: Batch size: '0' is out of range; expected a whole number from 1 to 65,536",
        ),
        (["decode", "--model", "llama-3-8b", "--batch", "nan"], "--batch: Batch size: 'nan' is not a number; expected"),
        (["decode", "--model", "nope"], "--model: Model: unknown model 'nope'; expected one of"),
        (["decode"], "give --model"),
        (["decode", "--model", "llama-3-8b", "--params", "8e9"], "not both"),
        (["decode", "--params", "8e9", "--peak-tflops", "989"], "needs both --peak-tflops and --bandwidth-tbs"),
        (["decode", "--params", "8e9", "--context", "10"], "--context needs --layers"),
        (
            ["decode", "--params", "8e9", "--peak-tflops", "-1", "--bandwidth-tbs", "3"],
            "--peak-tflops: Peak compute: '-1' is out of range; expected",
        ),
        (["ridge", "--accelerator", "a100-sxm-80gb", "--dtype", "fp8"], "has no fp8 peak"),
        (["kv-cache"], "give --model"),
        (
            ["batch-sweep", "--params", "7e9", "--batches", "1,x"],
            "--batches: Batch size: 'x' is not a number; expected",
        ),
        (["frobnicate"], "invalid choice"),
        (["decode", "--model", "llama-3-8b", "--bogus"], "unrecognized arguments"),
        ([], "required"),
    ],
)
def test_errors_are_one_line_with_exit_2(capsys, argv: list[str], expected: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("roofline: error: ")
    assert expected in err
    assert "Traceback" not in err


def test_python_dash_m_runs_and_fails_cleanly() -> None:
    ok = subprocess.run(
        [sys.executable, "-m", "roofline_core", "ridge", "--accelerator", "h100-sxm"], capture_output=True, text=True
    )
    assert ok.returncode == 0 and "295 FLOP/byte" in ok.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "roofline_core", "decode", "--model", "<b>x</b>"], capture_output=True, text=True
    )
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.splitlines()) == 1


@pytest.mark.parametrize("command", list(COMMANDS))
def test_help_of_every_command(capsys, command: str) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "--json" in out
    # Every scenario command takes hardware; the listing commands and the weight-file reader do not.
    assert ("--accelerator" in out) == (command not in ("models", "accelerators", "weights"))


# --- The commands run the site's calculators ---------------------------------------------------


def test_decode_prints_the_calculators_outputs_with_its_labels(capsys) -> None:
    from roofline_core.calculators import CALCULATORS, compute

    code, out, _ = run(
        capsys, "decode", "--model", "llama-3-70b", "--batch", "16", "--context", "8192", "--devices", "4", "--json"
    )
    result = json.loads(out)
    site = compute(
        "decode-speed-of-light", {"model": "llama-3-70b", "batch": "16", "context_tokens": "8192", "devices": "4"}
    )
    assert code == 0 and site["errors"] == {}
    # Every output but the config's weight format, which only a --config file's quantization_config fills.
    labels = {o.id: o.label for o in CALCULATORS["decode-speed-of-light"].outputs if o.id != "weight_format_read"}
    assert list(result["outputs"]) == list(labels)
    for key, entry in result["outputs"].items():
        assert entry == {"label": labels[key], **site["outputs"][key]}
    assert result["inputs"]["batch"]["value"] == 16 and result["inputs"]["model"]["text"] == "Llama 3 70B"


def test_prefill_custom_hardware_goes_through_the_calculator(capsys) -> None:
    from roofline_core.calculators import compute

    code, out, _ = run(
        capsys,
        "prefill",
        "--params",
        "8e9",
        "--peak-tflops",
        "989",
        "--bandwidth-tbs",
        "3.35",
        "--prompt-tokens",
        "2048",
        "--json",
    )
    outputs = json.loads(out)["outputs"]
    site = compute(
        "prefill-ttft",
        {
            "model": "custom",
            "params_billion": 8,
            "accelerator": "custom",
            "peak_tflop_per_s": 989,
            "bandwidth_tb_per_s": 3.35,
            "prompt_tokens": 2048,
        },
    )["outputs"]
    del site["weight_format_read"]  # shown only for a --config file's quantization_config
    assert code == 0
    assert {key: {k: v for k, v in entry.items() if k != "label"} for key, entry in outputs.items()} == site
    assert outputs["ttft"]["value"] == pytest.approx(2 * 8e9 * 2048 / 989e12)


def test_batch_sweep_rows_are_the_decode_calculators_table(capsys) -> None:
    from roofline_core.calculators import compute

    code, out, _ = run(
        capsys, "batch-sweep", "--model", "mixtral-8x7b", "--context", "4096", "--batches", "1,64,1024", "--json"
    )
    rows = json.loads(out)["rows"]
    table = {
        row["batch"]["value"]: row
        for row in compute("decode-speed-of-light", {"model": "mixtral-8x7b", "context_tokens": 4096})["table"]
    }
    assert code == 0
    assert rows == [table[1], table[64], table[1024]]


def test_kv_cache_custom_memory_and_weights(capsys) -> None:
    code, out, _ = run(
        capsys,
        "kv-cache",
        "--layers",
        "80",
        "--kv-heads",
        "8",
        "--head-dim",
        "128",
        "--params",
        "70e9",
        "--memory-gb",
        "320",
        "--devices",
        "1",
        "--json",
    )
    outputs = json.loads(out)["outputs"]
    assert code == 0
    assert outputs["weight_bytes"]["value"] == 140e9
    # A serving engine keeps 10% of the 320 GB (a model known by its size has no activation estimate).
    assert outputs["max_batch"]["value"] == (320e9 * 0.9 - 140e9) // 10_737_418_240
    # Without --params the weights are unknown, so nothing that depends on them is shown.
    code, out, _ = run(
        capsys, "kv-cache", "--layers", "80", "--kv-heads", "8", "--head-dim", "128", "--memory-gb", "320", "--json"
    )
    assert code == 0 and set(json.loads(out)["outputs"]) == {
        "kv_bytes",
        "kv_bytes_per_token",
        "kv_bytes_per_sequence",
        "state_bytes_per_sequence",
        "kv_copies",
        "share_of_memory",
    }


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["ridge", "--memory-gb", "80"],
            "--memory-gb does not apply to ridge (it is an option of decode, batch-sweep, kv-cache)",
        ),
        (["prefill", "--model", "llama-3-8b", "--context", "5"], "--context does not apply to prefill"),
        (["kv-cache", "--model", "llama-3-8b", "--peak-tflops", "9"], "--peak-tflops does not apply to kv-cache"),
        (["ridge", "--batch=4"], "--batch does not apply to ridge"),
        (["decode", "--model", "custom"], "--model: choose a preset; give your own numbers with --params"),
        (
            ["ridge", "--accelerator", "custom"],
            "--accelerator: choose a preset; give your own numbers with --peak-tflops",
        ),
        (
            ["decode", "--params", "5"],
            "--params: '5' is out of range; expected a number from 1,000,000 to 1e14 parameters",
        ),
        (["decode", "--params", "8e9", "--layers", "32"], "needs all of --layers, --kv-heads and --head-dim"),
        (["decode", "--model", "llama-3-8b", "--layers", "32"], "--layers describes a custom model"),
        (["decode", "--model", "llama-3-8b", "--memory-gb", "80"], "--memory-gb goes with --peak-tflops"),
        (
            ["kv-cache", "--model", "llama-3-8b", "--accelerator", "h100-sxm", "--memory-gb", "80"],
            "give --accelerator or --memory-gb, not both",
        ),
        (
            ["kv-cache", "--model", "llama-3-8b", "--memory-gb", "0"],
            "--memory-gb: Memory capacity: '0' is out of range; expected a number from 0.001 to 1,000,000 GB",
        ),
        (["kv-cache", "--model", "llama-3-8b", "--params", "8e9"], "give --model or --params, not both"),
        (
            ["kv-cache", "--model", "llama-3-8b", "--context", "20000000"],
            "--context: Context length: '20000000' is out of range; expected a whole number from 1 to 10,485,760",
        ),
        (
            ["prefill", "--model", "llama-3-8b", "--prompt-tokens", "0"],
            "--prompt-tokens: Prompt length: '0' is out of range; expected",
        ),
        (["ridge", "--dtype", "fp64"], "--dtype: unknown number format 'fp64' (did you mean fp4?); expected one of"),
    ],
)
def test_more_errors_are_one_line_with_exit_2(capsys, argv: list[str], expected: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("roofline: error: ")
    assert expected in err


README_EXAMPLES = [
    ["ridge"],
    ["ridge", "--peak-tflops", "989", "--bandwidth-tbs", "3.35"],
    ["decode", "--model", "llama-3-8b", "--accelerator", "h100-sxm", "--batch", "8", "--context", "4096"],
    ["decode", "--params", "8e9", "--peak-tflops", "989", "--bandwidth-tbs", "3.35"],
    ["batch-sweep", "--params", "70e9", "--accelerator", "h100-sxm"],
    ["prefill", "--model", "llama-3-70b", "--accelerator", "h200", "--prompt-tokens", "8192", "--devices", "2"],
    ["kv-cache", "--model", "llama-3-70b", "--context", "32768", "--accelerator", "h100-sxm", "--devices", "4"],
    ["kv-cache", "--attention", "mla", "--layers", "61", "--mla-latent-dim", "512", "--context", "131072"],
    ["decode", "--config", "tests/data/hf_configs/qwen3-30b-a3b.json", "--batch", "16", "--context", "8192"],
]


def test_the_readme_examples_are_the_ones_documented_and_run(capsys, monkeypatch) -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    monkeypatch.chdir(root)  # the --config example names a file relative to the repository
    readme = (root / "README.md").read_text(encoding="utf-8")
    for argv in README_EXAMPLES:
        assert "python -m roofline_core " + " ".join(argv) in readme
        code, out, err = run(capsys, *argv)
        assert code == 0 and err == "" and out.strip()
        code, out, _ = run(capsys, *argv, "--json")
        result = json.loads(out)
        for entry in [
            *result.get("outputs", {}).values(),
            *(cell for row in result.get("rows", []) for cell in row.values()),
        ]:
            assert {"value", "unit", "text"} <= set(entry)


# --- Output that cannot be written ------------------------------------------------------------


def test_a_reader_that_stops_early_gets_no_traceback() -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "roofline_core", "ridge"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    child.stdout.close()  # like `| head -0`: the pipe is closed before anything is written
    err = child.stderr.read().decode()
    assert child.wait(timeout=60) != 0
    assert err == ""


def test_ridge_piped_to_head_prints_one_line_and_no_error() -> None:
    shell = subprocess.run(
        f"'{sys.executable}' -m roofline_core ridge | head -1", shell=True, capture_output=True, text=True, timeout=60
    )
    assert shell.stdout.splitlines() == ["Ridge points for fp16 math"]
    assert shell.stderr == ""


@pytest.mark.skipif(not __import__("os").path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_one_line_and_a_failing_status() -> None:
    with open("/dev/full", "w") as full:
        child = subprocess.run(
            [sys.executable, "-m", "roofline_core", "ridge"], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60
        )
    assert child.returncode == 1
    assert child.stderr.startswith("roofline: error: cannot write the output: No space left on device")
    assert child.stderr.count("\n") == 1 and "Traceback" not in child.stderr


_NASTY = [
    "",
    " ",
    "0",
    "-1",
    "1",
    "8e9",
    "1e308",
    "nan",
    "inf",
    "abc",
    "custom",
    "mla",
    "gqa",
    "h100-sxm",
    "llama-3-8b",
    "1,x",
    "<b>",
    "1_000",
]


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_arguments_give_a_result_or_one_error_line(capsys, data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(list(COMMANDS)))
    every_option = sorted({option for command in COMMANDS.values() for option in command.options})
    options = data.draw(st.lists(st.sampled_from(every_option), max_size=4, unique=True))
    argv = [name]
    for option in options:
        argv += [option, data.draw(st.sampled_from(_NASTY))]
    code, out, err = run(capsys, *argv)
    if code == 0:
        assert err == "" and out.strip()
    else:
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and err.startswith("roofline: error: "), (argv, err)


def test_models_lists_every_preset_by_family_with_its_source(capsys) -> None:
    from roofline_core.models import MODELS

    code, out, err = run(capsys, "models", "--json")
    assert code == 0 and err == ""
    rows = json.loads(out)["rows"]
    assert [row["model"]["value"] for row in rows] == list(MODELS)
    families = [row["family"]["value"] for row in rows]
    assert families == sorted(families, key=families.index), "each family's models sit together"
    assert all(row["source"]["value"].startswith("https://") for row in rows)
    deepseek = next(row for row in rows if row["model"]["value"] == "deepseek-v3")
    assert deepseek["total"]["value"] == MODELS["deepseek-v3"].total_params
    code, out, err = run(capsys, "models")
    assert code == 0 and "Model presets" in out and "llama-3.1-8b" in out


def test_accelerators_lists_every_preset_with_link_and_power(capsys) -> None:
    from roofline_core.hardware import ACCELERATORS

    code, out, err = run(capsys, "accelerators", "--json")
    assert code == 0 and err == ""
    rows = {row["accelerator"]["value"]: row for row in json.loads(out)["rows"]}
    assert set(rows) == set(ACCELERATORS)
    assert rows["h100-sxm"]["link"]["value"] == 900e9 and rows["h100-sxm"]["power"]["value"] == 700
    assert rows["tpu-v5e"]["memory"]["value"] == 16 * 2**30


def test_accelerators_show_the_measured_roof_and_how_sure_each_peak_is(capsys) -> None:
    code, out, err = run(capsys, "accelerators", "--json")
    rows = {row["accelerator"]["value"]: row for row in json.loads(out)["rows"]}
    assert rows["h100-sxm"]["measured"]["value"] == 2.97e12 and rows["h100-sxm"]["measured"]["text"] == "2.97 TB/s"
    assert rows["l4"]["measured"]["text"] == "-"
    assert rows["rtx-4070"]["peak"]["text"].endswith("(computed)")
    assert not rows["h100-sxm"]["peak"]["text"].endswith(")")


def test_accelerators_table_names_each_source_by_host_and_json_keeps_the_address(capsys) -> None:
    code, out, err = run(capsys, "accelerators", "--json")
    source = next(r for r in json.loads(out)["rows"] if r["accelerator"]["value"] == "h100-sxm")["source"]
    assert source["value"] == "https://www.nvidia.com/en-us/data-center/h100/" and source["text"] == "nvidia.com"
    code, out, err = run(capsys, "accelerators")
    assert code == 0 and "https://" not in out
    # 170: the measured-bandwidth column (issue 34) added 11 characters to the 160 before it;
    # 171: the slug rtx-4070-ti-super is one character longer than any before it.
    assert max(len(line) for line in out.splitlines()) < 171, "a long address no longer widens the table"
    assert "docs.cloud.google.com" in out and "anandtech.com" in out
    apple = next(line for line in out.splitlines() if "apple-m4-max" in line.split())
    assert "14.8 TFLOP/s (measured)" in apple


def test_listing_commands_take_no_scenario_options(capsys) -> None:
    code, _out, err = run(capsys, "models", "--batch", "4")
    assert code == 2 and "--batch does not apply to models" in err


# --- --config: a model from its config.json ------------------------------------------------------

PHI_4 = str(CONFIG_DIR / "phi-4.json")


def test_config_gives_the_same_numbers_as_the_preset_it_describes(capsys) -> None:
    path = str(CONFIG_DIR / "llama-3.1-8b.json")
    for command in (
        ["decode", "--batch", "16", "--context", "8192"],
        ["prefill"],
        ["kv-cache", "--accelerator", "h200"],
    ):
        code, out, err = run(capsys, *command, "--config", path, "--json")
        assert code == 0, err
        from_config = json.loads(out)["outputs"]
        code, out, _ = run(capsys, *command, "--model", "llama-3.1-8b", "--json")
        from_preset = json.loads(out)["outputs"]
        # The engines' commands load a repository, which a preset names and a config does not.
        commands = ("vllm_command", "sglang_command", "llama_cpp_command")
        for name in commands:
            from_preset.pop(name, None), from_config.pop(name, None)
        assert from_config == from_preset, command
    code, out, _ = run(capsys, "kv-cache", "--config", path)
    assert "t-llama.l-32.h-4096" in out  # the code a site link carries


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["decode", "--config", "/no/such/config.json"], "--config: cannot read /no/such/config.json"),
        (["decode", "--config", str(CONFIG_DIR / "SOURCES.json")], "--config: Model config.json: model_type None"),
        (["decode", "--config", PHI_4, "--model", "llama-3-8b"], "give --config or --model, not both"),
        (["kv-cache", "--config", PHI_4, "--layers", "4"], "give --config or --layers, not both"),
        (["decode", "--config", PHI_4, "--params", "8e9"], "give --config or --params, not both"),
        (["ridge", "--config", "x.json"], "--config does not apply to ridge"),
    ],
)
def test_config_errors_are_one_line(capsys, argv: list[str], expected: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and expected in err, err


def test_config_that_is_not_text_or_not_json(capsys, tmp_path) -> None:
    binary = tmp_path / "config.json"
    binary.write_bytes(b"\xff\xfe\x00")
    code, _, err = run(capsys, "decode", "--config", str(binary))
    assert code == 2 and "is not UTF-8 text" in err
    broken = tmp_path / "broken.json"
    broken.write_text('{"model_type": "llama",\n  "hidden_size": }')
    code, _, err = run(capsys, "decode", "--config", str(broken))
    assert code == 2 and "line 2, column 18" in err


def test_limits_gives_the_inverse_answers_with_what_binds(capsys) -> None:
    from roofline_core.hardware import ACCELERATORS
    from roofline_core.models import MODELS
    from roofline_core.questions.inverse import fewest_devices, largest_batch

    argv = ("limits", "--model", "llama-3.1-70b", "--accelerator", "h100-sxm", "--devices", "4", "--context", "8192")
    code, out, err = run(capsys, *argv, "--max-ms-per-token", "20", "--json")
    assert code == 0 and err == ""
    outputs = json.loads(out)["outputs"]
    model, accelerator = MODELS["llama-3.1-70b"], ACCELERATORS["h100-sxm"]
    batch = largest_batch(model=model, accelerator=accelerator, devices=4, context_tokens=8192)
    assert outputs["largest_batch"]["value"] == batch.value
    assert outputs["largest_batch"]["text"] == f"Up to {batch.value} sequences fit in memory."
    devices = fewest_devices(model=model, accelerator=accelerator, batch=16, context_tokens=8192, max_ms_per_token=20)
    assert outputs["fewest_devices"]["value"] == devices.value
    code, _out, err = run(capsys, *argv, "--max-ms-per-token", "0")
    assert code == 2 and "Latency target" in err


def test_compare_shows_each_inputs_effect_and_the_changed_results(capsys) -> None:
    from roofline_core.calculators.compare import compare

    code, out, err = run(
        capsys,
        "compare",
        "roofline-explorer",
        "--a",
        "intensity=16",
        "--b",
        "intensity=16",
        "accelerator=h200",
        "--json",
    )
    assert code == 0 and err == ""
    result = json.loads(out)
    expected = compare("roofline-explorer", {"intensity": "16"}, {"intensity": "16", "accelerator": "h200"})
    (change,) = expected.changes
    assert result["inputs"]["accelerator"]["text"].startswith("NVIDIA H100 SXM -> NVIDIA H200 SXM")
    assert [row["b"]["text"] for row in result["rows"]] == [o.b_text for o in expected.outputs if o.changed]
    code, out, _ = run(capsys, "compare", "roofline-explorer", "--b", "accelerator=h200")
    assert code == 0 and "Accelerator" in out and "B / A" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--b", "batch"), "expected FIELD=VALUE"),
        (("--b", "nope=1"), "has no field 'nope'"),
        (("--a", "batch=-1"), "A: Batch size"),
    ],
)
def test_compare_refuses_bad_scenarios_with_what_is_expected(capsys, argv, message) -> None:
    code, _out, err = run(capsys, "compare", "kv-cache", *argv)
    assert code == 2 and message in err


def test_reconcile_reads_a_pasted_vllm_summary_from_a_file(capsys) -> None:
    path = BENCH_DIR / "vllm_serve_summary.txt"
    code, out, err = run(capsys, "reconcile", "--model", "llama-3.1-8b", "--batch", "2", "--paste-file", str(path))
    assert code == 0 and err == ""
    # The summary's concurrency replaces --batch, and its median TPOT is the measurement.
    assert "Batch size                    16 sequences" in out
    assert "Memory bandwidth utilisation (MBU)" in out and "of 3.35 TB/s" in out
    assert "Read from the paste                  vLLM benchmark summary: Batch size: 16" in out
    assert "Unexplained (launch overhead, scheduling, kernels)" in out
    code, out, _ = run(capsys, "reconcile", "--model", "llama-3.1-8b", "--paste-file", str(path), "--json")
    result = json.loads(out)
    assert result["inputs"]["measured"]["value"] == 17.52
    assert [row["part"]["term"] for row in result["rows"]][0] == "quantization"


def test_reconcile_typed_measurement_and_unreadable_paste_file(capsys, tmp_path) -> None:
    code, out, _ = run(
        capsys,
        "reconcile",
        "--model",
        "llama-3.1-8b",
        "--measurement",
        "tokens_per_s_per_sequence",
        "--measured",
        "100",
    )
    assert code == 0 and "Measured step                        10 ms per token" in out
    binary = tmp_path / "bench.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    code, _, err = run(capsys, "reconcile", "--model", "llama-3.1-8b", "--paste-file", str(binary))
    assert code == 2
    assert err == f"roofline: error: --paste-file: {binary} is not UTF-8 text; expected a benchmark's printed summary\n"


def test_decode_and_prefill_say_what_their_time_is_made_of(capsys) -> None:
    # Issue 31: the step time's parts follow the results, each with its working, adding up.
    code, out, _ = run(capsys, "decode", "--model", "llama-3.1-70b", "--devices", "8")
    assert code == 0
    assert "Parts of 7.49 ms (Time per decode step):" in out
    assert "weights read: 139 GB ÷ 8 devices ÷ 3.35 TB/s" in out
    code, out, _ = run(capsys, "prefill", "--model", "llama-3.1-70b", "--prompt-tokens", "8192", "--json")
    parts = json.loads(out)["parts"]
    assert sum(item["seconds"] for item in parts["items"]) == pytest.approx(parts["total"]["value"])
    assert {item["label"] for item in parts["items"]} >= {"weights", "compute", "attention"}
