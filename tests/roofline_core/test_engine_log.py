"""roofline_core.engine_log: engine start-up logs read into named numbers, every other line named.

Each line below is what the engine prints, rendered from the format string in its source (the
repository, commit and file are cited beside it; the values are ours), or a real log line quoted
from the engine's own documentation. Where a format was read only in the search index's copy and
not at a pinned upstream commit, the comment says so.
"""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roofline_core.cli import main
from roofline_core.engine_log import _ANSI as ANSI_CODES
from roofline_core.engine_log import (
    LLAMA_CPP,
    MAX_INPUT_BYTES,
    MAX_LINE_CHARS,
    SGLANG,
    VLLM,
    EngineLog,
    EngineLogError,
    parse,
)

GIB, MIB = 2**30, 2**20


def _one(text: str) -> EngineLog:
    log = parse(text)
    assert log.unused == (), log.unused
    return log


# --- vLLM ---------------------------------------------------------------------------------------

# vllm-project/vllm@35d5cda123ec28581759b6d34cde8052314fb1e6, vllm/v1/worker/gpu_worker.py:
#   logger.info_once("Available KV cache memory: %.2f GiB", GiB(self.available_kv_cache_memory_bytes))
VLLM_AVAILABLE = (
    "(EngineCore_DP0 pid=2113) INFO 11-27 12:00:05 [gpu_worker.py:298] Available KV cache memory: 53.47 GiB"
)
# vllm-project/vllm@001cabc1be16a59a70d720ed61a13b678c060a18, vllm/v1/core/kv_cache_utils.py:
#   logger.info_once("GPU KV cache size: %s tokens", f"{num_tokens:,}", scope="local")
#   logger.info_once("Maximum concurrency for %s tokens per request: %.2fx", f"{max_model_len:,}", ...)
VLLM_TOKENS = "(EngineCore_DP0 pid=2113) INFO 11-27 12:00:05 [kv_cache_utils.py:1087] GPU KV cache size: 437,968 tokens"
VLLM_CONCURRENCY = (
    "(EngineCore_DP0 pid=2113) INFO 11-27 12:00:05 [kv_cache_utils.py:1091] "
    "Maximum concurrency for 32,768 tokens per request: 13.37x"
)
# Newer kv_cache_utils.py (update_kv_cache_capacity) joins the two into one call:
#   "GPU KV cache size: %s tokens, " "Maximum concurrency for %s tokens per request: %.2fx"
# (read in the search index's copy of vllm/v1/core/kv_cache_utils.py, not at a pinned commit).
VLLM_MERGED = (
    "(EngineCore pid=99) INFO 11-27 12:00:05 [kv_cache_utils.py:1311] GPU KV cache size: 1,048,576 tokens, "
    "Maximum concurrency for 131,072 tokens per request: 8.00x"
)
# vllm/v1/worker/gpu_model_runner.py: "Model loading took %.4f GiB and %.6f seconds" (with
# m.consumed_memory / GiB_bytes); later "%s GiB" (format_gib) and "GiB memory and" (these three
# read in the search index's copies of vLLM's model runners, not at a pinned commit). The second
# form is a real line: "(EngineCore pid=258) INFO gpu_model_runner.py:4879 Model loading took
# 2.89 GiB memory and 60.297843 seconds" (no date in that logger's format).
VLLM_LOADING_OLD = "INFO 03-01 10:00:00 [gpu_model_runner.py:1595] Model loading took 14.9889 GiB and 4.512345 seconds"
VLLM_LOADING_NEW = (
    "(EngineCore pid=258) INFO gpu_model_runner.py:4879 Model loading took 2.89 GiB memory and 60.297843 seconds"
)
# V0 (vllm/worker/model_runner.py): logger.info("Loading model weights took %.4f GB",
# self.model_memory_usage / float(2**30)) and the executor's "# GPU blocks: %d, # CPU blocks: %d".
# Real lines from vllm-project/vllm issue 12330 (v0.6): "INFO 01-13 11:35:23 gpu_executor.py:76] # GPU
# blocks: 5691, # CPU blocks: 2048" and "... model_runner.py:1099] Loading model weights took 14.9595 GB".
VLLM_V0 = """INFO 01-13 11:35:21 model_runner.py:1099] Loading model weights took 14.9595 GB
INFO 01-13 11:35:23 gpu_executor.py:76] # GPU blocks: 5691, # CPU blocks: 2048
INFO 01-13 11:35:23 gpu_executor.py:80] Maximum concurrency for 8192 tokens per request: 11.12x"""
# vllm/v1/engine/core.py: logger.info("Initializing a V1 LLM engine (v%s) with config: %s",
# VLLM_VERSION, vllm_config). A real line (v0.15.1), from huggingface.co/Harmony18090/server
# (server.log), shortened after the fields read here:
VLLM_CONFIG = (
    "(EngineCore_DP0 pid=66868) INFO 02-25 02:30:57 [core.py:96] Initializing a V1 LLM engine (v0.15.1) with "
    "config: model='/root/model', speculative_config=None, tokenizer='/root/model', skip_tokenizer_init=False, "
    "tokenizer_mode=auto, revision=None, tokenizer_revision=None, trust_remote_code=False, dtype=torch.bfloat16, "
    "max_seq_len=2048, download_dir=None, load_format=auto, tensor_parallel_size=1, pipeline_parallel_size=1, "
    "data_parallel_size=1, disable_custom_all_reduce=False, quantization=None, enforce_eager=True, "
    "enable_return_routed_experts=False, kv_cache_dtype=auto, device_config=cuda, "
    "structured_outputs_config=StructuredOutputsConfig(backend='auto', disable_fallback=False, "
    "disable_any_whitespace=False, disable_additional_properties=False, reasoning_parser='')"
)


