"""Reading streams of format 1: the agenda's bookkeeping events engines before format 2 wrote.

Until stream format 2 (engine/evolve.py: ``STREAM_FORMAT``) the engine wrote every change of its
turn sequence as an event of its own: ``StepsScheduled`` (the current step replaced by others),
``StepUpdated`` (progress within the current step), ``AgendaUnwound`` (steps abandoned up to an
earlier one) and ``DecisionsOpened`` (every decision owed, with its deadline or none, and those no
longer owed). Games stored then keep them; this module applies them, exactly as those engines did,
so such a game folds to the state it had. Nothing writes them any more: the first command an engine
of format 2 applies to such a game writes a `Bookmark` with the whole agenda, and the game goes on
in format 2 (engine/context.py). Stored events are never rewritten.
"""

from __future__ import annotations

from engine.evolve import handles


@handles("StepsScheduled")
def _scheduled(s, p, event):
    agenda = s["agenda"]
    agenda.pop()
    # copies: later events change the steps in the state, never the recorded event
    agenda.extend(dict(step) for step in reversed(p["steps"]))
    for step in p["steps"]:
        if step["sid"] > s["sid"]:
            s["sid"] = step["sid"]


@handles("StepUpdated")
def _step_updated(s, p, event):
    s["agenda"][-1].update(p["changes"])


@handles("AgendaUnwound")
def _unwound(s, p, event):
    agenda = s["agenda"]
    while agenda and agenda[-1]["op"] != p["to"]:
        agenda.pop()
    if agenda:
        agenda[-1].update(p.get("changes") or {})


@handles("DecisionsOpened")
def _decisions(s, p, event):
    clock = s["clock"]
    for prompt_id in p["closed"]:
        clock.pop(prompt_id, None)
    for opened in p["opened"]:
        clock[opened["id"]] = opened.get("deadline")
