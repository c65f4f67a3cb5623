"""Measure one GPU's achievable ceilings and the decode/prefill step times of preset models.

Run on a machine with one NVIDIA GPU and PyTorch (nothing is downloaded; models are built from
the presets' config fields with random weights, which do not change the time of a dense step):

    python3 benchmarks/gpu/measure.py --out DIR            # the full run, about 3 minutes
    python3 benchmarks/gpu/measure.py --out DIR --quick    # a smoke run: small sizes, one model

It writes ``DIR/gpu-measurements.json`` (every figure with its conditions) and prints a summary.
``benchmarks/gpu/compare.py`` reads that file and sets each figure beside ``roofline_core``'s
estimate; ``benchmarks/gpu/results/`` keeps dated runs.

What is measured, and how (each time is the median of CUDA-event timings after warm-up):

- **Bandwidth**: a device-to-device copy (bytes read + written), a read-only reduction, a
  write-only fill, and matrix-vector products of decode-sized weight matrices (the kernel a batch-1
  decode step spends its time in), at batch 1, 8 and 32.
- **Matrix peak**: square products in bf16, fp16, tf32 and, where the GPU has it, FP8 (e4m3 with
  per-tensor scales through ``torch._scaled_mm``), on random data.
- **Decode steps**: one token for every sequence of a batch, through every layer of a Llama-style
  decoder with the preset's shapes (fused QKV, grouped-query attention over a bf16 KV cache with
  ``scaled_dot_product_attention``, SwiGLU MLP, RMSNorm, output head), captured in a CUDA graph as
  serving engines do, so Python and launch overhead are not counted but the gaps between kernels
  are. Rotary embeddings and q/k norms are left out (elementwise, a few microseconds a layer).
- **Prefill**: one forward pass over a whole prompt (causal flash attention), batch 1.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
# The presets' config fields, read as data: roofline_core is standard library only.
from roofline_core.models.preset_records import PRESET_RECORDS  # noqa: E402

GiB = 1 << 30
# Every tensor lives here; a CPU run of the shapes alone is how the script is checked without a GPU.
DEVICE = "cuda"

# Dense Llama-style presets that fit one GPU in bf16, small to large.
DEFAULT_MODELS = ["llama-3.2-1b", "llama-3.2-3b", "llama-3.1-8b", "qwen3-8b", "phi-4", "qwen3-32b"]
# (batch, context tokens) cells for decode; batch x context stays <= 65,536 cached tokens.
DECODE_CELLS = [(1, 1024), (1, 8192), (8, 2048), (32, 2048), (64, 1024)]
PREFILL_TOKENS = [512, 2048, 8192]


def median_ms(fn, *, warmup: int = 3, reps: int = 20) -> float:
    """Median milliseconds of ``fn()`` timed with CUDA events (each rep timed on its own)."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def environment() -> dict:
    props = torch.cuda.get_device_properties(0)
    smi = {}
    try:
        fields = "name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,power.limit"
        line = (
            subprocess.run(
                ["nvidia-smi", f"--query-gpu={fields}", "--format=csv,noheader"],
                capture_output=True,
                text=True,
                timeout=20,
                check=True,
            )
            .stdout.strip()
            .splitlines()[0]
        )
        smi = dict(zip(fields.split(","), [v.strip() for v in line.split(",")]))
    except Exception as error:  # noqa: BLE001 - the figures stand without nvidia-smi
        smi = {"error": str(error)}
    return {
        "date_utc": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "device_name": props.name,
        "multiprocessors": props.multi_processor_count,
        "memory_bytes": props.total_memory,
        "compute_capability": f"{props.major}.{props.minor}",
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "python": platform.python_version(),
        "nvidia_smi": smi,
        "load_average": os.getloadavg(),
    }