def test_vllm_available_memory_is_gib_in_bytes_with_its_line_and_rank() -> None:
    log = _one(VLLM_AVAILABLE)
    assert log.engine == VLLM
    (number,) = log.numbers
    assert number.name == "kv_cache_memory_bytes"
    assert number.value == pytest.approx(53.47 * GIB)
    assert (number.unit, number.printed, number.printed_unit) == ("B", "53.47 GiB", "GiB")
    assert number.resolution == pytest.approx(0.01 * GIB)
    assert (number.line_number, number.line, number.scope) == (1, VLLM_AVAILABLE, "DP0")


def test_vllm_cache_size_and_concurrency_lines_with_thousands_separators() -> None:
    log = _one(VLLM_TOKENS + "\n" + VLLM_CONCURRENCY)
    assert log.value("kv_cache_tokens") == 437_968
    assert log.value("max_concurrency") == pytest.approx(13.37)
    assert log.value("max_model_len_tokens") == 32_768
    assert log.get("max_concurrency").unit == "requests" and log.get("max_concurrency").line_number == 2


def test_vllm_merged_cache_line_gives_all_three() -> None:
    log = _one(VLLM_MERGED)
    assert (log.value("kv_cache_tokens"), log.value("max_model_len_tokens")) == (1_048_576, 131_072)
    assert log.value("max_concurrency") == pytest.approx(8.0)
    assert {n.line_number for n in log.numbers} == {1}


@pytest.mark.parametrize(
    ("line", "gib", "seconds"), [(VLLM_LOADING_OLD, 14.9889, 4.512345), (VLLM_LOADING_NEW, 2.89, 60.297843)]
)
def test_vllm_model_loading_memory_and_time(line: str, gib: float, seconds: float) -> None:
    log = _one(line)
    assert log.value("model_weights_bytes") == pytest.approx(gib * GIB)
    assert log.value("model_load_time_s") == pytest.approx(seconds)


def test_vllm_v0_gb_is_a_gib_and_blocks_are_counted() -> None:
    log = _one(VLLM_V0)
    weights = log.get("model_weights_bytes")
    assert weights.value == pytest.approx(14.9595 * GIB)
    assert (weights.printed, weights.printed_unit) == ("14.9595 GB", "GB (2^30 bytes)")
    assert (log.value("gpu_kv_blocks"), log.value("cpu_kv_blocks")) == (5691, 2048)
    assert log.value("max_model_len_tokens") == 8192


def test_vllm_engine_config_line() -> None:
    log = _one(VLLM_CONFIG)
    assert log.value("vllm_version") == "0.15.1"
    assert log.value("model") == "/root/model"
    assert log.value("dtype") == "torch.bfloat16"
    assert log.value("max_model_len_tokens") == 2048
    assert log.value("tensor_parallel_size") == 1 and log.value("pipeline_parallel_size") == 1
    assert (log.value("kv_cache_dtype"), log.value("quantization")) == ("auto", "None")
    # Fields inside a nested config (backend='auto') are not the engine's own.
    assert log.get("backend") is None


# Real lines from the same v0.15.1 log: vllm/config/model.py logger.info("Using max model len %s",
# max_model_len) and vllm/config/scheduler.py "Chunked prefill is enabled with max_num_batched_tokens=%d.";
# vllm-project/vllm@001cabc1be16a59a70d720ed61a13b678c060a18, vllm/v1/core/kv_cache_utils.py:
#   "Auto-fit max_model_len: reduced from %d to %d to fit in available GPU memory (%s GiB available for KV cache)"
VLLM_LENGTHS = """INFO 02-25 02:30:55 [model.py:1561] Using max model len 131072
INFO 02-25 02:30:55 [scheduler.py:226] Chunked prefill is enabled with max_num_batched_tokens=2048.
(EngineCore_DP0 pid=1) INFO 02-25 02:31:40 [kv_cache_utils.py:1170] Auto-fit max_model_len: reduced from 131072 to 40192 to fit in available GPU memory (4.91 GiB available for KV cache)
(EngineCore_DP0 pid=1) INFO 02-25 02:31:40 [kv_cache_utils.py:1091] Maximum concurrency for 40,192 tokens per request: 1.00x"""


