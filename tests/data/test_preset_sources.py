"""The stored source data for model and accelerator presets is well formed and quotes its numbers.

These files are research data for the presets (real Hugging Face ``config.json`` files and vendor
spec-sheet quotes), kept so that every number a preset uses can be traced to what its source says.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from roofline_core.hardware import ACCELERATORS as PRESETS
from roofline_core.hardware.accelerator_presets import ACCELERATOR_RECORDS

DATA = Path(__file__).parent
HF_CONFIGS = DATA / "hf_configs"
SOURCES = json.loads((HF_CONFIGS / "SOURCES.json").read_text(encoding="utf-8"))["models"]
CONFIG_FILES = sorted(HF_CONFIGS.glob("*.json"))
CONFIG_SLUGS = [p.stem for p in CONFIG_FILES if p.name != "SOURCES.json"]

# Fields without which no parameter or KV-cache count can be made (top level, or in text_config
# for multimodal checkpoints).
ARCHITECTURE_FIELDS = ("hidden_size", "num_hidden_layers", "num_attention_heads")


def _text_config(config: dict) -> dict:
    return config.get("text_config", config)


def test_there_are_configs_from_at_least_twelve_families() -> None:
    model_types = {json.loads((HF_CONFIGS / f"{slug}.json").read_text())["model_type"] for slug in CONFIG_SLUGS}
    assert len(CONFIG_SLUGS) >= 12
    assert len(model_types) >= 8, model_types


@pytest.mark.parametrize("slug", CONFIG_SLUGS)
def test_config_parses_and_names_its_architecture(slug: str) -> None:
    config = json.loads((HF_CONFIGS / f"{slug}.json").read_text(encoding="utf-8"))
    assert isinstance(config.get("model_type"), str) and config["model_type"], f"{slug}: no model_type"
    text = _text_config(config)
    missing = [f for f in ARCHITECTURE_FIELDS if not isinstance(text.get(f), int)]
    assert not missing, f"{slug}: missing integer fields {missing}"


def test_every_config_has_a_source_entry_and_every_found_entry_a_config() -> None:
    found = {slug for slug, entry in SOURCES.items() if entry.get("config_found", True)}
    assert set(CONFIG_SLUGS) == found


@pytest.mark.parametrize("slug", sorted(SOURCES))
def test_source_entry_cites_where_it_was_read(slug: str) -> None:
    entry = SOURCES[slug]
    assert re.fullmatch(r"[\w.-]+/[\w.-]+", entry["repo"]), f"{slug}: repo must be owner/name"
    if entry.get("config_found", True):
        assert entry["url"].startswith("https://github.com/"), f"{slug}: url must name the stored repository"
    for key in ("published_total_params", "published_active_params"):
        if key in entry:
            claim = entry[key]
            assert claim["url"].startswith("https://"), f"{slug}.{key}: no url"
            assert claim["quote"].strip(), f"{slug}.{key}: no quote"
            # The stated figure must be read from the quote, not typed beside it.
            figure = re.match(r"[\d.]+", claim["value"]).group(0)
            assert figure in claim["quote"], f"{slug}.{key}: {claim['value']!r} not in its quote"


@pytest.mark.parametrize("slug", [s for s in CONFIG_SLUGS if "experts" in (HF_CONFIGS / f"{s}.json").read_text()])
def test_mixture_of_experts_models_state_their_active_count(slug: str) -> None:
    assert "published_active_params" in SOURCES[slug], f"{slug}: MoE model without a published active count"


# Accelerators ---------------------------------------------------------------------------------

ACCELERATORS = ACCELERATOR_RECORDS
ACCELERATOR_SLUGS = [a["slug"] for a in ACCELERATORS]
# Formats a dense peak may be given for; int8 in TOP/s, the rest in TFLOP/s.
PEAK_FORMATS = {"fp16", "bf16", "fp8", "int8", "fp4"}
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _numbers_stated(text: str) -> list[float]:
    """Every number written in ``text``, thousands separators removed."""
    return [float(match.replace(",", "")) for match in _NUMBER.findall(text)]


def _is_stated(value: float, stated: list[float], *, halved: bool, halvings: int = 0) -> bool:
    """Whether ``value`` is a stated number (or half of one), in the same unit or a thousandth of it.

    Sources quote peaks in TFLOP/s or PFLOP/s and power in W or kW, so a number may appear scaled
    by 1000; a sparse-only figure appears doubled, and a GeForce FP16-accumulate figure doubled
    again (``halvings`` counts the halvings beyond the sparse one).
    """
    factor = (2 if halved else 1) * 2**halvings
    return any(abs(n * scale - value * factor) <= 1e-9 * max(1.0, value) for n in stated for scale in (1, 1000))


def test_accelerator_slugs_are_unique_and_cover_the_requested_chips() -> None:
    assert len(ACCELERATOR_SLUGS) == len(set(ACCELERATOR_SLUGS))
    assert len(ACCELERATOR_SLUGS) >= 30


#: The desktop, workstation and new datacenter parts issue 34 asks for (its GPU list).
ISSUE_34_GPUS = {
    "rtx-3060-12gb", "rtx-3070", "rtx-3080", "rtx-3090", "rtx-3090-ti", "rtx-4060-ti-16gb", "rtx-4070",
    "rtx-4070-ti", "rtx-4080", "rtx-4090", "rtx-5060-ti-16gb", "rtx-5070", "rtx-5070-ti", "rtx-5080",
    "rtx-5090", "rtx-a6000", "rtx-6000-ada", "rtx-pro-6000", "rx-7900-xtx", "radeon-pro-w7900", "arc-b580", "arc-a770",
    "dgx-spark", "h100-nvl", "a100-pcie-80gb",
}  # fmt: skip


def test_the_issue_34_gpus_are_presets_and_each_says_how_its_peak_was_obtained() -> None:
    assert ISSUE_34_GPUS <= set(PRESETS), sorted(ISSUE_34_GPUS - set(PRESETS))
    for slug in ISSUE_34_GPUS:
        record = next(a for a in ACCELERATORS if a["slug"] == slug)
        basis = record.get("peak_basis", "measured" if record.get("measured") else "vendor")
        assert PRESETS[slug].peak_basis == basis
        if basis == "arithmetic":
            # The rule is recorded (checked below) or the notes say how the figure was computed.
            assert record.get("arithmetic") or "arithmetic" in record["notes"], slug


@pytest.mark.parametrize("slug", [a["slug"] for a in ACCELERATORS if a.get("arithmetic")])
def test_an_arithmetic_peak_is_marked_so(slug: str) -> None:
    """A peak computed from a stated figure is never presented as the vendor's own."""
    entry = next(a for a in ACCELERATORS if a["slug"] == slug)
    assert entry["peak_basis"] == "arithmetic" and PRESETS[slug].peak_basis == "arithmetic"


