"""The engine's exceptions: what a refused command tells its sender."""

from __future__ import annotations

from engine.rulebook import rule_title


class EngineError(Exception):
    """Base of everything the engine raises on purpose."""

    code = "engine-error"


class CommandError(EngineError):
    """A command that is malformed: unknown action, missing or ill-typed arguments."""

    code = "bad-command"

    def __init__(self, detail: str, field: str | None = None):
        super().__init__(detail)
        self.detail = detail
        self.field = field


class RulesError(EngineError):
    """A well-formed command that the rules forbid; names the rule that forbids it."""

    code = "rules-violation"

    def __init__(self, rule: str, detail: str):
        super().__init__(f"{detail} (rule {rule}: {rule_title(rule)})")
        self.rule = rule
        self.rule_title = rule_title(rule)
        self.detail = detail


class NotOwed(RulesError):
    """The sender owes no decision that this command could answer."""

    code = "not-owed"


class EngineStuck(EngineError):
    """The turn sequence made no progress: a bug, never a player's fault."""

    code = "engine-stuck"


class StateSpoiled(EngineError):
    """A command applied in place was refused after it had changed the state: a bug, never a player's fault.

    Every refusal must come before the first change (`engine.execute` with ``in_place``)."""

    code = "engine-fault"