def test_vllm_model_length_batched_tokens_and_auto_fit() -> None:
    log = _one(VLLM_LENGTHS)
    assert log.value("max_model_len_tokens", "") == 131_072
    assert log.value("max_num_batched_tokens") == 2048
    assert log.value("auto_fit_from_max_model_len_tokens") == 131_072
    assert log.value("auto_fit_max_model_len_tokens") == 40_192
    assert log.value("max_model_len_tokens", "DP0") == 40_192


def test_a_different_value_on_a_line_that_gives_others_is_noted_not_hidden() -> None:
    log = _one(
        "INFO 02-25 02:30:55 [model.py:1561] Using max model len 4096\n"
        "INFO 02-25 02:31:40 [kv_cache_utils.py:1091] Maximum concurrency for 8,192 tokens per request: 2.00x"
    )
    assert log.value("max_model_len_tokens") == 4096 and log.value("max_concurrency") == 2.0
    assert log.notes == ("Line 2 gives max_model_len_tokens as 8,192 tokens; line 1's 4096 is kept.",)


# vllm/entrypoints/utils.py, log_non_default_args: logger.info("non-default args: %s", non_default_args),
# a dict of the options that differ from their defaults (read in the search index's copies, not at
# a pinned commit); values ours.
VLLM_ARGS = (
    "(APIServer pid=1234) INFO 11-27 12:00:00 [utils.py:233] non-default args: {'model_tag': "
    "'meta-llama/Llama-3.1-8B-Instruct', 'model': 'meta-llama/Llama-3.1-8B-Instruct', 'max_model_len': 32768, "
    "'gpu_memory_utilization': 0.92, 'tensor_parallel_size': 2, 'max_num_seqs': 128, 'kv_cache_dtype': 'fp8', "
    "'served_model_name': ['llama', 'llama-8b']}"
)


def test_vllm_non_default_args() -> None:
    log = _one(VLLM_ARGS)
    assert log.value("model") == "meta-llama/Llama-3.1-8B-Instruct"
    assert log.value("max_model_len_tokens") == 32_768 and log.value("gpu_memory_utilization") == 0.92
    assert (log.value("tensor_parallel_size"), log.value("max_num_seqs")) == (2, 128)
    assert log.value("kv_cache_dtype") == "fp8" and log.get("max_model_len_tokens").scope == ""


def test_vllm_worker_ranks_keep_one_value_each_and_name_repeats() -> None:
    lines = [
        "(VllmWorker rank=0 pid=11) INFO 11-27 12:00:05 [gpu_worker.py:298] Available KV cache memory: 30.10 GiB",
        "(VllmWorker rank=1 pid=12) INFO 11-27 12:00:05 [gpu_worker.py:298] Available KV cache memory: 30.12 GiB",
        "(VllmWorker rank=0 pid=11) INFO 11-27 12:00:05 [gpu_worker.py:298] Available KV cache memory: 30.10 GiB",
        "(VllmWorker rank=1 pid=12) INFO 11-27 12:00:06 [gpu_worker.py:298] Available KV cache memory: 29.00 GiB",
    ]
    log = parse("\n".join(lines))
    kept = log.all("kv_cache_memory_bytes")
    assert [(n.scope, n.line_number) for n in kept] == [("rank 0", 1), ("rank 1", 2)]
    assert [(u.line_number, u.reason) for u in log.unused] == [
        (3, "repeats line 1 for rank 0"),
        (4, "gives kv_cache_memory_bytes again for rank 1 with another value; line 2's is kept"),
    ]
    assert log.notes and "one value is kept per name and scope" in log.notes[0]


def test_ansi_colours_crlf_and_blank_lines() -> None:
    coloured = "\x1b[1;36m(EngineCore_DP0 pid=7)\x1b[0;0m \x1b[32mINFO\x1b[0m 11-27 12:00:05 [gpu_worker.py:298] "
    text = coloured + "Available KV cache memory: 12.50 GiB\r\n\r\n   \r\n" + VLLM_TOKENS + "\r\n"
    log = _one(text)
    assert log.value("kv_cache_memory_bytes") == pytest.approx(12.5 * GIB)
    assert log.get("kv_cache_memory_bytes").line == (
        "(EngineCore_DP0 pid=7) INFO 11-27 12:00:05 [gpu_worker.py:298] Available KV cache memory: 12.50 GiB"
    )
    assert log.get("kv_cache_tokens").line_number == 4


# --- SGLang -------------------------------------------------------------------------------------

