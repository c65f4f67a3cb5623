"""Estimates: what a decode step, a prefill or one operation costs on a given setup.

Holds decode and prefill estimates with memory fit (``inference``), communication between
devices (``communication``), memory headroom (``headroom``), fitted efficiencies
(``efficiency``), speculative decoding (``speculative``), a continuous-batching step with a prefill
chunk beside the decode batch (``mixed_step``) and the per-operation catalogue
(``operations``). Each result carries the speed-of-light figure beside the expected one, and
each time its ``parts``: a breakdown from one vocabulary (``parts``) that adds up to it.
It may import: ``roofline_core.models``, ``roofline_core.hardware``, ``roofline_core.roofline``,
``roofline_core.sources``, ``roofline_core.formatting``.
"""

from __future__ import annotations
