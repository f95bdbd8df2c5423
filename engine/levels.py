"""The bot levels a seat may be played at: name -> chooser ``(view, prompt, rng) -> command``.

``random`` and ``heuristic`` are `engine.players`'; ``expert`` searches the game (`engine.search`).
Each chooser gets what its seat may know: `workers.bots.choose` passes the seat's view, built by
the chooser's own ``view(state, colour)`` where it has one (the expert reads the seat's knowledge
as `engine.search.knowledge.seat_state` writes it: the game with every card the seat cannot see
replaced by a placeholder).

The expert is imported when first used, so this table can be read by modules the search itself
imports (the lobby's check of a seat's level, in `engine.setup`) without an import circle.
"""

from __future__ import annotations

from engine.players import heuristic_command, random_command


def expert_command(view: dict, prompt: dict, rng, *, steps: int | None = None, seconds: float | None = None,
                   time_left_ms: int | None = None) -> dict:
    """The ``expert`` level: `engine.search.expert.expert_command`, with the configured budget or the one given
    (rollout answers, CPU seconds), its time capped by the time left before the decision's deadline."""
    from engine.search.expert import expert_command as search_command
    return search_command(view, prompt, rng, steps=steps, seconds=seconds, time_left_ms=time_left_ms)


def _expert_view(state: dict, color: str) -> dict:
    from engine.search.knowledge import seat_state
    return seat_state(state, color)


expert_command.view = _expert_view
expert_command.budgeted = True  # takes ``steps``, ``seconds`` and ``time_left_ms`` (workers.bots.answer)

LEVELS = {"random": random_command, "heuristic": heuristic_command, "expert": expert_command}
