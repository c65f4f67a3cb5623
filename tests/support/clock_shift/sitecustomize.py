"""Shift this Python process's clock by ``ROOFLINE_CLOCK_SHIFT_S`` seconds (test helper).

Put this folder on ``PYTHONPATH`` to run a build "on another day": a reproducible build must not
change. It patches ``time.time``/``time.time_ns`` and the ``now``/``today``/``utcnow``
constructors of ``datetime``, before any other module imports them.
"""

from __future__ import annotations

import datetime as _datetime
import os
import time as _time

_SHIFT_S = float(os.environ.get("ROOFLINE_CLOCK_SHIFT_S", "0") or 0)

if _SHIFT_S:
    _real_time, _real_time_ns = _time.time, _time.time_ns
    _time.time = lambda: _real_time() + _SHIFT_S
    _time.time_ns = lambda: _real_time_ns() + int(_SHIFT_S * 1e9)
    _delta = _datetime.timedelta(seconds=_SHIFT_S)

    class _ShiftedDatetime(_datetime.datetime):
        @classmethod
        def now(cls, tz=None):
            return super().now(tz) + _delta

        @classmethod
        def utcnow(cls):
            return super().utcnow() + _delta

        @classmethod
        def today(cls):
            return super().today() + _delta

    class _ShiftedDate(_datetime.date):
        @classmethod
        def today(cls):
            return super().today() + _delta

    _datetime.datetime = _ShiftedDatetime
    _datetime.date = _ShiftedDate