# sgl-project/sglang@000ccdba94d4ed75d4fab7b1dac5f8ebcaaee7e8, python/sglang/srt/mem_cache/memory_pool.py:
#   GB = 1024 * 1024 * 1024
#   f"KV Cache is allocated. #tokens: {size}, K size: {k_size / GB:.2f} GB, V size: {v_size / GB:.2f} GB"
#   f"KV Cache is allocated. #tokens: {size}, KV size: {kv_size / GB:.2f} GB"   (MLATokenToKVPool)
# Read in the search index's copies (not at a pinned commit):
# python/sglang/srt/model_executor/model_runner.py: f"Load weight end. elapsed={...:.2f} s,
# type={...}, [dtype=..., ]avail mem={after_avail_memory:.2f} GB, mem usage={...:.2f} GB.", with
# get_available_gpu_memory returning free_gpu_memory / (1 << 30); scheduler.py:
# f"max_total_num_tokens={...}, chunked_prefill_size={...}, max_prefill_tokens={...},
# max_running_requests={...}, context_len={...}" (newer: ", available_gpu_mem={...:.2f} GB").
# Lines 3 to 8 below are a real SGLang run (2026-02-04) as quoted in the search index; the
# others are rendered from the formats above with values of ours.
SGLANG_LOG = """[2026-02-04 11:30:28] server_args=ServerArgs(model_path='qwen/qwen2.5-0.5b-instruct', tokenizer_path='qwen/qwen2.5-0.5b-instruct', tokenizer_mode='auto', load_format='auto', model_loader_extra_config='{}', trust_remote_code=False, context_length=None, is_embedding=False, dtype='auto', quantization=None, kv_cache_dtype='auto', mem_fraction_static=0.841, max_running_requests=None, chunked_prefill_size=8192, tp_size=1, pp_size=1, dp_size=1, ep_size=1, page_size=1)
[2026-02-04 11:30:29] Load weight begin. avail mem=78.43 GB
Loading safetensors checkpoint shards: 100% Completed | 1/1 [00:00<00:00,  5.76it/s]
[2026-02-04 11:30:29] Loading weights took 0.20 seconds
[2026-02-04 11:30:29] Load weight end. elapsed=0.38 s, type=Qwen2ForCausalLM, dtype=torch.bfloat16, avail mem=77.45 GB, mem usage=0.98 GB.
[2026-02-04 11:30:29] Using KV cache dtype: torch.bfloat16
[2026-02-04 11:30:29] KV Cache is allocated. #tokens: 20480, K size: 0.12 GB, V size: 0.12 GB
[2026-02-04 11:30:29] Memory pool end. avail mem=77.12 GB
[2026-02-04 11:30:30] max_total_num_tokens=20480, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=4096, context_len=32768, available_gpu_mem=76.35 GB"""


def test_sglang_log_numbers_and_its_gb_is_a_gib() -> None:
    log = parse(SGLANG_LOG)
    assert log.engine == SGLANG
    assert log.value("kv_cache_tokens") == 20_480
    k = log.get("k_bytes")
    assert k.value == pytest.approx(0.12 * GIB) and (k.printed, k.printed_unit) == ("0.12 GB", "GB (2^30 bytes)")
    assert log.value("model_weights_bytes") == pytest.approx(0.98 * GIB)
    assert log.value("available_memory_after_weights_bytes") == pytest.approx(77.45 * GIB)
    assert log.value("available_memory_after_kv_cache_bytes") == pytest.approx(77.12 * GIB)
    assert log.value("available_memory_before_weights_bytes") == pytest.approx(78.43 * GIB)
    assert log.value("model_load_time_s") == pytest.approx(0.38)
    assert log.value("max_total_num_tokens") == 20_480
    assert log.value("max_prefill_tokens") == 16_384 and log.value("max_running_requests") == 4096
    assert log.value("context_length_tokens") == 32_768
    assert log.value("chunked_prefill_size_tokens") == 8192
    assert log.value("available_memory_bytes") == pytest.approx(76.35 * GIB)
    assert log.value("mem_fraction_static") == pytest.approx(0.841)
    assert log.value("tensor_parallel_size") == 1 and log.value("page_size_tokens") == 1
    assert log.value("model") == "qwen/qwen2.5-0.5b-instruct" and log.value("kv_cache_dtype") == "auto"
    # context_length=None and max_running_requests=None say nothing: no number, no guess.
    assert log.get("context_length_tokens").line_number == 9
    assert [u.line_number for u in log.unused] == [3, 4, 6]


# SGLang's documentation notebooks print, in their executed output (shortened here):
SGLANG_DOCS_ARGS = (
    "[2026-03-21 03:31:56] INFO engine.py:177: server_args=ServerArgs(model_path='deepseek-ai/DeepSeek-R1-Distill-"
    "Qwen-7B', tokenizer_path='deepseek-ai/DeepSeek-R1-Distill-Qwen-7B', tokenizer_mode='auto', tokenizer_worker_num=1, "
    "skip_tokenizer_init=False, load_format='auto', model_loader_extra_config='{}', trust_remote_code=False, "
    "context_length=None, is_embedding=False, enable_multimodal=None, revision=None, model_impl='auto', "
    "host='127.0.0.1', port=30000)"
)


def test_sglang_server_args_after_a_logger_prefix() -> None:
    log = _one(SGLANG_DOCS_ARGS)
    assert log.engine == SGLANG and log.value("model") == "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B"
    assert log.get("context_length_tokens") is None and log.get("port") is None


