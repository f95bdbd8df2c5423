"""Build a rulebook situation exactly and play it by commands: for tests and tutorials.

    g = Scenario(players=3, powers={"red": ["Macron"]}, hands={"red": ["A8", "C"]},
                 destiny=["blue.1"], first="red")
    g.launch({"red-0": 1}, "blue-2")
    g.invite("red", []); g.invite("blue", [])
    g.play("red", "A8"); g.play("blue", "A10")
    assert g.tokens("blue-2") == {"blue": 4}

Timing windows are passed automatically unless a test acts in them with `use`; every
command goes through `engine.execute` exactly as the service's commands do, and the whole
event log is kept so tests can also check replay.
"""

from __future__ import annotations

from engine import flow
from engine.decide import execute, prompts
from engine.simulate import new_game

WINDOW_KINDS = ("window", "response")
# decisions that also offer what may be used at any time beside their own options (a deal's parties)
USE_BESIDE_KINDS = ("deal",)


class ScenarioError(AssertionError):
    """The scenario did not reach the decision a test expected."""


class Scenario:
    """A game set up from a scenario, with helpers that speak the rulebook's language."""

    def __init__(self, players: int = 3, *, powers: dict | None = None, hands: dict | None = None,
                 deck: list | None = None, destiny: list | None = None, first: str | None = "red",
                 options: dict | None = None, seed: str = "scenario", tokens: dict | None = None,
                 exact_hands: bool = False, ruleset: str = "mayfair"):
        setup = {"powers": powers or {}, "hands": hands or {}, "deck_top": deck or [],
                 "destiny_top": destiny or [], "tokens": tokens or {}}
        if first:
            setup["first"] = first
        if exact_hands:  # the stacked hands are the whole hands, not filled up to 7
            setup["exact_hands"] = sorted(hands or {})
        defaults = {"edicts": False, "flares": False, "reinforcements": False, "reverse_cone": False}
        if ruleset == "ffg":  # its artifacts are always in the deck, and it has no reverse cone
            defaults = {"flares": False, "reinforcements": False}
        self.state, self.log = new_game(seed, players, {**defaults, **(options or {})}, ruleset=ruleset,
                                        setup=setup)
        self.asked: list[dict] = []  # every decision owed after a command, once each (in the order first owed)
        self._note_asked()
        self.clock = 0
        self.auto_pass = True

    # Reading the state ----------------------------------------------------------------------

    def prompts(self, player: str | None = None) -> list[dict]:
        """Decisions owed now (by one player)."""
        owed = prompts(self.state)
        return [p for p in owed if player is None or p["player"] == player]

    def tokens(self, place: str) -> dict:
        """The tokens at a place: a planet id, ``warp``, ``cone:offense``..."""
        from engine.evolve import token_place
        return {c: n for c, n in token_place(self.state, place).items() if n}

    def warp(self, color: str) -> int:
        return self.state["warp"].get(color, 0)

    def hand(self, color: str) -> list[str]:
        return list(self.state["players"][color]["hand"])

    @property
    def ch(self) -> dict:
        return self.state["ch"]

    @property
    def outcome(self) -> dict | None:
        """The outcome of the current challenge, or of the last one resolved once the turn has moved on."""
        ch = self.state.get("ch")
        if ch and ch["outcome"]:
            return ch["outcome"]
        resolved = [e for e in self.log if e["type"] == "ChallengeResolved"]
        return resolved[-1]["payload"]["outcome"] if resolved else None

    def resolved(self) -> dict:
        """Pass windows until the current challenge is decided; its outcome (still there after the turn ends)."""
        for _ in range(500):
            ch = self.state["ch"]
            if ch and ch["outcome"]:
                return ch["outcome"]
            windows = [p for p in self.prompts() if p["kind"] in WINDOW_KINDS]
            if not windows:
                break
            self.command(windows[0]["player"], "pass")
        found = [e for e in self.log if e["type"] == "ChallengeResolved"]
        if not found:
            raise ScenarioError("no challenge was resolved")
        return found[-1]["payload"]["outcome"]

    def _note_asked(self) -> None:
        known = {p["id"] for p in self.asked[-20:]}
        self.asked += [p for p in prompts(self.state) if p["id"] not in known]

    # Acting ------------------------------------------------------------------------------------

    def command(self, player: str, action: str, args: dict | None = None, **identity) -> list[dict]:
        """Send one command as ``player``; returns the events it caused."""
        self.clock += 1000
        command = {"action": action, "player": player, "args": args or {}, "at": self.clock, **identity}
        events, self.state = execute(self.state, command)
        self.log += events
        self._note_asked()
        return events

    def pass_windows(self, until_player: str | None = None, until_kind: str | None = None) -> None:
        """Everyone passes in timing windows until another decision is owed."""
        for _ in range(500):
            owed = self.prompts()
            if until_player and until_kind and any(p["player"] == until_player and p["kind"] == until_kind
                                                   for p in owed):
                return
            windows = [p for p in owed if p["kind"] in WINDOW_KINDS]
            if not windows or len(windows) != len(owed):
                return
            self.command(windows[0]["player"], "pass")
        raise ScenarioError("windows never closed")

    def owe(self, player: str, kind: str) -> dict:
        """Pass windows until ``player`` owes a decision of ``kind``; return it."""
        if self.auto_pass:
            self.pass_windows(player, kind)
        found = [p for p in self.prompts(player) if p["kind"] == kind]
        if not found:
            owed = [(p["player"], p["kind"]) for p in self.prompts()]
            raise ScenarioError(f"{player} does not owe a {kind} decision; owed: {owed}")
        return found[0]

    def answer(self, player: str, kind: str, action: str, args: dict | None = None, **identity) -> list[dict]:
        """Answer the decision of ``kind`` that ``player`` owes."""
        owed = self.owe(player, kind)
        return self.command(player, action, args, prompt=owed["id"], **identity)

    # The rulebook's verbs ----------------------------------------------------------------------

    def regroup(self, player: str, to: str | None) -> list[dict]:
        if to is None:
            return self.answer(player, "regroup", "decline")
        return self.answer(player, "regroup", "retrieve", {"to": to})

    def launch(self, tokens: dict, planet: str, player: str | None = None) -> list[dict]:
        player = player or self.state["turn"]["offense"]
        return self.answer(player, "launch", "launch", {"tokens": tokens, "planet": planet})

    def invite(self, player: str, players: list[str]) -> list[dict]:
        return self.answer(player, "invite", "invite", {"players": players})

    def invite_none(self) -> None:
        """Both main players invite nobody (skipped where nobody could be invited)."""
        for player in (self.state["turn"]["offense"], self.state["ch"]["defense"]):
            if any(p["kind"] == "invite" for p in self.prompts(player)) or self._will_owe(player, "invite"):
                self.invite(player, [])

    def _will_owe(self, player: str, kind: str) -> bool:
        self.pass_windows(player, kind)
        return any(p["kind"] == kind for p in self.prompts(player))

    def join(self, player: str, side: str, tokens: dict) -> list[dict]:
        return self.answer(player, "alliance", "join", {"tokens": tokens}, side=side)

    def decline(self, player: str) -> list[dict]:
        return self.answer(player, "alliance", "decline")

    def play(self, player: str, card: str, **extra) -> list[dict]:
        """Commit a challenge card (by id, or by kind such as ``A8``)."""
        owed = self.owe(player, "challenge_card")
        values = owed["options"][0]["args"]["card"]["values"]
        chosen = card if card in values else next((c for c in values if c.split(".")[0] == card), card)
        return self.command(player, "play", {"card": chosen, **extra}, prompt=owed["id"])

    def use(self, player: str, ability: str, args: dict | None = None, **identity) -> list[dict]:
        """Use a power (``power:Mind``) or play a card (``card:CosmicZap.1`` or by kind ``CosmicZap``) in a window.

        ``identity`` picks among several options of one ability (Amoeba's ``ooze="in"``).
        """
        owed = self._window_prompt(player)
        abilities = [o.get("ability") for o in owed["options"] if o["action"] == "use"]
        if ability not in abilities:
            wanted = ability[5:] if ability.startswith("card:") else ability
            ability = next((a for a in abilities if a and a.startswith("card:") and
                            a[5:].split(".")[0] == wanted), ability)
        return self.command(player, "use", args, ability=ability, prompt=owed["id"], **identity)

    def _window_prompt(self, player: str) -> dict:
        for _ in range(200):
            owed = self.prompts()
            mine = [p for p in owed if p["player"] == player and (
                p["kind"] in WINDOW_KINDS or
                (p["kind"] in USE_BESIDE_KINDS and any(o["action"] == "use" for o in p["options"])))]
            if mine:
                return mine[0]
            windows = [p for p in owed if p["kind"] in WINDOW_KINDS]
            if not windows:
                break
            self.command(windows[0]["player"], "pass")
        raise ScenarioError(f"{player} is never asked in a window; owed: "
                            f"{[(p['player'], p['kind']) for p in self.prompts()]}")

    def options(self, player: str) -> list[dict]:
        """The options of the first decision ``player`` owes now."""
        mine = self.prompts(player)
        return mine[0]["options"] if mine else []

    def abilities(self, player: str) -> list[str]:
        """The abilities offered to ``player`` in the window it is asked in now (none if not asked)."""
        mine = [p for p in self.prompts(player) if p["kind"] in WINDOW_KINDS]
        return [o["ability"] for o in mine[0]["options"] if o["action"] == "use"] if mine else []

    def propose(self, player: str, terms: dict) -> list[dict]:
        return self.answer(player, "deal", "propose", {"terms": terms})

    def accept(self, player: str, proposal: int) -> list[dict]:
        return self.answer(player, "deal", "accept", {"proposal": proposal})

    def give_up(self, player: str) -> list[dict]:
        return self.answer(player, "deal", "give_up")

    def place(self, player: str, tokens: dict) -> list[dict]:
        return self.answer(player, "place_tokens", "place", {"tokens": tokens})

    def lose(self, player: str, tokens: dict) -> list[dict]:
        return self.answer(player, "choose_losses", "lose", {"tokens": tokens})

    def rewards(self, player: str, cards: int, tokens: int) -> list[dict]:
        return self.answer(player, "rewards", "take", {"rewards": {"cards": cards, "tokens": tokens}})

    def end_turn(self) -> list[dict]:
        return self.answer(self.state["turn"]["offense"], "second_challenge", "end_turn")

    def challenge_again(self) -> list[dict]:
        return self.answer(self.state["turn"]["offense"], "second_challenge", "challenge_again")

    def punt(self) -> list[dict]:
        """The offense discards its hand, draws a new one and ends its turn (option ``punt``)."""
        return self.answer(self.state["turn"]["offense"], "punt", "punt")

    def take_turn(self) -> list[dict]:
        """The offense declines to punt and plays its turn (option ``punt``)."""
        return self.answer(self.state["turn"]["offense"], "punt", "play")

    def choose_defense(self, player: str) -> list[dict]:
        """After a wild or instructional destiny card, the offense names the defense."""
        return self.answer(self.state["turn"]["offense"], "choose_defense", "choose_defense", {"player": player})

    def draw_again(self) -> list[dict]:
        """Own colour drawn: draw another destiny card."""
        return self.answer(self.state["turn"]["offense"], "own_colour", "draw_again")

    def challenge_own_system(self, player: str) -> list[dict]:
        """Own colour drawn: challenge ``player``'s base in the offense's own system."""
        return self.answer(self.state["turn"]["offense"], "own_colour", "challenge_own_system", {"player": player})

    def reestablish(self, planet: str, tokens: dict) -> list[dict]:
        """Own colour drawn: place tokens on an empty home planet, re-establishing a base there."""
        return self.answer(self.state["turn"]["offense"], "own_colour", "reestablish",
                           {"planet": planet, "tokens": tokens})

    def give(self, player: str, cards: list[str]) -> list[dict]:
        """Deal terms: the giver picks the cards it owes."""
        return self.answer(player, "give_cards", "give", {"cards": cards})

    def take_base(self, player: str, tokens: dict) -> list[dict]:
        """Deal terms: the receiver of a base places its tokens there."""
        return self.answer(player, "take_base", "place", {"tokens": tokens})

    def timeout(self, prompt_id: str, at: int | None = None) -> list[dict]:
        """The workers' timer: apply the default of a decision whose deadline has passed."""
        self.clock = max(self.clock, at if at is not None else self.clock + 1000)
        command = {"action": "timeout", "prompt": prompt_id, "at": self.clock}
        events, self.state = execute(self.state, command)
        self.log += events
        self._note_asked()
        return events

    def play_defaults(self, until, limit: int = 5000) -> None:
        """Answer every decision with its default (as a timed-out player would) until ``until(self)`` holds."""
        import random

        rng = random.Random(f"defaults:{len(self.log)}")
        for _ in range(limit):
            if until(self) or self.state["status"] != "playing":
                return
            owed = self.prompts()[0]
            step = flow.current(self.state)
            command = flow.STEPS[step["op"]].default(self.state, step, owed, rng)
            self.command(owed["player"], command.pop("action"), command.pop("args"), prompt=owed["id"], **command)
        raise ScenarioError("the condition never held")

    def step_op(self) -> str | None:
        step = flow.current(self.state)
        return step["op"] if step else None


def kinds(card_ids) -> list[str]:
    """Card ids without their copy suffixes, sorted (``["A8.3", "C.1"]`` -> ``["A8", "C"]``): what a test stacked."""
    from engine.cards import card_kind_name

    return sorted(card_kind_name(c) for c in card_ids)


def terms(offense_gives: dict | None = None, defense_gives: dict | None = None,
          offense_base: str | None = None, defense_base: str | None = None) -> dict:
    """Deal terms: what each main player gives (``{"named": [...], "count": n}``) and who gets a base where."""
    blank = {"named": [], "count": 0}
    return {"cards": {"offense": {**blank, **(offense_gives or {})}, "defense": {**blank, **(defense_gives or {})}},
            "bases": {"offense": offense_base, "defense": defense_base}}
