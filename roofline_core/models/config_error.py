"""The error every reader of a ``config.json`` raises: the importer and the quantisation reader.

It has a module of its own so that both can raise it without importing each other.
"""

from __future__ import annotations


class ConfigError(ValueError):
    """A config that cannot describe a model; the message is written for the person who gave it."""