# Real lines of an 8-way tensor-parallel MLA model (the "KV size" pool), as SGLang prints them
# (quoted in the search index from a user's log, version 2026-02): every rank prints its own.
SGLANG_TP = """[2026-02-26 16:41:18 TP6] KV Cache is allocated. #tokens: 2454421, KV size: 160.63 GB
[2026-02-26 16:41:18 TP2] KV Cache is allocated. #tokens: 2454421, KV size: 160.63 GB
[2026-02-26 16:41:18 TP6] KV Cache is allocated. #tokens: 2454421, KV size: 160.63 GB
[2025-11-04 05:27:13 DP0 TP0 EP0] KV Cache is allocated. #tokens: 524288, KV size: 17.16 GB"""


def test_sglang_mla_pool_and_rank_prefixes() -> None:
    log = parse(SGLANG_TP)
    sizes = log.all("kv_cache_memory_bytes")
    assert [(n.scope, n.line_number) for n in sizes] == [("TP6", 1), ("TP2", 2), ("DP0 TP0 EP0", 4)]
    assert sizes[0].value == pytest.approx(160.63 * GIB)
    assert [(u.line_number, u.reason) for u in log.unused] == [(3, "repeats line 1 for TP6")]


# --- llama.cpp ----------------------------------------------------------------------------------

# ggml-org/llama.cpp@3514e9f6e795d3b3cd88d6614f6c07e7ce6f916f, src/llama-kv-cache.cpp:
#   LLAMA_LOG_INFO("%s: %10s KV buffer size = %8.2f MiB\n", __func__, ...)
#   LLAMA_LOG_INFO("%s: size = %7.2f MiB (%6u cells, %3d layers, %2u/%u seqs), K (%s): %7.2f MiB, V (%s): %7.2f MiB\n", ...)
# ggml-org/llama.cpp@4c7103b96d720ea6057eec6ac11a49727f9ecd43, src/llama-context.cpp:
#   "%s: n_seq_max     = %u", "%s: n_ctx         = %u", "%s: n_ctx_per_seq = %u", "%s: n_batch       = %u",
#   "%s: n_ubatch      = %u", "%s: causal_attn   = %d", "%s: flash_attn    = %s", "%s: kv_unified    = %s",
#   "%s: freq_base     = %.1f", "%s: freq_scale    = %g", "%s: %10s  output buffer size = %8.2f MiB",
#   "%s: %10s compute buffer size = %8.2f MiB"
# src/llama-model.cpp (load_tensors): "%s: offloaded %d/%d layers to GPU", "%s: %12s model buffer size = %8.2f MiB"
# (read in the search index's copies of that file, the same in every version found; not at a pinned commit).
LLAMA_LOG = """load_tensors: offloading 32 repeating layers to GPU
load_tensors: offloaded 33/33 layers to GPU
load_tensors:        CUDA0 model buffer size =  4403.49 MiB
load_tensors:   CPU_Mapped model buffer size =   281.81 MiB
llama_context: n_seq_max     = 1
llama_context: n_ctx         = 4096
llama_context: n_ctx_per_seq = 4096
llama_context: n_batch       = 2048
llama_context: n_ubatch      = 512
llama_context: causal_attn   = 1
llama_context: flash_attn    = auto
llama_context: kv_unified    = false
llama_context: freq_base     = 500000.0
llama_context: freq_scale    = 1
llama_context: n_ctx_per_seq (4096) < n_ctx_train (131072) -- the full capacity of the model will not be utilized
llama_context:  CUDA_Host  output buffer size =     0.49 MiB
llama_kv_cache:      CUDA0 KV buffer size =   512.00 MiB
llama_kv_cache: size =  512.00 MiB (  4096 cells,  32 layers,  1/1 seqs), K (f16):  256.00 MiB, V (f16):  256.00 MiB
llama_context:      CUDA0 compute buffer size =   296.00 MiB
llama_context:  CUDA_Host compute buffer size =    16.01 MiB"""


def test_llama_cpp_log_numbers_in_mib_per_device() -> None:
    log = parse(LLAMA_LOG)
    assert log.engine == LLAMA_CPP
    assert (log.value("offloaded_layers"), log.value("offloadable_layers")) == (33, 33)
    assert log.value("model_buffer_bytes", "CUDA0") == pytest.approx(4403.49 * MIB)
    assert log.value("model_buffer_bytes", "CPU_Mapped") == pytest.approx(281.81 * MIB)
    assert log.value("n_ctx_tokens") == 4096 and log.value("n_ctx_per_seq_tokens") == 4096
    assert (log.value("n_batch_tokens"), log.value("n_ubatch_tokens"), log.value("n_seq_max")) == (2048, 512, 1)
    assert (log.value("flash_attn"), log.value("kv_unified"), log.value("causal_attn")) == ("auto", "false", 1)
    assert log.value("rope_freq_base") == pytest.approx(500000.0)
    kv = log.get("kv_cache_memory_bytes")
    assert kv.value == 512 * MIB and kv.printed == "512.00 MiB" and kv.printed_unit == "MiB"
    assert (log.value("kv_cells"), log.value("kv_layers"), log.value("kv_seqs"), log.value("kv_streams")) == (
        4096,
        32,
        1,
        1,
    )
    assert (log.value("k_cache_type"), log.value("k_bytes")) == ("f16", 256 * MIB)
    assert log.value("kv_buffer_bytes", "CUDA0") == 512 * MIB
    assert log.value("output_buffer_bytes", "CUDA_Host") == pytest.approx(0.49 * MIB)
    assert log.value("compute_buffer_bytes", "CUDA0") == 296 * MIB
    assert log.value("compute_buffer_bytes", "CUDA_Host") == pytest.approx(16.01 * MIB)
    assert [u.line_number for u in log.unused] == [1, 15]


