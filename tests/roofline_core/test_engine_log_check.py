"""An engine's start-up log reproduced from the model (roofline_core.questions.engine_log_check).

Each expected figure is derived by hand in the test from the engine's rule (the module docstring
cites each) and the model's config fields.
"""

from __future__ import annotations

import pytest

from roofline_core.engine_log import parse
from roofline_core.models import MODELS
from roofline_core.questions.engine_log_check import check_log

GIB = 2**30
MIB = 2**20

VLLM_8B = """(EngineCore_DP0 pid=2113) INFO 11-27 12:00:05 [gpu_worker.py:298] Available KV cache memory: 53.47 GiB
(EngineCore_DP0 pid=2113) INFO 11-27 12:00:06 [kv_cache_utils.py:1087] GPU KV cache size: {tokens} tokens
(EngineCore_DP0 pid=2113) INFO 11-27 12:00:06 [kv_cache_utils.py:1091] Maximum concurrency for 32,768 tokens per request: {x}x"""


def by_name(checks):
    return {check.name: check for check in checks}


def test_vllm_llama_8b_bf16_cache_by_hand():
    # Llama 3.1 8B: 32 layers x 8 KV heads x 128 x (key + value) x 2 bytes = 131,072 bytes a token;
    # a 16-token block 2 MiB. 53.47 GiB holds floor(53.47 * 1024 / 2) = 27,376 blocks = 438,016 tokens.
    log = parse(VLLM_8B.format(tokens="438,016", x="13.37"))
    checks = by_name(check_log(log, model=MODELS["llama-3.1-8b"]))
    tokens = checks["kv_cache_tokens"]
    assert tokens.expected == 27_376 * 16 == 438_016
    assert tokens.agrees and "27,376 blocks" in tokens.working
    # 0.005 GiB either way is 2.6 blocks: four blocks of 16 tokens is what rounding explains.
    assert tokens.tolerance == 64
    concurrency = checks["max_concurrency"]
    assert concurrency.expected == pytest.approx(438_016 / 32_768) and concurrency.agrees


def test_a_log_that_holds_half_the_tokens_is_flagged_and_the_setting_named():
    log = parse(VLLM_8B.format(tokens="876,048", x="26.73"))
    tokens = by_name(check_log(log, model=MODELS["llama-3.1-8b"]))["kv_cache_tokens"]
    assert not tokens.agrees and "(assumed)" in tokens.explanation
    # The same log, read for an FP8 cache: 1 MiB blocks, floor(53.47 * 1024) = 54,753 of them.
    fp8 = by_name(check_log(log, model=MODELS["llama-3.1-8b"], kv_dtype="fp8"))["kv_cache_tokens"]
    assert fp8.expected == 54_753 * 16 and fp8.agrees


def test_the_logs_own_tensor_parallel_size_and_cache_format_are_used():
    config = (
        "INFO 11-27 12:00:00 [core.py:77] Initializing a V1 LLM engine (v0.11.0) with config: "
        "model='meta-llama/Llama-3.1-8B', dtype=torch.bfloat16, max_seq_len=32768, "
        "tensor_parallel_size=2, pipeline_parallel_size=1, data_parallel_size=1, quantization=None, "
        "kv_cache_dtype=fp8\n"
    )
    log = parse(config + VLLM_8B.format(tokens="1,752,096", x="53.47"))
    tokens = by_name(check_log(log, model=MODELS["llama-3.1-8b"]))["kv_cache_tokens"]
    # Two devices hold 4 KV heads each, in FP8: a quarter of the bytes a token, 512 KiB blocks,
    # floor(53.47 * 2048) = 109,506 of them.
    assert tokens.expected == 109_506 * 16 and tokens.agrees
    assert "tensor_parallel_size=2" in tokens.explanation and "kv_cache_dtype=fp8" in tokens.explanation


def test_sglang_deepseek_mla_pool_by_hand():
    # DeepSeek-V3: 61 layers x (512 latent + 64 rotary) values a token, one byte each in FP8,
    # for 524,288 tokens plus the pool's extra page: 17.16 GiB.
    log = parse("[2025-11-04 05:27:13 DP0 TP0 EP0] KV Cache is allocated. #tokens: 524288, KV size: 17.16 GB")
    check = by_name(check_log(log, model=MODELS["deepseek-v3"], tensor_parallel=8, kv_dtype="fp8"))[
        "kv_cache_memory_bytes"
    ]
    assert check.expected == 524_289 * 61 * 576
    assert check.expected / GIB == pytest.approx(17.156, abs=0.001) and check.agrees


@pytest.mark.parametrize(("kind", "total", "half"), [("f16", "1152.00", "576.00"), ("q8_0", "612.00", "306.00")])
def test_llama_cpp_cache_by_hand(kind, total, half):
    # Qwen3 8B: 36 layers x 8 KV heads x 128, 8,192 cells: 1,152 MiB in f16; q8_0 keeps 34 bytes
    # per 32 values, 17/32 of that: 612 MiB.
    line = (
        f"llama_kv_cache: size = {total} MiB (  8192 cells,  36 layers,  1/1 seqs), "
        f"K ({kind}): {half} MiB, V ({kind}): {half} MiB"
    )
    check = by_name(check_log(parse(line), model=MODELS["qwen3-8b"]))["kv_cache_memory_bytes"]
    assert check.expected / MIB == pytest.approx(float(total))
    assert check.agrees


