"""The service's clock: wall time in milliseconds.

One clock for every stamp and deadline: the API stamps each command's ``at`` with it, the
engine states deadlines in it, and the workers compare with it (a timer against its
deadline, a rewind's ``clock_shift``, a webhook's backoff).
"""

from __future__ import annotations

import time


def now_ms() -> int:
    """Wall time in milliseconds."""
    return int(time.time() * 1000)
