"""Issue 15, "what it must show": a client generated from the served spec plays a whole game.

openapi-python-client (pinned in pyproject's test extras) generates a Python package from the
`openapi.yaml` that `cosmic serve` serves, into this test's temporary folder (never committed).
Everything below goes through that package only, as a client written from the spec alone
would: the typed catalogue, a stacked three-seat game created by the admin (everyone holds
Compromises, so the first challenge is a deal), seats joined, the game started, every
decision read from the typed prompts and answered from their typed option shapes, the deal's
terms built from the generated `DealTerms` model and accepted, the log read as typed events,
to the game's end; then each seat's `export`. The generator is told to read the two answers
that are not JSON (`application/x-ndjson`, `application/yaml`) as bytes: it has no type of its
own for them (README, "Generated clients").
"""

from __future__ import annotations

import contextlib
import importlib
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SERVICE_ADMIN_TOKEN

pytestmark = [pytest.mark.e2e, pytest.mark.contract]

GENERATOR = Path(sys.executable).parent / "openapi-python-client"
PACKAGE = "cosmic_client"
MOVE_CAP = 6000
ATTEMPTS = 25


@contextlib.contextmanager
def generated_package(base: str, folder: Path):
    """The package openapi-python-client generates from the spec ``base`` serves, importable while in use."""
    import requests
    spec = folder / "openapi.yaml"
    spec.write_text(requests.get(f"{base}/openapi.yaml", timeout=30).text, encoding="utf-8")
    config = folder / "generator.yaml"
    # the two responses that are not JSON are read as bytes (the generator has no type of its own for them)
    config.write_text(f"project_name_override: cosmic-client\npackage_name_override: {PACKAGE}\n"
                      "content_type_overrides:\n  application/x-ndjson: application/octet-stream\n"
                      "  application/yaml: application/octet-stream\n")
    made = subprocess.run([str(GENERATOR), "generate", "--path", str(spec), "--config", str(config),
                           "--output-path", str(folder / PACKAGE), "--meta", "none"],
                          cwd=folder, capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stdout + made.stderr
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


@pytest.fixture
def generated(service_processes, tmp_path):
    """(base URL, the generated package) for an embedded `cosmic serve`."""
    base = service_processes.embedded()
    with generated_package(base, tmp_path) as package:
        yield base, package


def load(package: str):
    return importlib.import_module(f"{PACKAGE}.{package}")


class Player:
    """Answers a seat's decisions from the typed prompts, as a client that knows only the spec would."""

    def __init__(self, client, api, models, rng: random.Random):
        self.client, self.api, self.models, self.rng = client, api, models, rng
        self.deals_proposed = 0

    def value(self, shape):
        """A legal-looking value of one argument shape (the generated classes of `Shape`)."""
        m, rng = self.models, self.rng
        if isinstance(shape, m.ChoiceShape):
            return rng.choice(shape.values)
        if isinstance(shape, m.SubsetShape):
            return rng.sample(shape.values, rng.randint(shape.min_, min(shape.max_, len(shape.values))))
        if isinstance(shape, m.CountShape):
            return rng.randint(shape.min_, shape.max_)
        if isinstance(shape, m.SequenceShape):
            return [rng.choice(shape.values) for _ in range(rng.randint(shape.min_, shape.max_))] if shape.values else []
        if isinstance(shape, m.DistributionShape):
            caps = dict(shape.sources.additional_properties)
            total, chosen = rng.randint(shape.min_, shape.max_), {}
            for _ in range(total):
                open_ = [k for k, cap in caps.items() if chosen.get(k, 0) < cap]
                if not open_:
                    break
                key = rng.choice(open_)
                chosen[key] = chosen.get(key, 0) + 1
            return chosen
        if isinstance(shape, m.FreeShape) and shape.schema == "deal":
            self.deals_proposed += 1
            gift = m.DealGift(named=[], count=1)
            nothing = m.DealGift(named=[], count=0)
            terms = m.DealTerms(cards=m.DealTermsCards(offense=gift, defense=nothing),
                                bases=m.DealTermsBases(offense=None, defense=None))
            return terms.to_dict()
        raise AssertionError(f"a shape the spec does not describe: {shape!r}")

    def command(self, option):
        """The Action for one option: its action, identity fields sent back as they are, args filled."""
        m = self.models
        args = {}
        for name, shape in option.args.additional_properties.items():
            if getattr(shape, "optional", False) is True and self.rng.random() < 0.3:
                continue
            args[name] = self.value(shape)
        body = m.Action(action=option.action, args=m.ActionArgs.from_dict(args))
        for name, value in option.additional_properties.items():
            body.additional_properties[name] = value
        return body

    def answer(self, game_id: str) -> object | None:
        """Answer the first decision this seat owes; the ActionResult, or None if it owed nothing."""
        prompts = self.api["get_prompts"].sync(game_id, client=self.client)
        assert isinstance(prompts, self.models.Prompts), prompts
        if not prompts.prompts:
            return None
        return self.answer_prompt(game_id, prompts.prompts[0])

    def answer_prompt(self, game_id: str, prompt, gone=(), pin: bool = False) -> object | None:
        """Answer one typed prompt: random options and values until the rules take one (a deal offered is
        accepted: the test wants one made), else its first option without arguments; the ActionResult.
        None when a refusal's status is in ``gone`` (the decision went away meanwhile). ``pin``: the answer names
        the prompt's id, so it fails (409) rather than answer a newer decision than the one read."""
        options = list(prompt.options)
        accepting = [o for o in options if o.action == "accept"]
        for _ in range(ATTEMPTS):
            option = self.rng.choice(accepting or options)
            body = self.command(option)
            if pin:
                body.prompt = prompt.id
            done = self.api["act"].sync(game_id, client=self.client, body=body)
            if isinstance(done, self.models.ActionResult):
                return done
            assert isinstance(done, self.models.Problem) and done.status in (400, 409, 422), done
            if done.status in gone:
                return None
        simple = [o for o in options if not o.args.additional_properties]
        assert simple, f"no answer the rules took for {prompt.kind}"
        body = self.command(simple[0])
        if pin:
            body.prompt = prompt.id
        done = self.api["act"].sync(game_id, client=self.client, body=body)
        if isinstance(done, self.models.Problem) and done.status in gone:
            return None
        assert isinstance(done, self.models.ActionResult), done
        return done


def test_a_generated_client_plays_a_whole_three_seat_game(generated):
    base, package = generated
    models = load("models")
    client_module = load("client")
    api = {name: load(f"api.{group}.{name}") for group, name in (
        ("service", "catalogue"), ("games", "create_game"), ("games", "join_game"), ("games", "start_game"),
        ("games", "get_board"), ("play", "get_prompts"), ("play", "get_hand"), ("play", "act"),
        ("feed", "get_events"), ("history", "export_game"))}
    anonymous = client_module.Client(base_url=base, raise_on_unexpected_status=True)
    admin = client_module.AuthenticatedClient(base_url=base, token=SERVICE_ADMIN_TOKEN, raise_on_unexpected_status=True)

    catalogue = api["catalogue"].sync(client=anonymous)
    assert isinstance(catalogue, models.Catalogue) and catalogue.powers and catalogue.edicts
    assert all(isinstance(p.provenance, str) for p in catalogue.powers)

    setup = models.StackedSetup.from_dict({"hands": {"red": ["C"] * 7, "blue": ["C"] * 5, "yellow": ["C"] * 5},
                                           "first": "red"})
    created = api["create_game"].sync(client=admin, body=models.CreateGame(
        seats=3, seed="generated-client", setup=setup, options=models.Options(flares=False)))
    assert isinstance(created, models.CreatedGame), created
    game_id = created.id

    seats = {}
    for k in range(3):
        joined = api["join_game"].sync(game_id, client=anonymous, body=models.Join(name=f"client {k + 1}"))
        assert isinstance(joined, models.Joined), joined
        seats[joined.player] = client_module.AuthenticatedClient(base_url=base, token=joined.token)
    assert isinstance(created.host_token, str) and created.private is False and created.invitation is None
    host = client_module.AuthenticatedClient(base_url=base, token=created.host_token)  # the creator starts it
    started = api["start_game"].sync(game_id, client=host)
    assert isinstance(started, models.Started) and started.status == "playing"

    rng = random.Random("generated-client")
    players = {color: Player(client, api, models, rng) for color, client in seats.items()}
    pending, status, moves = started.pending, started.status, 0
    while status == "playing" and moves < MOVE_CAP:
        color = rng.choice(pending).player
        result = players[color].answer(game_id)
        if result is None:  # that seat's decision went away meanwhile: read the board again
            board = api["get_board"].sync(game_id, client=anonymous)
            pending, status = board.pending, board.status.value if hasattr(board.status, "value") else board.status
            continue
        pending, status, moves = result.pending, result.status.value, moves + 1
    assert status == "finished", f"not finished after {moves} answers"
    assert sum(p.deals_proposed for p in players.values()) >= 1

    hand = api["get_hand"].sync(game_id, client=seats["blue"])
    assert isinstance(hand, models.Hand) and hand.player == "blue"

    page = api["get_events"].sync(game_id, client=seats["red"], limit=1000)
    assert isinstance(page, models.EventPage)
    kinds = {type(event).__name__ for event in page.events}
    assert {"GameCreatedEvent", "PlayerJoinedEvent", "DealProposedEvent", "DealConcludedEvent"} <= kinds, kinds
    concluded = [e for e in page.events if isinstance(e, models.DealConcludedEvent)]
    assert any(e.payload.made for e in concluded), "the proposed deal was never made"

    for color, client in seats.items():
        exported = api["export_game"].sync(game_id, client=client)
        assert isinstance(exported, bytes), exported
        lines = [json.loads(line) for line in exported.decode().splitlines()]
        assert lines[0]["type"] == "GameCreated" and lines[-1]["type"] == "GameEnded", color
