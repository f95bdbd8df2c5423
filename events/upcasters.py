"""Upcasters: a stored payload of an older schema version, read as the current version.

Stored events are never rewritten: an event keeps the ``schema_version`` it was written with
(its hash covers it). Readers that check payloads against the catalogue (`events.schemas`:
imports, audits) first bring an older payload up to the current version, one version at a
time, with the functions here. The engine reads the older forms itself where it must
(`engine.evolve`: a ``GameCreated`` without ``format`` is a stream of format 1).

``UPCASTERS[(type, n)]`` turns a payload of version ``n`` into one of version ``n + 1``.
"""

from __future__ import annotations

from events import catalog


def _game_created_1_to_2(payload: dict) -> dict:
    """Version 2 names the stream format; every game created before it was written in format 1."""
    return {**payload, "format": 1}


UPCASTERS = {
    ("GameCreated", 1): _game_created_1_to_2,
}


class CannotUpcast(ValueError):
    """A payload's version is newer than this server's, or no upcaster leads to the current one."""


def upcast(type_name: str, version: int, payload: dict) -> dict:
    """``payload`` (of ``type_name`` at ``version``) as the catalogue's current version of that type."""
    current = catalog.schema_version(type_name)
    if version > current:
        raise CannotUpcast(f"{type_name} is at schema version {current} here, not {version}: written by a newer "
                           "server")
    while version < current:
        step = UPCASTERS.get((type_name, version))
        if step is None:
            raise CannotUpcast(f"{type_name} is at schema version {current}, and version {version} cannot be "
                               "read as it")
        payload, version = step(payload), version + 1
    return payload
