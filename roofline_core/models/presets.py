"""Model presets by slug, and the public face of everything about models.

Each preset is stored as the architecture fields of its published ``config.json``
(:mod:`roofline_core.models.preset_records`) and loaded through :func:`from_hf_config`, the same path a
reader's pasted config takes. The model type itself is :mod:`roofline_core.models.model`; this module
re-exports it, with the config importer, so ``roofline_core.models.presets`` keeps every name it had.
"""

from __future__ import annotations

from roofline_core.models.hf_config import ConfigError, from_hf_config, parse_config_text
from roofline_core.models.model import ATTENTION_KINDS, GQA, MHA, MLA, AnyModel, CustomModel, Model
from roofline_core.models.preset_records import PRESET_RECORDS
from roofline_core.sources import Source


def _preset_source(record: dict) -> Source:
    """The citation of a preset: its config's fields, and the counts its publisher states."""
    fields = ", ".join(f"{key} {value}" for key, value in record["config"].items() if not isinstance(value, list))
    quotes = [
        f"{record[which]['value']} ({record[which]['quote']})" for which in ("total", "active") if which in record
    ]
    states = fields + ("; published parameter counts: " + "; ".join(quotes) if quotes else "")
    return Source(title=f"{record['repo']} config.json", url=record["config_url"], states=states)


def _load_presets() -> dict[str, Model]:
    models = [
        from_hf_config(r["config"], slug=r["slug"], name=r["name"], source=_preset_source(r)) for r in PRESET_RECORDS
    ]
    # Family by family, each family where it first appears: a record appended later (a new release
    # of a family listed earlier) still sits with its family in every list and select.
    first: dict[str, int] = {}
    for m in models:
        first.setdefault(m.family, len(first))
    return {m.slug: m for m in sorted(models, key=lambda m: first[m.family])}


#: Every model preset by slug, grouped by family (see :mod:`roofline_core.models.preset_records`).
MODELS: dict[str, Model] = _load_presets()


def models_by_family() -> dict[str, list[Model]]:
    """The presets grouped by family, in the order lists show them."""
    groups: dict[str, list[Model]] = {}
    for m in MODELS.values():
        groups.setdefault(m.family, []).append(m)
    return groups


def get_model(slug: str) -> Model:
    """Return the preset named ``slug``.

    Raises:
        KeyError: with the accepted slugs, if ``slug`` is unknown.
    """
    try:
        return MODELS[slug]
    except KeyError:
        raise KeyError(f"unknown model {slug!r}; expected one of {', '.join(MODELS)}") from None


__all__ = [
    "ATTENTION_KINDS",
    "GQA",
    "MHA",
    "MLA",
    "MODELS",
    "AnyModel",
    "ConfigError",
    "CustomModel",
    "Model",
    "from_hf_config",
    "get_model",
    "models_by_family",
    "parse_config_text",
]