# Interleaved sliding-window attention (src/llama-kv-cache-iswa.cpp):
#   "%s: creating non-SWA KV cache, size = %u cells", "%s: creating     SWA KV cache, size = %u cells"
# and newer builds name the compute buffers' function sched_reserve and may print timestamps
# (--log-timestamps: "0.19.914.972 I ..."); other backends name their buffers Metal, Vulkan0, ROCm0.
LLAMA_ISWA = """0.19.914.972 I llama_kv_cache_iswa: creating non-SWA KV cache, size = 8192 cells
0.19.915.550 I llama_kv_cache:    Vulkan0 KV buffer size =   128.00 MiB
0.19.915.551 I llama_kv_cache: size =  128.00 MiB (  8192 cells,   8 layers,  1/1 seqs), K (q8_0):   64.00 MiB, V (q8_0):   64.00 MiB
0.19.990.788 I llama_kv_cache_iswa: creating     SWA KV cache, size = 6144 cells
0.19.992.711 I llama_kv_cache:    Vulkan0 KV buffer size =  1920.00 MiB
0.19.992.712 I llama_kv_cache: size = 1920.00 MiB (  6144 cells,  40 layers,  1/1 seqs), K (q8_0):  960.00 MiB, V (q8_0):  960.00 MiB
0.21.067.052 I sched_reserve:    Vulkan0 compute buffer size =   300.50 MiB"""


def test_llama_cpp_two_caches_with_iswa_keep_their_scopes() -> None:
    log = _one(LLAMA_ISWA)
    assert log.engine == LLAMA_CPP
    assert [(n.scope, n.value) for n in log.all("kv_cells")] == [("non-SWA", 8192), ("SWA", 6144)]
    assert log.value("kv_cache_memory_bytes", "non-SWA") == 128 * MIB
    assert log.value("kv_cache_memory_bytes", "SWA") == 1920 * MIB
    assert log.value("kv_layers", "SWA") == 40
    assert log.value("kv_buffer_bytes", "SWA Vulkan0") == 1920 * MIB
    assert log.value("compute_buffer_bytes", "Vulkan0") == pytest.approx(300.5 * MIB)


# Older builds: llama_new_context_with_model (to b5400) printed
#   "%s: KV self size  = %7.2f MiB, K (%s): %7.2f MiB, V (%s): %7.2f MiB"
# and llm_load_tensors "%s: %10s buffer size = %8.2f MiB" (before "model" joined the line).
# ggml-org/llama.cpp@76d94392764a8bcc1e93bd6f248c30aec2cfac9a, src/llama-memory-recurrent.cpp:
#   "%s: size = %7.2f MiB (%6u cells, %3d layers, %2u seqs), R (%s): %7.2f MiB, S (%s): %7.2f MiB"
LLAMA_OLD_AND_RECURRENT = """llm_load_tensors:      CUDA0 buffer size =  4155.99 MiB
llama_new_context_with_model: KV self size  =  160.00 MiB, K (f16):   80.00 MiB, V (f16):   80.00 MiB
llama_memory_recurrent: size =   15.75 MiB (     1 cells,  64 layers,  1 seqs), R (f32):    3.75 MiB, S (f32):   12.00 MiB"""


def test_llama_cpp_older_lines_and_the_recurrent_state() -> None:
    log = _one(LLAMA_OLD_AND_RECURRENT)
    assert log.value("model_buffer_bytes", "CUDA0") == pytest.approx(4155.99 * MIB)
    assert log.value("kv_cache_memory_bytes") == 160 * MIB and log.value("v_bytes") == 80 * MIB
    assert log.get("kv_cells") is None  # the old line prints no counts, and none is made up
    assert log.value("recurrent_state_bytes") == pytest.approx(15.75 * MIB)
    assert (log.value("recurrent_cells"), log.value("recurrent_layers")) == (1, 64)
    assert (log.value("r_state_bytes"), log.value("s_state_bytes")) == (3.75 * MIB, 12 * MIB)


# --- Mixed and unknown logs ---------------------------------------------------------------------


