"""The command line: presets and custom numbers, tables and JSON, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from roofline_core.cli import main


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
    code, out, _ = run(capsys, "decode", "--model", "llama-3-8b", "--accelerator", "h100-sxm", "--batch", "8", "--json")
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
    assert code == 0 and "16 sequences" in out
    code, out, _ = run(capsys, "kv-cache", "--attention", "mla", "--layers", "61", "--json")
    assert json.loads(out)["outputs"]["kv_bytes_per_token"]["value"] == 61 * 576 * 2


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["decode", "--model", "llama-3-8b", "--batch", "0"], "--batch: Batch size must be a whole number from 1 to 1024"),
        (["decode", "--model", "llama-3-8b", "--batch", "nan"], "--batch: Batch size must be"),
        (["decode", "--model", "nope"], "--model: Model must be one of"),
        (["decode"], "give --model"),
        (["decode", "--model", "llama-3-8b", "--params", "8e9"], "not both"),
        (["decode", "--params", "8e9", "--peak-tflops", "989"], "needs both --peak-tflops and --bandwidth-tbs"),
        (["decode", "--params", "8e9", "--context", "10"], "--context needs --layers"),
        (["decode", "--params", "8e9", "--peak-tflops", "-1", "--bandwidth-tbs", "3"], "--peak-tflops: Peak compute must be"),
        (["ridge", "--accelerator", "a100-sxm-80gb", "--dtype", "fp8"], "has no fp8 peak"),
        (["kv-cache"], "give --model"),
        (["batch-sweep", "--params", "7e9", "--batches", "1,x"], "--batches: Batch size must be"),
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
    ok = subprocess.run([sys.executable, "-m", "roofline_core", "ridge", "--accelerator", "h100-sxm"], capture_output=True, text=True)
    assert ok.returncode == 0 and "295 FLOP/byte" in ok.stdout
    bad = subprocess.run([sys.executable, "-m", "roofline_core", "decode", "--model", "<b>x</b>"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.splitlines()) == 1


@pytest.mark.parametrize("command", ["ridge", "decode", "batch-sweep", "prefill", "kv-cache"])
def test_help_of_every_command(capsys, command: str) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "--json" in out and "--accelerator" in out