@pytest.mark.parametrize("slug", ACCELERATOR_SLUGS)
def test_accelerator_entry_quotes_its_source(slug: str) -> None:
    entry = next(a for a in ACCELERATORS if a["slug"] == slug)
    assert entry["sources"], f"{slug}: no source"
    for source in entry["sources"]:
        assert source["url"].startswith("https://") and source["quote"].strip(), f"{slug}: source without url or quote"
        assert source["title"].strip(), f"{slug}: source without a title"


@pytest.mark.parametrize("slug", ACCELERATOR_SLUGS)
def test_every_accelerator_figure_appears_in_its_quote(slug: str) -> None:
    entry = next(a for a in ACCELERATORS if a["slug"] == slug)
    stated = _numbers_stated("\n\n".join(source["quote"] for source in entry["sources"]))
    peaks = entry["dense_peak_tera_per_s"]
    assert set(peaks) <= PEAK_FORMATS, f"{slug}: unknown formats {set(peaks) - PEAK_FORMATS}"
    assert set(entry["dense_halved_from_sparse"]) <= set(peaks)
    accumulate_halved = entry.get("halved_for_fp32_accumulate", [])
    assert set(accumulate_halved) <= set(peaks)
    arithmetic = entry.get("arithmetic") or {}
    for dtype, value in peaks.items():
        if dtype in arithmetic:
            # A peak no source states: a quoted figure times a stated rule (the record's notes).
            rule = arithmetic[dtype]
            assert _is_stated(rule["stated"], stated, halved=False), f"{slug}.{dtype}: {rule['stated']} not quoted"
            assert value == pytest.approx(rule["stated"] * rule["factor"], rel=1e-9), (slug, dtype)
            continue
        halved = dtype in entry["dense_halved_from_sparse"]
        halvings = 1 if dtype in accumulate_halved else 0
        assert _is_stated(value, stated, halved=halved, halvings=halvings), (
            f"{slug}.{dtype}={value} is not in the quote{' (halved)' if halved or halvings else ''}"
        )
    for dtype, value in (entry.get("fp16_accumulate_dense_tera_per_s") or {}).items():
        if dtype in arithmetic:
            assert value == pytest.approx(2 * peaks[dtype], rel=1e-9), (slug, dtype)
            continue
        assert _is_stated(value, stated, halved=dtype in entry["dense_halved_from_sparse"]), (
            f"{slug}: FP16-accumulate {dtype}={value} is not in the quote"
        )
    # A CPU's bandwidth and capacity may be computed from quoted channels, speed and module size
    # (test_every_memory_arithmetic_is_its_quoted_inputs_multiplied checks those).
    memory = entry.get("memory_arithmetic") or {}
    figures = {
        "memory_bandwidth": None
        if memory.get("bandwidth_computed")
        else (entry["memory_bandwidth"] or {}).get("value"),
        "memory_capacity": None if memory else (entry["memory_capacity"] or {}).get("value"),
        "interconnect": entry["interconnect"].get("value"),
        "board_power_w": entry["board_power_w"],
    }
    for name, value in figures.items():
        if value is not None:
            assert _is_stated(value, stated, halved=False), f"{slug}.{name}={value} is not in the quote"


