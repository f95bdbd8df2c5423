"""Every option shape becomes controls, and what the clicks make is what the engine accepts.

The page's prompt module (app/table/prompts.js) draws a prompt whose one option takes an argument
of every shape (engine/shapes.py); the test clicks them as a player would and checks the answer
the page would send against `engine.shapes.check`, the same check a command meets on the server.
The deal terms (the free shape) are clicked in a real game in test_play.py.
"""

from __future__ import annotations

import pytest

from engine.shapes import check

pytestmark = pytest.mark.browser

ARGS = {"pick": {"type": "choice", "values": ["a", "b"]},
        "maybe": {"type": "choice", "values": [1, 2], "optional": True},
        "some": {"type": "subset", "values": ["x", "y", "z"], "min": 1, "max": 2},
        "n": {"type": "count", "min": 2, "max": 4},
        "spread": {"type": "distribution", "sources": {"red-1": 2, "red-2": 1}, "min": 1, "max": 3},
        "order": {"type": "sequence", "values": ["A5", "C"], "min": 1, "max": 3}}
PROMPT = {"id": "test.1.red", "kind": "test", "title": "Every shape", "player": "red", "rule": "0",
          "options": [{"action": "go", "ability": "power:Test", "args": ARGS, "rule": "0", "label": "go ahead"},
                      {"action": "pass", "args": {}, "rule": "0"}]}
DRAW = """async (prompt) => {
    const {drawPrompts} = await import('/table/prompts.js');
    window.sent = [];
    const box = document.createElement('div');
    box.id = 'shapes';
    box.append(...drawPrompts([prompt], {board: {}, hand: [], player: 'red',
                                         showError: (message) => window.sent.push({error: message})},
                              (body) => window.sent.push(body)).nodes);
    document.body.append(box);
}"""


def test_every_shape_is_clickable_and_makes_an_answer_the_engine_accepts(open_page, table_server):
    page = open_page(f"{table_server}/table/")
    page.evaluate(DRAW, PROMPT)
    option = page.locator("#shapes .option[data-action='go']")
    option.locator("button.do").click()  # nothing chosen yet: the page says what is missing
    assert page.evaluate("() => window.sent") == [{"error": "choose pick"}]

    option.locator("[data-arg='pick'] label.pick[data-value='b']").click()
    option.locator("[data-arg='some'] label.pick[data-value='x']").click()
    option.locator("[data-arg='some'] label.pick[data-value='z']").click()
    for _ in range(3):  # from 2, capped at 4
        option.locator("[data-arg='n'] button.more").click()
    for source, clicks in (("red-1", 3), ("red-2", 1)):  # red-1 capped at 2
        for _ in range(clicks):
            option.locator(f"[data-arg='spread'] [data-source='{source}'] button.more").click()
    for value in ("C", "A5", "C", "A5"):  # the fourth is one too many: not taken
        option.locator(f"[data-arg='order'] button.add[data-value='{value}']").click()
    assert option.locator("[data-arg='spread'] output.total").inner_text() == "3"
    option.locator("button.do").click()
    sent = page.evaluate("() => window.sent")[-1]
    assert sent == {"action": "go", "ability": "power:Test", "prompt": "test.1.red",
                    "args": {"pick": "b", "some": ["x", "z"], "n": 4, "spread": {"red-1": 2, "red-2": 1},
                             "order": ["C", "A5", "C"]}}
    for name, shape in ARGS.items():
        check(shape, sent["args"].get(name), name, "0")  # each value is legal for its shape

    page.locator("#shapes .option[data-action='pass'] button.do").click()
    assert page.evaluate("() => window.sent")[-1] == {"action": "pass", "args": {}, "prompt": "test.1.red"}


TWINS = {"id": "alliance.4.yellow", "kind": "alliance", "title": "Join a side as an ally, or decline",
         "player": "yellow", "rule": "4.6",
         "options": [{"action": "join", "side": "offense", "label": "join", "rule": "4.6",
                      "args": {"tokens": {"type": "distribution", "sources": {"yellow-1": 4}, "min": 1, "max": 4}}},
                     {"action": "join", "side": "defense", "label": "join", "rule": "4.6",
                      "args": {"tokens": {"type": "distribution", "sources": {"yellow-1": 4}, "min": 1, "max": 4}}},
                     {"action": "decline", "rule": "4.6", "args": {}}]}


def test_two_options_with_the_same_label_are_told_apart(open_page, table_server):
    page = open_page(f"{table_server}/table/")
    page.evaluate(DRAW, TWINS)
    buttons = page.eval_on_selector_all("#shapes button.do", "bs => bs.map(b => b.textContent)")
    assert buttons == ["join (offense)", "join (defense)", "decline"]
    page.locator("#shapes .option[data-side='defense'] button.more").click()
    page.locator("#shapes .option[data-side='defense'] button.do").click()
    assert page.evaluate("() => window.sent")[-1] == {"action": "join", "side": "defense", "prompt": TWINS["id"],
                                                      "args": {"tokens": {"yellow-1": 1}}}
