"""How much of a unified-memory chip's RAM its GPU may use, and how a reader raises it.

On Apple silicon, AMD Strix Halo and NVIDIA GB10 the model, the operating system and every
other program share one pool of memory. The GPU may not take all of it: macOS caps what the
GPU driver may wire, and on Strix Halo the firmware (or the Linux driver) sets the GPU's share.
A fit verdict therefore compares a model with the GPU-usable share, not the whole pool.

A record states its limit as ``"gpu_memory": {"scheme": ..., ...}``, one of :data:`SCHEMES`;
:func:`gpu_usable_memory` reads it.
"""

from __future__ import annotations

from roofline_core.sources import Source

GIB = 2**30

#: macOS's default limit on the memory the GPU may wire (``iogpu.wired_limit_mb`` at 0, its
#: default) is a share of RAM that steps up on larger machines; Apple does not document it, so
#: the rule is read from people who queried Metal's ``recommendedMaxWorkingSetSize``.
MACOS_DEFAULT_SOURCES = (
    Source(
        title="Think Different blog, The MacBook Pro setting that doubles your AI performance",
        url="https://www.thinkdifferent.blog/blog/the-macbook-pro-setting-that-doubles-your-ai-performance/",
        states=(
            "The default is roughly:\n- ~65-70% of total RAM on machines with 36GB or less\n"
            "- ~75% of total RAM on higher-memory machines\nSo on a 48GB MacBook Pro, the GPU sees about "
            "36GB. On a 36GB machine, about 27GB. On 64GB, about 48GB."
        ),
    ),
    Source(
        title="exo pull request 1672, fix(mlx): cap wired memory limit based on actual model size",
        url="https://github.com/exo-explore/exo/pull/1672",
        states=(
            "`set_wired_limit_for_model` currently always wires `max_recommended_working_set_size` "
            "(~10.67 GB on 16GB M4) regardless of the actual model size passed in"
        ),
    ),
    Source(
        title="J. Stencel, Apple silicon limitations with usage on local LLM",
        url="https://stencel.io/posts/apple-silicon-limitations-with-usage-on-local-llm%20.html",
        states=(
            "For a 128 GB Mac, this value comes out to about 96 GB. (By comparison, a 64 GB Mac has "
            "~48 GB usable for GPU, and a 32 GB Mac only ~21–24 GB for GPU, which is ~65–75% of RAM.)"
        ),
    ),
)

#: Up to this much RAM macOS lets the GPU wire about two thirds of it; above, three quarters
#: (10.67 GB of a 16 GB M4 and about 21 of 32 GB are 2/3; 27 of 36 GB, 48 of 64 GB and 96 of
#: 128 GB are 3/4). The threshold is often written "36 GB or less", but the same writer's 36 GB
#: Mac gets 27 GB, three quarters, so the step is placed above 32 GiB, the next size down.
MACOS_SMALL_MACHINE_BYTES = 32 * GIB
MACOS_SMALL_SHARE = 2 / 3
MACOS_LARGE_SHARE = 3 / 4

#: What a reader leaves to macOS when raising the limit, in bytes: a common choice, not a rule.
MACOS_KEEP_FOR_SYSTEM_BYTES = 8 * GIB

#: The schemes a record's ``gpu_memory`` may name: Apple's default wired limit, a stated GPU
#: allocation (a BIOS or driver setting) given in GiB, or, where nothing splits the pool (NVIDIA
#: GB10: the GPU takes what Linux leaves), the memory a cited measurement found available, in GiB.
SCHEMES = ("macos-default-wired-limit", "stated-allocation", "measured-available")


def macos_default_gpu_bytes(memory_bytes: float) -> float:
    """The memory macOS lets the GPU wire by default on a Mac with ``memory_bytes`` of RAM, in bytes."""
    share = MACOS_SMALL_SHARE if memory_bytes <= MACOS_SMALL_MACHINE_BYTES else MACOS_LARGE_SHARE
    return memory_bytes * share


def macos_raise_advice(memory_bytes: float) -> str:
    """How to let the GPU wire more of a Mac's ``memory_bytes``: the sysctl and a value for it."""
    limit_mb = int((memory_bytes - MACOS_KEEP_FOR_SYSTEM_BYTES) // 2**20)
    return (
        f"macOS lets the GPU wire about {_share_words(memory_bytes)} of it by default; raise the limit "
        f"until the next restart with sudo sysctl iogpu.wired_limit_mb={limit_mb} "
        f"(leaving {MACOS_KEEP_FOR_SYSTEM_BYTES // GIB} GiB to macOS)"
    )


def _share_words(memory_bytes: float) -> str:
    return "two thirds" if memory_bytes <= MACOS_SMALL_MACHINE_BYTES else "three quarters"


def gpu_usable_memory(record: dict, memory_bytes: float) -> tuple[float | None, str]:
    """The GPU-usable share of a unified-memory record's ``memory_bytes``, and how to raise it.

    Returns:
        ``(bytes, advice)``; ``(None, "")`` for a chip with memory of its own.

    Raises:
        ValueError: for an unknown scheme, or a stated allocation that is not in GiB or exceeds
            the memory.
    """
    limit = record.get("gpu_memory")
    if not limit:
        return None, ""
    scheme = limit.get("scheme")
    if scheme == "macos-default-wired-limit":
        return macos_default_gpu_bytes(memory_bytes), macos_raise_advice(memory_bytes)
    if scheme in ("stated-allocation", "measured-available"):
        if limit.get("unit") != "GiB" or not 0 < limit["value"] * GIB <= memory_bytes:
            raise ValueError(f"{record['slug']}: expected a GPU allocation in GiB within the memory, got {limit!r}")
        return limit["value"] * GIB, limit["how_to_raise"]
    raise ValueError(f"{record['slug']}: gpu_memory scheme must be one of {', '.join(SCHEMES)}, got {scheme!r}")