def test_a_log_no_engine_wrote_gives_no_checks():
    assert check_log(parse("hello\nworld"), model=MODELS["llama-3.1-8b"]) == ()


def test_the_command_line_sets_the_models_figure_beside_the_log(tmp_path, capsys):
    from roofline_core.cli import main

    path = tmp_path / "server.log"
    path.write_text(VLLM_8B.format(tokens="438,016", x="13.37"), encoding="utf-8")
    assert main(["engine-log", str(path), "--model", "llama-3.1-8b"]) == 0
    printed = capsys.readouterr().out
    assert "model: 438,016 tokens, agrees" in printed
    assert main(["engine-log", str(path), "--model", "no-such-model"]) == 2
    assert "not a model preset" in capsys.readouterr().err


# vLLM v0.11.0 vllm/v1/worker/gpu_worker.py determine_available_memory: the budget
# total x gpu_memory_utilization, less the weights, the profiling run's peak and non-torch memory.
VLLM_8B_MEMORY = """INFO 11-27 12:00:00 [utils.py:233] non-default args: {'model': 'meta-llama/Llama-3.1-8B-Instruct', 'gpu_memory_utilization': 0.8, 'max_num_batched_tokens': 4096, 'max_num_seqs': 256}
INFO 11-27 12:00:03 [gpu_model_runner.py:1595] Model loading took 14.9889 GiB and 4.512345 seconds
INFO 11-27 12:00:05 [gpu_worker.py:298] Available KV cache memory: GIB GiB"""


def test_vllm_available_memory_by_hand_from_the_logs_own_settings():
    # 80 GiB x 0.8 = 64 GiB; the log's 14.9889 GiB of weights; the profile of 4,096 tokens:
    # Llama 3.1 8B's widest layer is the MLP's gate and up, 2 x 14,336, beside 2 x 4,096 of residual,
    # in 2 bytes: 4,096 x (28,672 + 8,192) x 2 = 301,989,888 bytes; 256 sequences' FP32 logits over
    # 128,256 words: 131,334,144 bytes; 0.2 GiB outside PyTorch.
    activations = 4096 * (28_672 + 8_192) * 2 + 256 * 128_256 * 4
    expected = 64 * GIB - 14.9889 * GIB - activations - 0.2 * GIB
    agrees = parse(VLLM_8B_MEMORY.replace("GIB GiB", f"{expected / GIB:.2f} GiB"))
    check = by_name(check_log(agrees, model=MODELS["llama-3.1-8b"], device_memory_bytes=80 * GIB))[
        "kv_cache_memory_bytes"
    ]
    assert check.expected == pytest.approx(expected)
    assert check.agrees and "64.00 GiB budget - 14.99 GiB of weights (the log's loading line)" in check.working
    assert "gpu_memory_utilization=0.8, the weights' memory" in check.explanation
    assert check.tolerance == pytest.approx(activations + 0.2 * GIB + 0.005 * GIB)
    # Four GiB less than the model leaves: the log's reserves took that much more than estimated.
    short = parse(VLLM_8B_MEMORY.replace("GIB GiB", f"{expected / GIB - 4:.2f} GiB"))
    missed = by_name(check_log(short, model=MODELS["llama-3.1-8b"], device_memory_bytes=80 * GIB))[
        "kv_cache_memory_bytes"
    ]
    assert not missed.agrees
    taken = 64 * GIB - 14.9889 * GIB - float(f"{expected / GIB - 4:.2f}") * GIB
    assert f"The log leaves {taken / GIB:,.2f} GiB for the activation profile" in missed.explanation
    assert "4.00 GiB less is left for the cache than modelled" in missed.explanation


def test_without_the_devices_memory_the_available_memory_is_not_checked():
    log = parse(VLLM_8B.format(tokens="438,016", x="13.37"))
    assert "kv_cache_memory_bytes" not in by_name(check_log(log, model=MODELS["llama-3.1-8b"]))


def test_the_command_line_reproduces_the_available_memory_on_a_named_accelerator(tmp_path, capsys):
    from roofline_core.cli import main

    path = tmp_path / "server.log"
    path.write_text(VLLM_8B.format(tokens="438,016", x="13.37"), encoding="utf-8")
    assert main(["engine-log", str(path), "--model", "llama-3.1-8b", "--accelerator", "h100-sxm"]) == 0
    assert "80.00 GiB x 0.9 = 72.00 GiB budget" in capsys.readouterr().out
    assert main(["engine-log", str(path), "--model", "llama-3.1-8b", "--accelerator", "h99"]) == 2
    assert "not an accelerator preset" in capsys.readouterr().err