def test_a_mixed_log_names_each_line_it_did_not_use() -> None:
    text = "\n".join(
        [
            "$ vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 32768",
            VLLM_CONFIG,
            "Loading safetensors checkpoint shards: 100% Completed | 4/4 [00:03<00:00,  1.12it/s]",
            VLLM_LOADING_OLD,
            VLLM_AVAILABLE,
            "llama_context: n_ctx         = 4096",  # a llama.cpp line pasted in by mistake
            VLLM_TOKENS,
            VLLM_CONCURRENCY,
            "INFO:     Application startup complete.",
        ]
    )
    log = parse(text)
    assert log.engine == VLLM
    assert {u.line_number: u.reason for u in log.unused} == {
        1: "not a line this reader knows",
        3: "not a line this reader knows",
        6: "reads as a llama.cpp line, but this is a vllm log",
        9: "not a line this reader knows",
    }
    assert log.used_line_numbers == {2, 4, 5, 7, 8}
    assert log.get("n_ctx_tokens") is None


def test_an_unknown_log_has_no_engine_and_every_line_unused() -> None:
    text = "Hello\n\nStarting my own server on port 8000\n  \nTotal: 12.5 GiB\n"
    log = parse(text)
    assert log.engine is None and log.numbers == ()
    assert [(u.line_number, u.line, u.reason) for u in log.unused] == [
        (1, "Hello", "not a line this reader knows"),
        (3, "Starting my own server on port 8000", "not a line this reader knows"),
        (5, "Total: 12.5 GiB", "not a line this reader knows"),
    ]
    assert parse("") == EngineLog(engine=None, numbers=(), unused=())


def test_near_misses_are_not_guessed() -> None:
    lines = [
        "Available KV cache memory: lots GiB",
        "GPU KV cache size: 12,34 tokens",  # not a thousands separator
        "llama_kv_cache: size =  512.00 MB (  4096 cells,  32 layers,  1/1 seqs), K (f16):  256.00 MiB, V (f16):  256.00 MiB",
        "KV Cache is allocated. #tokens: 20480, K size: 0.12 GiB, V size: 0.12 GB",
        "Available KV cache memory: 1e400 GiB",
    ]
    log = parse("\n".join(lines))
    assert log.engine is None and [u.line_number for u in log.unused] == [1, 2, 3, 4, 5]


# --- Limits -------------------------------------------------------------------------------------


def test_more_than_a_megabyte_is_one_clear_error() -> None:
    with pytest.raises(EngineLogError, match=r"^The log is 1,000,001 bytes; at most 1,000,000 bytes \(1 MB\)"):
        parse("x" * (MAX_INPUT_BYTES + 1))
    # Counted in UTF-8 bytes, not characters: 333,334 three-byte characters are over.
    with pytest.raises(EngineLogError, match="1,000,002 bytes"):
        parse("€" * 333_334)
    assert isinstance(EngineLogError("x"), ValueError)
    assert parse("x" * MAX_INPUT_BYTES).engine is None


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\xff\xfe binary", "The log is not UTF-8 text"),
        ("NUL\x00inside", "holds NUL bytes"),
        ("\ud800 lone surrogate", "unpaired surrogates"),
        (12, "Expected the log as text, but received int"),
    ],
)
def test_input_that_is_not_text_is_one_clear_error(data: object, message: str) -> None:
    with pytest.raises(EngineLogError, match=message):
        parse(data)  # type: ignore[arg-type]


def test_utf8_bytes_are_read_like_text() -> None:
    assert parse(VLLM_AVAILABLE.encode("utf-8")) == parse(VLLM_AVAILABLE)


def test_an_overlong_line_is_named_not_read() -> None:
    long_line = "Available KV cache memory: 1.00 GiB" + " " * MAX_LINE_CHARS
    log = parse(long_line + "\n" + VLLM_AVAILABLE)
    assert [n.line_number for n in log.numbers] == [2]
    (unused,) = log.unused
    assert unused.line_number == 1 and unused.reason.startswith("longer than 16,384 characters")
    assert len(unused.line) <= 240


