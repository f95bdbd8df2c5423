"""Issue 28 item 1: a SIGKILL of embedded `cosmic serve` at any moment loses nothing it had answered.

The real process, under load from two threads (games, webhook subscriptions, seats, actions with
an Idempotency-Key), killed at 20 random moments and started again on the same data folder
(bench/crashloop.py, which the bench runs with 50 kills): every acknowledged seat token still
opens its seat, every acknowledged action sent again gets its stored answer (not a 409), every
acknowledged subscription is still there, and no webhook event older than the last one delivered
before a kill is delivered again. No Redis is needed.
"""

from __future__ import annotations

import pytest

from bench.crashloop import run

pytestmark = pytest.mark.e2e


def test_twenty_kills_under_load_lose_no_token_answer_subscription_or_webhook_position(tmp_path):
    figures = run(kills=20, seed=28, folder=tmp_path, log=lambda line: None)
    assert figures["kills"] == 20
    assert figures["tokens"] > 0 and figures["answers"] > 0 and figures["hooks"] > 0 and figures["deliveries"] > 0
    assert figures["lost_tokens"] == 0, figures
    assert figures["lost_answers"] == 0 and figures["answers_409"] == 0, figures
    assert figures["lost_hooks"] == 0, figures
    assert figures["webhook_backwards"] == 0, figures
    assert figures["webhook_resent"] <= figures["kills"], figures  # the one delivery in flight (one jobs thread)