ARITHMETIC_SLUGS = [a["slug"] for a in ACCELERATORS if a.get("peak_arithmetic")]


@pytest.mark.parametrize("slug", ARITHMETIC_SLUGS)
def test_every_arithmetic_peak_is_its_quoted_inputs_multiplied(slug: str) -> None:
    """An arithmetic peak (no vendor FLOP/s): the cores, the units per core (or their product, as
    a shader count) and the clock (GHz, or MHz in the quote) are stated, and the preset's peak is
    recomputed here from them."""
    entry = next(a for a in ACCELERATORS if a["slug"] == slug)
    arithmetic = entry["peak_arithmetic"]
    stated = _numbers_stated("\n\n".join(source["quote"] for source in entry["sources"]))
    cores, units, clock_ghz = arithmetic["cores"], arithmetic["units_per_core"], arithmetic["clock_ghz"]
    assert entry["peak_basis"] == "arithmetic" and not entry["dense_peak_tera_per_s"]
    assert cores in stated, f"{slug}: {cores} cores not in the quote"
    assert units in stated or cores * units in stated, f"{slug}: {units} units per core not in the quote"
    assert clock_ghz in stated or round(clock_ghz * 1000, 6) in stated, (
        f"{slug}: clock {clock_ghz} GHz not in the quote"
    )
    # One fused multiply-add per unit per clock, unless the record says why it is more.
    assert arithmetic["flop_per_clock_per_unit"] == 2 or "FLOP per clock" in entry["notes"]
    expected = cores * units * arithmetic["flop_per_clock_per_unit"] * clock_ghz * 1e9
    for dtype in arithmetic["dtypes"]:
        assert PRESETS[slug].peak_for(dtype) == pytest.approx(expected, rel=1e-12), (slug, dtype)


