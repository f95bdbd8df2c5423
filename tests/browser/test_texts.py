"""Cards and aliens readable: every card in a seat's hand is drawn as a card with its kind, its value or effect
and its full text from GET /catalogue?ruleset=<the game's edition>; every alien (one's own and the others')
as a sheet with its power text, timing, mandatory or optional, and its flare's Wild and Super; at the FFG
alien choice too. And every card of both editions' decks has its text when drawn."""

from __future__ import annotations

import pytest

from tests.browser.conftest import board_at

pytestmark = pytest.mark.browser

POWERS = {"red": ["Macron"], "blue": ["Laser"], "yellow": ["Mind"]}
HAND = ["A8", "C", "R+3", "CosmicZap", "Flare:Macron", "Flare:Laser", "Plague"]
SETUP = {"powers": POWERS, "first": "red", "hands": {"red": HAND}, "exact_hands": ["red"]}


def catalogued(catalogue: dict, card: str) -> dict:
    """What the catalogue says a card is: its name, its value, its text (a flare: its Wild and Super)."""
    base = card if card.startswith("Flare:") else card.split(".")[0]
    if base.startswith("Flare:"):
        power = next(p for p in catalogue["powers"] if p["name"] == base[6:])
        return {"texts": [catalogue["kinds"]["flare"], power["flares"]["wild"]["description"],
                          power["flares"]["super"]["description"]]}
    edict = next((e for e in catalogue["edicts"] if e["name"] == base), None)
    if edict:
        return {"texts": [edict["description"]]}
    listed = next(c for c in catalogue["cards"] if c["card"] == base)
    return {"name": listed["name"], "value": listed["value"], "texts": [listed["description"]]}


def visible_text(locator) -> str:
    return " ".join(locator.inner_text().split())


def check_sheet(sheet, power: dict) -> None:
    assert sheet.is_visible()
    text = visible_text(sheet)
    for part in (power["description"], power["timing"], "mandatory" if power["mandatory"] else "optional"):
        assert " ".join(part.split()) in text, (power["name"], part)
    for mode in ("wild", "super"):
        if mode in power["flares"]:
            shown = sheet.locator(f".flare-{mode}")
            assert shown.is_visible() and " ".join(power["flares"][mode]["description"].split()) in visible_text(shown)


def test_every_card_in_a_hand_and_every_alien_is_drawn_with_its_text(api, open_page, table_server):
    game, tokens = api.game(3, setup=SETUP, options={"flares": True, "edicts": True, "reinforcements": True},
                            seed="texts")
    catalogue = api.get("/catalogue?ruleset=mayfair")
    hand = api.get(f"/games/{game}/hand", tokens["red"])["cards"]
    assert len(hand) == len(HAND)
    page = open_page(f"{table_server}/table/#game={game}&token={tokens['red']}", width=390, height=844)
    page.wait_for_selector(board_at(api.get(f"/games/{game}")["version"]))
    page.wait_for_selector("#hand li.hand-card")
    assert page.eval_on_selector_all("#hand li.hand-card", "xs => xs.map(x => x.dataset.card)") == hand
    for card in hand:
        face = page.locator(f"#hand li.hand-card[data-card='{card}'] .card")
        assert face.is_visible()
        expected = catalogued(catalogue, card)
        text = visible_text(face)
        for part in expected["texts"]:
            assert " ".join(part.split()) in text, (card, part)
        if "name" in expected:
            assert face.locator(".card-name").inner_text() == expected["name"]
        if expected.get("value") is not None:
            assert str(expected["value"]) in face.locator(".card-value").inner_text()
        assert face.locator(".card-kind").inner_text().strip()
    for colour, powers in POWERS.items():
        sheets = page.locator(f"#sheets .player-sheets[data-player='{colour}'] .sheet")
        assert sheets.count() == len(powers)
        for name in powers:
            check_sheet(page.locator(f"#sheets .player-sheets[data-player='{colour}'] .sheet[data-power='{name}']"),
                        next(p for p in catalogue["powers"] if p["name"] == name))


def test_the_ffg_alien_choice_shows_both_aliens_sheets(api, open_page, table_server):
    game, tokens = api.game(3, ruleset="ffg", seed="texts-ffg")
    catalogue = api.get("/catalogue?ruleset=ffg")
    prompt = api.get(f"/games/{game}/prompts", tokens["red"])["prompts"][0]
    offered = prompt["options"][0]["args"]["power"]["values"]
    page = open_page(f"{table_server}/table/#game={game}&token={tokens['red']}", width=390, height=844)
    box = page.locator(f"fieldset[data-prompt='{prompt['id']}']")
    box.wait_for()
    for name in offered:
        check_sheet(box.locator(f".sheet[data-power='{name}']"), next(p for p in catalogue["powers"] if p["name"] == name))
        assert "ships" in visible_text(box) or "ship" in visible_text(box)  # the edition's words


DRAW_ALL = """async (ruleset) => {
    const {catalogueOf} = await import('/table/catalogue.js');
    const {cardFace} = await import('/table/cards.js');
    const catalogue = await catalogueOf(ruleset);
    const ids = [...catalogue.cards.map((c) => c.card), ...catalogue.edicts.map((e) => e.name),
                 ...catalogue.powers.filter((p) => Object.keys(p.flares).length).map((p) => `Flare:${p.name}`),
                 ...(ruleset === 'mayfair' ? ['War.1', 'Kx2.1', 'Kx-1'] : [])];
    const box = document.createElement('div');
    document.body.append(box);
    return ids.map((id) => {
        const face = cardFace(catalogue, id, catalogue.terms);
        box.append(face);
        const texts = [...face.querySelectorAll('.card-text, .flare-wild, .flare-super')].map((p) => p.innerText.trim());
        return [id, face.querySelector('.card-name').innerText, texts];
    });
}"""


@pytest.mark.parametrize("ruleset", ["mayfair", "ffg"])
def test_every_card_of_each_editions_deck_is_drawn_with_its_text(open_page, table_server, ruleset):
    page = open_page(f"{table_server}/table/")
    drawn = page.evaluate(DRAW_ALL, ruleset)
    assert len(drawn) > 40
    for card, name, texts in drawn:
        assert name and texts and all(len(t) > 20 for t in texts), (card, name, texts)
        if card.startswith("Flare:"):
            assert len(texts) == 3 and texts[1].startswith("Wild") and texts[2].startswith("Super"), (card, texts)
