"""A person at the table, for the browser tests: answers whatever the page asks by tapping its controls.

`answer_on_page` reads the seat's owed decision from the API (what a player reads on the page), picks a
legal answer (a pass in a timing window, the strongest Attack, a full gate, a random legal value otherwise),
and makes it by tapping: planets on the board, cards, radio buttons, steppers, the option's button. Nothing
is sent to the API by the test itself.
"""

from __future__ import annotations

import random

from engine.shapes import random_value


def seat_a_person_and_bots(page, name: str, bot: str, count: int) -> None:
    """In the lobby's seats of a game: take a seat as ``name``, then add ``count`` bots of kind ``bot``."""
    page.fill("#seat-name", name)
    page.click("#take-seat")
    page.wait_for_selector("#seat-form li a.seat-link")
    for seated in range(2, count + 2):
        page.select_option("#seat-bot", bot)
        page.click("#add-bot")
        page.wait_for_function("(n) => document.querySelectorAll('#seat-form li[data-colour]').length === n",
                               arg=seated)


QUIET = ("pass", "decline", "give_up", "end_turn", "keep", "refuse")


def choose_option(prompt: dict) -> dict:
    """The option a quick player picks: pass or decline when offered (a game of few detours), else the first."""
    options = prompt["options"]
    if prompt["kind"] == "deal":
        return next((o for o in options if o["action"] != "propose"), options[0])
    for action in QUIET:
        found = next((o for o in options if o["action"] == action), None)
        if found is not None and prompt["kind"] in ("window", "response", "reaction", "alliance", "card_offer",
                                                     "second_challenge", "punt"):
            return found
    return options[0]


def choose_args(prompt: dict, option: dict, rng: random.Random) -> dict:
    """A legal value for each argument: the most ships, the strongest Attack, a random pick otherwise."""
    args = {}
    for name, shape in (option.get("args") or {}).items():
        if shape["type"] == "distribution" and prompt["kind"] == "launch":
            left, value = shape["max"], {}
            for key, cap in shape["sources"].items():
                take = min(cap, left)
                if take:
                    value[key] = take
                    left -= take
            args[name] = value
        elif shape["type"] == "choice" and prompt["kind"] == "challenge_card":
            attacks = [v for v in shape["values"] if isinstance(v, str) and v.startswith("A") and v[1:].split(".")[0].isdigit()]
            args[name] = max(attacks, key=lambda v: int(v[1:].split(".")[0])) if attacks else shape["values"][0]
        elif shape["type"] == "free":
            args[name] = None
        else:
            args[name] = random_value({**shape, "optional": False}, rng) if not shape.get("optional") else None
    return args


def realise(page, prompt: dict, option: dict, args: dict) -> None:
    """Tap the page's controls into ``args`` and press the option's button."""
    box = page.locator(f"fieldset[data-prompt='{prompt['id']}']")
    selector = f".option[data-action='{option['action']}']"
    if option.get("side"):
        selector += f"[data-side='{option['side']}']"
    if option.get("ability"):
        selector += f"[data-ability='{option['ability']}']"
    node = box.locator(selector).first
    shapes = (option.get("args") or {}).values()
    chosen = {v for s in shapes if s["type"] == "choice" for v in s["values"]}
    sources = {k for s in shapes if s["type"] == "distribution" for k in s["sources"]}
    on_board = len(box.locator(".option").all()) == 1  # a planet tapped on the board goes to this option's controls
    for name, value in args.items():
        shape = option["args"][name]
        arg = node.locator(f"[data-arg='{name}']")
        if value is None:
            continue
        if shape["type"] == "choice":
            board = on_board and value not in sources
            tap(page, value, board, lambda v=value, a=arg: a.locator(f"label.pick[data-value='{v}']").click())
            assert arg.locator(f"label.pick[data-value='{value}'] input").is_checked()
        elif shape["type"] == "subset":
            for v in value:
                arg.locator(f"label.pick[data-value='{v}']").click()
        elif shape["type"] == "count":
            for _ in range(value - shape["min"]):
                arg.locator("button.more").click()
        elif shape["type"] == "distribution":
            for source, n in value.items():
                stepped = arg.locator(f"[data-source='{source}'] output.n")
                for k in range(n):
                    board = on_board and source not in chosen
                    tap(page, source, board, lambda a=arg, src=source: a.locator(f"[data-source='{src}'] button.more").click())
                    assert int(stepped.inner_text()) == k + 1
        elif shape["type"] == "sequence":
            for v in value:
                arg.locator(f"button.add[data-value='{v}']").first.click()
    node.locator("button.do").click()


def tap(page, value, board: bool, otherwise) -> None:
    """A planet is tapped on the board when the board offers it; anything else on its own control."""
    planet = page.locator(f"#board button.planet[data-planet='{value}']")
    if board and planet.count():
        planet.click()
    else:
        otherwise()


def answer_on_page(page, api, game: str, token: str, rng: random.Random) -> dict | None:
    """Make the seat's first owed decision on its page; the prompt answered (None when nothing is owed)."""
    prompts = api.get(f"/games/{game}/prompts", token)["prompts"]
    if not prompts:
        return None
    prompt = prompts[0]
    page.wait_for_selector(f"fieldset[data-prompt='{prompt['id']}']", timeout=15000)
    option = choose_option(prompt)
    realise(page, prompt, option, choose_args(prompt, option, rng))
    return prompt