def _to_the_cap(head: str, unit: str, tail: str = "") -> str:
    room = MAX_INPUT_BYTES - len(head) - len(tail)
    return head + (unit * (room // len(unit) + 1))[:room] + tail


#: Inputs at the 1 MB cap built to make a backtracking pattern work hard: long runs inside each
#: format's repeated parts, on lines just under the line limit and as one huge line.
HOSTILE = {
    "digits after a vLLM label": _to_the_cap("", "GPU KV cache size: " + "1," * 8000 + "\n"),
    "spaces in a llama.cpp size": _to_the_cap("", "llama_kv_cache: size = " + " " * 16_000 + "x\n"),
    "buffer names": _to_the_cap("", "load_tensors: " + "a" * 8000 + " " * 8000 + "\n"),
    "nested brackets in a config": _to_the_cap("", "server_args=ServerArgs(" + "(" * 16_000 + "\n"),
    "quotes and commas in a config": _to_the_cap(
        "", "Initializing a V1 LLM engine (v1) with config: " + "a='," * 4000 + "\n"
    ),
    "rank prefixes": _to_the_cap("", "[2025-01-01 00:00:00" + " TP1" * 4000 + "\n"),
    "process prefixes": _to_the_cap("", "(VllmWorker" + " a=b" * 4000 + "\n"),
    "colour codes": _to_the_cap("", "\x1b[" + "1;" * 8000 + "\n"),
    "one line": _to_the_cap("Available KV cache memory: ", "9"),
    "blank lines": _to_the_cap("", "\r\n"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_megabyte_is_read_to_the_end(name: str) -> None:
    text = HOSTILE[name]
    assert len(text.encode("utf-8")) <= MAX_INPUT_BYTES
    log = parse(text)
    lines = text.split("\n")
    # Completing is the point; every non-blank line is accounted for.
    assert len(log.unused) + len(log.used_line_numbers) == sum(1 for line in lines if line.strip())


# --- Properties ---------------------------------------------------------------------------------

_PIECES = st.sampled_from(
    [
        VLLM_AVAILABLE,
        VLLM_TOKENS,
        VLLM_MERGED,
        VLLM_CONFIG,
        VLLM_ARGS,
        "Maximum concurrency for 8192 tokens per request: 11.12x",
        *SGLANG_LOG.splitlines(),
        *SGLANG_TP.splitlines(),
        *LLAMA_LOG.splitlines(),
        *LLAMA_ISWA.splitlines(),
        *LLAMA_OLD_AND_RECURRENT.splitlines(),
        "",
        "   ",
        "\x1b[31m",
        "random words",
    ]
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.one_of(_PIECES, st.text(max_size=80), st.text(alphabet="0123456789., =:()[]GiBMTPx\x1b\r", max_size=60)),
        max_size=25,
    ),
    st.sampled_from(["\n", "\r\n"]),
)
def test_any_text_is_read_or_refused_and_every_line_is_used_or_named(pieces: list[str], newline: str) -> None:
    text = newline.join(pieces)
    try:
        log = parse(text)
    except EngineLogError:
        return
    used = log.used_line_numbers
    unused = {u.line_number for u in log.unused}
    assert used.isdisjoint(unused)
    non_blank = {
        i
        for i, line in enumerate(text.split("\n"), start=1)
        if len(line) > MAX_LINE_CHARS or ANSI_CODES.sub("", line).strip()
    }
    assert used | unused == non_blank
    assert len(unused) == len(log.unused)
    assert log.engine in (None, VLLM, SGLANG, LLAMA_CPP)
    assert (log.engine is None) == (not log.numbers)
    seen = set()
    for number in log.numbers:
        assert (number.name, number.scope) not in seen
        seen.add((number.name, number.scope))
        assert isinstance(number.value, str) or number.value == number.value  # never NaN


# --- Command line -------------------------------------------------------------------------------


def test_cli_prints_each_number_with_its_line_and_counts_the_unused(tmp_path, capsys) -> None:
    path = tmp_path / "vllm.log"
    path.write_text("\n".join([VLLM_AVAILABLE, "INFO:     Application startup complete.", VLLM_TOKENS]), "utf-8")
    assert main(["engine-log", str(path)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert "Engine          vllm" in out and "Lines not used  1 (--json lists each, with why)" in out
    assert "kv_cache_memory_bytes          DP0  57.4 GB (printed 53.47 GiB)     1" in out
    assert "kv_cache_tokens                DP0               437,968 tokens     3" in out

    assert main(["engine-log", str(path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["outputs"]["engine"]["value"] == "vllm"
    assert result["rows"][0]["value"]["value"] == pytest.approx(53.47 * GIB)
    assert result["rows"][1]["line"]["value"] == 3
    assert result["unused"] == [
        {"line": 2, "text": "INFO:     Application startup complete.", "reason": "not a line this reader knows"}
    ]


def test_cli_reads_standard_input(monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(LLAMA_ISWA.encode("utf-8"))))
    assert main(["engine-log", "-", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["outputs"]["engine"]["value"] == LLAMA_CPP and result["unused"] == []


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"x" * (MAX_INPUT_BYTES + 1), "The log is 1,000,001 bytes; at most 1,000,000 bytes (1 MB) of UTF-8 is read."),
        (b"\xff\xfe", "The log is not UTF-8 text; paste the engine's printed start-up log."),
    ],
)
def test_cli_errors_are_one_line_with_exit_2(tmp_path, capsys, content: bytes, expected: str) -> None:
    path = tmp_path / "log.txt"
    path.write_bytes(content)
    assert main(["engine-log", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"roofline: error: {path}: {expected}\n"


def test_cli_names_a_missing_file(tmp_path, capsys) -> None:
    assert main(["engine-log", str(tmp_path / "absent.log")]) == 2
    assert capsys.readouterr().err.startswith(f"roofline: error: cannot read {tmp_path / 'absent.log'}:")