def bandwidth(quick: bool) -> list[dict]:
    size = (256 << 20) if quick else (2 * GiB)
    elements = size // 2
    src = torch.empty(elements, dtype=torch.bfloat16, device=DEVICE).normal_()
    dst = torch.empty_like(src)
    rows = []

    def row(kind: str, ms: float, moved: int, note: str) -> None:
        rows.append(
            {
                "kind": kind,
                "median_s": ms / 1e3,
                "bytes_moved": moved,
                "bandwidth_bytes_per_s": moved / (ms / 1e3),
                "note": note,
            }
        )

    row("copy", median_ms(lambda: dst.copy_(src)), 2 * size, "bytes read plus bytes written")
    row("read", median_ms(lambda: src.sum(dtype=torch.float32)), size, "reduction of a bf16 tensor")
    row("write", median_ms(lambda: dst.fill_(1.0)), size, "fill of a bf16 tensor")
    src = dst = None  # free the buffers before the next measurements
    # Decode-shaped products: weights (out x in) read once, a few activations.
    shapes = [(4096, 4096), (14336, 4096), (4096, 14336), (28672, 8192)]
    if quick:
        shapes = shapes[:2]
    for out_features, in_features in shapes:
        weight = torch.empty(out_features, in_features, dtype=torch.bfloat16, device=DEVICE).normal_()
        for batch in (1, 8, 32):
            x = torch.empty(batch, in_features, dtype=torch.bfloat16, device=DEVICE).normal_()
            ms = median_ms(lambda x=x, weight=weight: F.linear(x, weight), reps=50)
            moved = weight.numel() * 2 + (batch * (in_features + out_features)) * 2
            row(
                f"gemv {out_features}x{in_features} batch {batch}",
                ms,
                moved,
                "weight bytes plus activations in and out",
            )
        weight = None
    torch.cuda.empty_cache()
    return rows


def matmul_peaks(quick: bool) -> list[dict]:
    n = 4096 if quick else 8192
    rows = []

    def row(kind: str, ms: float, note: str = "") -> None:
        rows.append({"kind": kind, "n": n, "median_s": ms / 1e3, "flop_per_s": 2 * n**3 / (ms / 1e3), "note": note})

    for name, dtype in (("bf16", torch.bfloat16), ("fp16", torch.float16)):
        a = torch.randn(n, n, dtype=dtype, device=DEVICE)
        b = torch.randn(n, n, dtype=dtype, device=DEVICE)
        row(name, median_ms(lambda a=a, b=b: a @ b), "random normal data")
    torch.backends.cuda.matmul.allow_tf32 = True
    a = torch.randn(n, n, device=DEVICE)
    b = torch.randn(n, n, device=DEVICE)
    row("tf32", median_ms(lambda: a @ b), "fp32 inputs, tf32 tensor cores")
    torch.backends.cuda.matmul.allow_tf32 = False
    if torch.cuda.get_device_capability(0) >= (8, 9) and hasattr(torch, "_scaled_mm"):
        try:
            a8 = torch.randn(n, n, device=DEVICE).to(torch.float8_e4m3fn)
            # _scaled_mm wants the second operand column-major.
            b8 = torch.randn(n, n, device=DEVICE).to(torch.float8_e4m3fn).t().contiguous().t()
            one = torch.tensor(1.0, device=DEVICE)
            ms = median_ms(lambda: torch._scaled_mm(a8, b8, scale_a=one, scale_b=one, out_dtype=torch.bfloat16))
            row("fp8 e4m3", ms, "torch._scaled_mm, per-tensor scales, bf16 out")
        except Exception as error:  # noqa: BLE001 - recorded, the other peaks stand
            rows.append({"kind": "fp8 e4m3", "error": str(error)})
    a = b = None
    torch.cuda.empty_cache()
    return rows