@pytest.mark.parametrize("slug", [a["slug"] for a in ACCELERATORS if a.get("memory_arithmetic")])
def test_every_memory_arithmetic_is_its_quoted_inputs_multiplied(slug: str) -> None:
    """Bandwidth = channels x 8 bytes x MT/s and capacity = channels x one module, from quoted inputs."""
    entry = next(a for a in ACCELERATORS if a["slug"] == slug)
    memory = entry["memory_arithmetic"]
    stated = _numbers_stated("\n\n".join(source["quote"] for source in entry["sources"]))
    channels, module_gb = memory["channels"], memory["module_gb"]
    assert channels in stated and module_gb in stated, slug
    assert entry["memory_capacity"] == {"value": channels * module_gb, "unit": "GB"}
    assert memory["bytes_per_transfer"] == 8, "a DDR5 channel is 64 bits wide"
    if memory["bandwidth_computed"]:
        assert memory["mega_transfers_per_s"] in stated, slug
        expected = channels * 8 * memory["mega_transfers_per_s"] / 1000
        assert entry["memory_bandwidth"] == {"value": pytest.approx(expected), "unit": "GB/s"}
    assert PRESETS[slug].kind == "cpu" and PRESETS[slug].interconnect_bandwidth_bytes_per_s is None


def test_the_arithmetic_check_rejects_an_unquoted_clock() -> None:
    stated = _numbers_stated("10-Core M3\n1280 Shaders\nShared Memory\n1398MHz")
    assert 1398 in stated and 1280 in stated and 1.5 * 1000 not in stated


@pytest.mark.parametrize("slug", ACCELERATOR_SLUGS)
def test_completeness_flag_matches_the_figures(slug: str) -> None:
    entry = next(a for a in ACCELERATORS if a["slug"] == slug)
    has_all = (
        bool({"fp16", "bf16"} & set(entry["dense_peak_tera_per_s"]))
        and entry["memory_bandwidth"] is not None
        and entry["memory_capacity"] is not None
        and entry["interconnect"].get("value") is not None
        and entry["board_power_w"] is not None
    )
    assert entry["complete"] is has_all and (not entry["missing"]) is has_all


@pytest.mark.parametrize("slug", ACCELERATOR_SLUGS)
def test_every_capacity_is_stated_and_exposed_in_gib(slug: str) -> None:
    """The vendor's capacity is quoted as written; the exposed one is in GiB with its reason."""
    entry = next(a for a in ACCELERATORS if a["slug"] == slug)
    stated, exposed = entry["memory_capacity"], entry["memory_exposed"]
    assert exposed["unit"] == "GiB" and exposed["value"] == stated["value"] and exposed["why"].strip()


@pytest.mark.parametrize("slug", [a["slug"] for a in ACCELERATORS if a["family"] == "GeForce"])
def test_every_geforce_record_states_one_accumulate_convention(slug: str) -> None:
    entry = next(a for a in ACCELERATORS if a["slug"] == slug)
    assert entry["accumulate"] == "FP32" and "FP32-accumulate" in entry["notes"]
    alternative = entry["fp16_accumulate_dense_tera_per_s"]
    assert alternative and all(alternative[d] == 2 * entry["dense_peak_tera_per_s"][d] for d in alternative)


def test_the_number_check_rejects_a_typed_figure() -> None:
    stated = _numbers_stated("FP16 Tensor Core 1,979 TFLOPS* (*with sparsity), 3.35 TB/s, 1.4 kW")
    assert _is_stated(989.5, stated, halved=True)
    assert _is_stated(1400, stated, halved=False)
    assert not _is_stated(989.0, stated, halved=True)
    assert not _is_stated(1979, stated, halved=True)


@pytest.mark.parametrize("slug", [s for s in ACCELERATOR_SLUGS if s in PRESETS])
def test_a_preset_and_its_record_agree(slug: str) -> None:
    """Presets that keep a vendor sheet's figures must agree with their research record."""
    record = next(a for a in ACCELERATORS if a["slug"] == slug)
    preset = PRESETS[slug]
    for dtype, tera in record["dense_peak_tera_per_s"].items():
        if tera and preset.supports(dtype):
            assert preset.peak_for(dtype) / 1e12 == pytest.approx(tera, rel=1e-3), (slug, dtype)
    unit = {"GB/s": 1e9, "TB/s": 1e12}[record["memory_bandwidth"]["unit"]]
    assert preset.bandwidth_bytes_per_s == pytest.approx(record["memory_bandwidth"]["value"] * unit, rel=1e-3)


