"""Models: the transformer architecture type, its presets and how a ``config.json`` becomes one.

Holds the model type and its parameter counts (``model``), the presets by slug (``presets``) and
their stored configs (``preset_records``), the Hugging Face ``config.json`` importer
(``hf_config``, raising ``config_error.ConfigError``), quantisation read from a config
(``quantisation``), the short config code a link carries (``config_code``), attention shapes
(``attention``), the tensor-parallel degrees a model splits over (``tensor_split``), and the
readers of weight files' headers: GGUF (``gguf``: every tensor's type, and a model with the
file's exact weight bytes) and safetensors (``safetensors``: a shard's header, the index).
``roofline_core.models`` re-exports the public model names.
It may import: ``roofline_core.hardware``, ``roofline_core.roofline``, ``roofline_core.sources``.
"""

from __future__ import annotations

from roofline_core.models.config_error import ConfigError
from roofline_core.models.hf_config import from_hf_config, parse_config_text
from roofline_core.models.model import ATTENTION_KINDS, GQA, MHA, MLA, AnyModel, CustomModel, Model
from roofline_core.models.presets import MODELS, get_model, models_by_family

__all__ = [
    "ATTENTION_KINDS",
    "AnyModel",
    "ConfigError",
    "CustomModel",
    "GQA",
    "MHA",
    "MLA",
    "MODELS",
    "Model",
    "from_hf_config",
    "get_model",
    "models_by_family",
    "parse_config_text",
]