def preset_shape(slug: str) -> dict:
    record = next(r for r in PRESET_RECORDS if r["slug"] == slug)
    c = record["config"]
    heads = c["num_attention_heads"]
    head_dim = c.get("head_dim") or c["hidden_size"] // heads
    return {
        "slug": slug,
        "layers": c["num_hidden_layers"],
        "hidden": c["hidden_size"],
        "heads": heads,
        "kv_heads": c.get("num_key_value_heads", heads),
        "head_dim": head_dim,
        "ffn": c["intermediate_size"],
        "vocab": c["vocab_size"],
        "tied": bool(c.get("tie_word_embeddings", False)),
    }


class Decoder:
    """A Llama-style decoder's weights with a preset's shapes (random, bf16, one copy per layer)."""

    def __init__(self, shape: dict):
        self.shape = shape
        h, d = shape["hidden"], shape["head_dim"]
        qkv = (shape["heads"] + 2 * shape["kv_heads"]) * d

        def w(*size: int) -> torch.Tensor:
            return torch.empty(*size, dtype=torch.bfloat16, device=DEVICE).normal_(std=0.02)

        self.layers = [
            {
                "norm1": torch.ones(h, dtype=torch.bfloat16, device=DEVICE),
                "qkv": w(qkv, h),
                "o": w(h, shape["heads"] * d),
                "norm2": torch.ones(h, dtype=torch.bfloat16, device=DEVICE),
                "gate_up": w(2 * shape["ffn"], h),
                "down": w(h, shape["ffn"]),
            }
            for _ in range(shape["layers"])
        ]
        self.embed = w(shape["vocab"], h)
        self.head = self.embed if shape["tied"] else w(shape["vocab"], h)
        self.final_norm = torch.ones(h, dtype=torch.bfloat16, device=DEVICE)

    def weight_bytes(self) -> int:
        tensors = [t for layer in self.layers for t in layer.values()] + [self.embed, self.final_norm]
        if self.head is not self.embed:
            tensors.append(self.head)
        return sum(t.numel() * t.element_size() for t in tensors)

    def forward(self, x: torch.Tensor, caches: list | None, position: torch.Tensor | None) -> torch.Tensor:
        """x: (batch, tokens, hidden). With caches, tokens == 1 and the new K/V land at ``position``."""
        s = self.shape
        batch, tokens, h = x.shape
        d, heads, kv_heads = s["head_dim"], s["heads"], s["kv_heads"]
        for index, layer in enumerate(self.layers):
            y = F.rms_norm(x, (h,), layer["norm1"])
            q, k, v = F.linear(y, layer["qkv"]).split([heads * d, kv_heads * d, kv_heads * d], dim=-1)
            q = q.view(batch, tokens, heads, d).transpose(1, 2)
            k = k.view(batch, tokens, kv_heads, d).transpose(1, 2)
            v = v.view(batch, tokens, kv_heads, d).transpose(1, 2)
            if caches is not None:
                key_cache, value_cache = caches[index]
                key_cache.index_copy_(2, position, k)
                value_cache.index_copy_(2, position, v)
                attn = F.scaled_dot_product_attention(q, key_cache, value_cache, enable_gqa=True)
            else:
                attn = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
            x = x + F.linear(attn.transpose(1, 2).reshape(batch, tokens, heads * d), layer["o"])
            y = F.rms_norm(x, (h,), layer["norm2"])
            gate, up = F.linear(y, layer["gate_up"]).chunk(2, dim=-1)
            x = x + F.linear(F.silu(gate) * up, layer["down"])
        # Engines compute logits for the last token of each sequence only.
        return F.linear(F.rms_norm(x[:, -1], (h,), self.final_norm), self.head)