#: The rest of issue 34's lists: the Super refresh, more GeForce and Radeon tiers, the M1 and M1
#: Pro, and a Genoa server CPU.
ISSUE_34_MORE = {
    "rtx-3060-ti", "rtx-4060", "rtx-4070-super", "rtx-4070-ti-super", "rtx-4080-super", "rx-7900-xt",
    "rx-9070-xt", "apple-m1", "apple-m1-pro", "epyc-9654",
}  # fmt: skip


def test_there_are_at_least_eighty_presets_with_the_rest_of_issue_34s_chips() -> None:
    assert ISSUE_34_MORE <= set(PRESETS), sorted(ISSUE_34_MORE - set(PRESETS))
    assert len(PRESETS) >= 80


def test_an_ada_super_peak_is_its_cuda_cores_times_four_times_the_boost_clock() -> None:
    """The rule written out: 2 FLOP per multiply-add, x 2 for the tensor rate with FP32 accumulation."""
    for slug, cores, boost_mhz in (
        ("rtx-4070-super", 7168, 2475),
        ("rtx-4070-ti-super", 8448, 2610),
        ("rtx-4080-super", 10240, 2550),
    ):
        assert PRESETS[slug].peak_for("fp16") == pytest.approx(cores * 4 * boost_mhz * 1e6, rel=1e-12), slug
        assert PRESETS[slug].peak_basis == "arithmetic"


def test_the_genoa_preset_is_twelve_ddr5_4800_channels() -> None:
    chip = PRESETS["epyc-9654"]
    assert chip.kind == "cpu" and chip.bandwidth_bytes_per_s == pytest.approx(12 * 8 * 4800e6)


#: The last of issue 34's chips: a Turin server CPU, the Jetson AGX Orin, the Max 1100, the MI355X,
#: the 30-core M3 Max and the M5 tiers Apple had published (Pro and the 40-core Max).
ISSUE_34_LAST = {
    "epyc-9755", "jetson-orin-64gb", "max-1100", "mi355x", "apple-m3-max-30c", "apple-m5-pro", "apple-m5-max",
}  # fmt: skip


def test_the_last_issue_34_chips_are_presets_grouped_with_their_vendor_and_family() -> None:
    assert ISSUE_34_LAST <= set(PRESETS), sorted(ISSUE_34_LAST - set(PRESETS))
    groups = {slug: PRESETS[slug].group for slug in ISSUE_34_LAST}
    assert groups == {
        "epyc-9755": "CPUs: AMD",
        "jetson-orin-64gb": "NVIDIA Jetson",
        "max-1100": "Intel",
        "mi355x": "AMD",
        "apple-m3-max-30c": "Apple",
        "apple-m5-pro": "Apple",
        "apple-m5-max": "Apple",
    }
    # Every select shows one unbroken run per heading.
    order = [a.group for a in PRESETS.values()]
    assert all(order.index(g) + order.count(g) - 1 == len(order) - 1 - order[::-1].index(g) for g in set(order))


def test_the_binned_m3_max_has_apples_300_gb_s_and_sits_before_the_40_core_part() -> None:
    binned, full = PRESETS["apple-m3-max-30c"], PRESETS["apple-m3-max"]
    assert binned.bandwidth_bytes_per_s == 300e9 and full.bandwidth_bytes_per_s == 400e9
    assert "30-core GPU (300GB/s memory bandwidth)" in binned.source.states
    slugs = list(PRESETS)
    assert slugs.index("apple-m3-max-30c") < slugs.index("apple-m3-max")


def test_the_mi355x_holds_amds_dense_16_bit_rate_and_turin_twelve_ddr5_6400_channels() -> None:
    mi355x = PRESETS["mi355x"]
    assert mi355x.peak_for("bf16") == 2500e12 and mi355x.bandwidth_bytes_per_s == 8e12
    assert PRESETS["epyc-9755"].bandwidth_bytes_per_s == pytest.approx(12 * 8 * 6400e6)
    # The Jetson's 16-bit peak is a quarter of its GPU's sparse INT8 figure.
    assert PRESETS["jetson-orin-64gb"].peak_for("fp16") == pytest.approx(170e12 / 4)
