"""Block-scaled weight formats and what one weight really costs in them, scales included.

A block-scaled format stores a block of low-bit elements beside one or more scale factors that
the block shares. The scale bytes are part of the weights' size: a "4-bit" format is never 4
bits per weight once its scales are counted::

    >>> BLOCK_FORMATS["mxfp4"].bits_per_weight
    4.25
    >>> BLOCK_FORMATS["q4_k"].bits_per_weight
    4.5

Each layout is read from its primary source (the format's specification, or the C struct that
defines it in llama.cpp), quoted in ``source.states``. Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

from roofline_core.sources import Source

_GGML_COMMON = "https://github.com/ggml-org/llama.cpp/blob/master/ggml/src/ggml-common.h"


@dataclass(frozen=True)
class BlockFormat:
    """A block-scaled storage format.

    Attributes:
        slug: Name used in URLs, the measurements table and the command line (``"mxfp4"``).
        label: Display name (``"MXFP4"``).
        element_bits: Bits of one quantised element, without scales.
        block_elements: Elements that share one block's scale data.
        scale_bits_per_block: Bits of scale (and offset) data each block carries.
        source: Where the layout comes from, with the struct or sentence quoted.
        whole_file: Whether a model stored in this format has every tensor in it, embedding and
            output head included. llama.cpp's quantize tool quantises ``token_embd`` and
            ``output`` too (a Q4_K_M file keeps ``output.weight`` in Q6_K), where GPU checkpoints
            (MXFP4, NVFP4) keep them 16-bit; see
            :meth:`roofline_core.models.model.Model.part_format`.
    """

    slug: str
    label: str
    element_bits: int
    block_elements: int
    scale_bits_per_block: int
    source: Source
    whole_file: bool = False

    def __post_init__(self) -> None:
        if self.element_bits <= 0 or self.block_elements <= 0 or self.scale_bits_per_block < 0:
            raise ValueError(f"block format {self.slug!r}: sizes must be positive")

    @property
    def bits_per_weight(self) -> float:
        """Stored bits per weight, the block's scale bits shared over its elements."""
        return self.element_bits + self.scale_bits_per_block / self.block_elements

    @property
    def bytes_per_weight(self) -> float:
        """Stored bytes per weight, scales included."""
        return self.bits_per_weight / 8.0

    @property
    def scale_overhead(self) -> float:
        """How much larger the weights are than the bare elements (0.0625 for 4.25 vs 4 bits)."""
        return self.scale_bits_per_block / (self.block_elements * self.element_bits)


BLOCK_FORMATS: dict[str, BlockFormat] = {
    f.slug: f
    for f in (
        BlockFormat(
            slug="mxfp4",
            label="MXFP4",
            element_bits=4,
            block_elements=32,
            scale_bits_per_block=8,
            source=Source(
                title="llama.cpp ggml-common.h: block_mxfp4 (the OCP Microscaling MXFP4 layout)",
                url=_GGML_COMMON,
                states=(
                    "#define QK_MXFP4 32 typedef struct { uint8_t e; // E8M0 uint8_t qs[QK_MXFP4/2]; } "
                    "block_mxfp4; (32 weights in 1 + 16 = 17 bytes)"
                ),
            ),
        ),
        BlockFormat(
            slug="nvfp4",
            label="NVFP4",
            element_bits=4,
            # Four FP8 (UE4M3) scales, one per 16 elements. NVFP4's one FP32 scale per tensor is
            # a single number for millions of weights and is left out.
            block_elements=64,
            scale_bits_per_block=32,
            source=Source(
                title="llama.cpp ggml-common.h: block_nvfp4",
                url=_GGML_COMMON,
                states=(
                    "#define QK_NVFP4 64 #define QK_NVFP4_SUB 16 // sub-block size for per-group scales "
                    "typedef struct { uint8_t d[QK_NVFP4/QK_NVFP4_SUB]; // UE4M3 scales (4 bytes, one per "
                    "16-element sub-block) uint8_t qs[QK_NVFP4/2]; // packed 4-bit E2M1 values (32 bytes) "
                    "} block_nvfp4;"
                ),
            ),
        ),
        BlockFormat(
            slug="q4_0",
            label="GGUF Q4_0",
            element_bits=4,
            block_elements=32,
            scale_bits_per_block=16,
            whole_file=True,
            source=Source(
                title="llama.cpp ggml-common.h: block_q4_0",
                url=_GGML_COMMON,
                states=(
                    "#define QK4_0 32 typedef struct { ggml_half d; // delta uint8_t qs[QK4_0 / 2]; "
                    "// nibbles / quants } block_q4_0; (32 weights in 2 + 16 = 18 bytes)"
                ),
            ),
        ),
        BlockFormat(
            slug="q4_k",
            label="GGUF Q4_K",
            element_bits=4,
            # A super-block of 256: two fp16 super-scales and 12 bytes of 6-bit block scales
            # and mins, (2 + 2 + 12) bytes = 128 bits beside 128 bytes of 4-bit quants.
            block_elements=256,
            scale_bits_per_block=128,
            whole_file=True,
            source=Source(
                title="llama.cpp ggml-common.h: block_q4_K",
                url=_GGML_COMMON,
                states=(
                    "// 4-bit quantization // 8 blocks of 32 elements each // weight is represented as "
                    "x = a * q + b // Effectively 4.5 bits per weight"
                ),
            ),
        ),
        BlockFormat(
            slug="q8_0",
            label="GGUF Q8_0",
            element_bits=8,
            block_elements=32,
            scale_bits_per_block=16,
            whole_file=True,
            source=Source(
                title="llama.cpp ggml-common.h: block_q8_0",
                url=_GGML_COMMON,
                states=(
                    "#define QK8_0 32 typedef struct { ggml_half d; // delta int8_t qs[QK8_0]; // quants } "
                    "block_q8_0; (32 weights in 2 + 32 = 34 bytes)"
                ),
            ),
        ),
    )
}