def decode_step_ms(model: Decoder, batch: int, context: int) -> tuple[float, int]:
    s = model.shape
    caches = [
        tuple(
            torch.empty(batch, s["kv_heads"], context, s["head_dim"], dtype=torch.bfloat16, device=DEVICE).normal_()
            for _ in range(2)
        )
        for _ in range(s["layers"])
    ]
    cache_bytes = sum(t.numel() * t.element_size() for pair in caches for t in pair)
    x = torch.empty(batch, 1, s["hidden"], dtype=torch.bfloat16, device=DEVICE).normal_()
    position = torch.tensor([context - 1], device=DEVICE)
    with torch.inference_mode():
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            for _ in range(2):
                model.forward(x, caches, position)
        torch.cuda.current_stream().wait_stream(stream)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            model.forward(x, caches, position)
        ms = median_ms(graph.replay, warmup=3, reps=20)
    del graph, caches
    torch.cuda.empty_cache()
    return ms, cache_bytes


def prefill_ms(model: Decoder, tokens: int) -> float:
    x = torch.empty(1, tokens, model.shape["hidden"], dtype=torch.bfloat16, device=DEVICE).normal_()
    with torch.inference_mode():
        return median_ms(lambda: model.forward(x, None, None), warmup=2, reps=5)


def models(slugs: list[str], quick: bool) -> list[dict]:
    rows = []
    cells = [(1, 256), (4, 256)] if quick else DECODE_CELLS
    prompts = [256] if quick else PREFILL_TOKENS
    for slug in slugs:
        started = time.monotonic()
        shape = preset_shape(slug)
        model = Decoder(shape)
        entry = {"model": slug, "shape": shape, "weight_bytes": model.weight_bytes(), "decode": [], "prefill": []}
        for batch, context in cells:
            try:
                ms, cache_bytes = decode_step_ms(model, batch, context)
                entry["decode"].append(
                    {
                        "batch": batch,
                        "context_tokens": context,
                        "step_s": ms / 1e3,
                        "kv_cache_bytes": cache_bytes,
                        "tokens_per_s_per_sequence": 1e3 / ms,
                    }
                )
            except Exception as error:  # noqa: BLE001 - one cell failing keeps the others
                entry["decode"].append({"batch": batch, "context_tokens": context, "error": str(error)})
        for tokens in prompts:
            try:
                entry["prefill"].append({"prompt_tokens": tokens, "time_s": prefill_ms(model, tokens) / 1e3})
            except Exception as error:  # noqa: BLE001
                entry["prefill"].append({"prompt_tokens": tokens, "error": str(error)})
        entry["wall_s"] = round(time.monotonic() - started, 1)
        rows.append(entry)
        print(
            f"  {slug}: {entry['weight_bytes'] / 1e9:.2f} GB of weights, "
            + ", ".join(
                f"b{c['batch']}/ctx{c['context_tokens']} {c.get('step_s', float('nan')) * 1e3:.3f} ms"
                for c in entry["decode"]
            ),
            flush=True,
        )
        del model
        torch.cuda.empty_cache()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--models", default=",".join(DEFAULT_MODELS))
    parser.add_argument("--quick", action="store_true", help="small sizes and one model: a smoke run")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        sys.exit("measure.py needs a CUDA GPU")
    slugs = args.models.split(",")[:1] if args.quick else args.models.split(",")
    torch.manual_seed(0)
    result = {"script": "benchmarks/gpu/measure.py", "quick": args.quick, "environment": environment()}
    print(f"{result['environment']['device_name']}, torch {torch.__version__}", flush=True)
    result["bandwidth"] = bandwidth(args.quick)
    for r in result["bandwidth"]:
        print(f"  {r['kind']}: {r['bandwidth_bytes_per_s'] / 1e12:.2f} TB/s", flush=True)
    result["matmul"] = matmul_peaks(args.quick)
    for r in result["matmul"]:
        print(f"  {r['kind']}: {r.get('flop_per_s', 0) / 1e12:.0f} TFLOP/s {r.get('error', '')}", flush=True)
    result["models"] = models(slugs, args.quick)
    result["environment"]["load_average_end"] = os.getloadavg()
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "gpu-measurements.json").write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {args.out / 'gpu-measurements.json'}")


if __name__ == "__main__":
    main()
