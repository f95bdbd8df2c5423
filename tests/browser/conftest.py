"""Fixtures for the browser tests: the service on a real port, Debian's Chromium driven by Playwright.

``table_server``  the app (fakeredis, an embedded worker for bot seats) served by a threaded
                  werkzeug server on a free port for this module; streams are closed by the
                  server after ``SSE_SECONDS`` (so every page also has to reconnect).
``browser``       headless Chromium at /usr/bin/chromium (skipped, with the reason, when it is
                  not installed or Playwright is missing: `make test` installs it when it can).
``api``           a small JSON client of ``table_server`` (`Client`), to set games up and to
                  check what the pages show against what the API says.
``table_runtime`` the runtime behind it (to tamper with a stored event).
``shots``         the folder the screenshots go to (``artifacts/screenshots``).
"""

from __future__ import annotations

import threading
from pathlib import Path

import fakeredis
import pytest
import requests

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
ADMIN_TOKEN = "browser-admin-token"
SSE_SECONDS = 3.0
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")  # the seats' names, in seat order
RUNTIMES: dict = {}  # the runtime behind each test server's URL (for tests that tamper with the store)

pytestmark = pytest.mark.browser


class Client:
    """JSON over HTTP to the test server, with a token or none."""

    def __init__(self, base: str):
        self.base = base
        self.http = requests.Session()

    def call(self, method: str, path: str, token: str | None = None, **kw):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = self.http.request(method, self.base + path, headers=headers, timeout=30, **kw)
        return response

    def get(self, path: str, token: str | None = None) -> dict:
        response = self.call("GET", path, token)
        assert response.status_code == 200, response.text
        return response.json()

    def post(self, path: str, body: dict, token: str | None = None) -> dict:
        response = self.call("POST", path, token, json=body)
        assert response.status_code in (200, 201, 202), response.text
        return response.json()

    def event_seqs(self, game: str, token: str | None = None) -> list[int]:
        """The seq of every event the token may see, page after page."""
        seqs, after = [], 0
        while True:
            page = self.get(f"/games/{game}/events?after={after}&limit=1000", token)
            seqs += [e["seq"] for e in page["events"]]
            after = page["next_after"]
            if not page["more"]:
                return seqs

    def answer(self, game: str, token: str, seed: str = "answer") -> dict:
        """Answer the seat's first owed decision with a seeded random legal value (engine.shapes); the answer."""
        import random

        from engine.shapes import random_value
        rng = random.Random(seed)
        prompt = self.get(f"/games/{game}/prompts", token)["prompts"][0]
        option = prompt["options"][0]
        body = {"action": option["action"], "prompt": prompt["id"],
                "args": {k: random_value(shape, rng) for k, shape in option["args"].items()},
                **{k: v for k, v in option.items() if k not in ("action", "args", "rule", "label", "info")}}
        body["args"] = {k: v for k, v in body["args"].items() if v is not None}
        return self.post(f"/games/{game}/actions", body, token)

    def game(self, seats: int, *, setup: dict | None = None, options: dict | None = None, seed: str = "browser",
             bots: dict | None = None, start: bool = True, ruleset: str = "mayfair") -> tuple[str, dict]:
        """A game created as the admin (a seed, maybe a stacked setup), its seats taken; {colour: token}."""
        body = {"seats": seats, "seed": seed, "options": options or {}, "ruleset": ruleset}
        if setup:
            body["setup"] = setup
        game = self.post("/games", body, ADMIN_TOKEN)["id"]
        tokens = {}
        for k in range(seats):
            bot = (bots or {}).get(k)
            seat = self.post(f"/games/{game}/players", {"name": NAMES[k], **({"bot": bot} if bot else {})},
                             ADMIN_TOKEN if bot else None)  # bots are the host's or the admin's to seat
            tokens[seat["player"]] = seat["token"]
        if start:
            self.post(f"/games/{game}/start", {}, ADMIN_TOKEN)
        return game, tokens


@pytest.fixture(scope="module")
def table_server():
    """The whole service on 127.0.0.1:<free port>, for one test module."""
    from werkzeug.serving import make_server

    from app import create_app
    from workers import runtime as runtime_module
    from workers.embedded import EmbeddedWorker
    from workers.runtime import Runtime
    from workers.settings import LIMIT_FIELDS, Settings
    roomy = {name: "100000 per minute" for name in LIMIT_FIELDS}  # these tests are not about rate limits
    settings = Settings(admin_token=ADMIN_TOKEN, prefix="browser", sse_keepalive=0.5, sse_max_seconds=SSE_SECONDS,
                        **roomy)
    runtime = Runtime(settings, redis_client=fakeredis.FakeRedis(server=fakeredis.FakeServer()))
    runtime_module.install(runtime)
    worker = EmbeddedWorker(runtime).start()
    server = make_server("127.0.0.1", 0, create_app(runtime), threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="table-server", daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_port}"
    RUNTIMES[url] = runtime
    try:
        yield url
    finally:
        RUNTIMES.pop(url, None)
        server.shutdown()
        server.server_close()
        worker.stop()
        runtime_module.install(None)


@pytest.fixture
def table_runtime(table_server):
    """The runtime behind ``table_server`` (for tests that tamper with the store)."""
    return RUNTIMES[table_server]


@pytest.fixture(scope="module")
def api(table_server) -> Client:
    return Client(table_server)


@pytest.fixture(scope="session")
def browser():
    """Headless Debian Chromium, or a skip saying why there is none."""
    if not CHROMIUM.exists():
        pytest.skip("no browser: /usr/bin/chromium is not installed (make test installs it with apt-get as root)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("no browser driver: the playwright package is not installed (pip install -e '.[test]')")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def open_page(browser):
    """open_page(url, width=1100, height=900): a page in a fresh context (its own storage); closed afterwards.
    Errors the page's scripts throw fail the test."""
    contexts, errors = [], []

    def opener(url: str, width: int = 1100, height: int = 900):
        context = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        return page

    yield opener
    for context in contexts:
        context.close()
    assert not errors, f"errors in the page's scripts: {errors}"


@pytest.fixture(scope="session")
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


def board_at(version, root: str = "#board") -> str:
    """The selector of the board drawn at ``version``."""
    return f"{root} .board[data-version='{version}']"


def drawn_board(page, root: str = "#board") -> dict:
    """What the page drew: tokens per planet, the warp, the version, the cone (from its data attributes)."""
    return page.evaluate("""(root) => {
        const box = document.querySelector(root);
        const drawn = box.querySelector('.board');
        const planets = {};
        for (const g of box.querySelectorAll('.planet[data-planet]')) planets[g.dataset.planet] = g.dataset.tokens;
        const cone = box.querySelector('.cone');
        const decks = box.querySelector('.decks');
        return {version: Number(drawn.dataset.version), planets,
                warp: (box.querySelector('.warp') || {dataset: {}}).dataset.warp ?? null,
                cone: cone ? {target: cone.dataset.coneTarget, offense: cone.dataset.coneOffense,
                              defense: cone.dataset.coneDefense} : null,
                decks: decks ? {deck: Number(decks.dataset.deck), discard: Number(decks.dataset.discard),
                                destiny: Number(decks.dataset.destiny),
                                destiny_discard: Number(decks.dataset.destinyDiscard)} : null};
    }""", root)


def counts_text(counts: dict) -> str:
    """The page's way of writing token counts (dom.js `countsText`)."""
    return ",".join(f"{c}:{n}" for c, n in sorted((counts or {}).items()) if n)


def expected_board(board: dict) -> dict:
    """The same facts, from the API's board."""
    ch = board.get("challenge") or {}
    cone = None
    if ch.get("planet"):
        cone = {"target": ch["planet"], "offense": counts_text(board["cone"]["offense"]),
                "defense": counts_text(board["cone"]["defense"])}
    return {"version": board["version"], "planets": {p: counts_text(t) for p, t in board["planets"].items()},
            "warp": counts_text(board["warp"]), "cone": cone,
            "decks": {"deck": board["decks"]["deck"], "discard": len(board["discard"]),
                      "destiny": board["decks"]["destiny"], "destiny_discard": len(board["destiny_discard"])}}


MEASURE = """() => {
    const shown = (el) => {
        if (!el || !el.getClientRects().length) return false;
        const style = getComputedStyle(el);
        return style.visibility !== 'hidden' && style.display !== 'none' && Number(style.opacity) !== 0;
    };
    const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
        (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '') +
        ' "' + (el.textContent || el.value || '').trim().slice(0, 30) + '"';
    const out = {scroll_width: document.documentElement.scrollWidth, width: window.innerWidth,
                 scale: window.visualViewport ? window.visualViewport.scale : 1, small_text: [], small_taps: [],
                 texts: 0, taps: 0};
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const node = walker.currentNode;
        if (!node.textContent.trim()) continue;
        const el = node.parentElement;
        if (!shown(el)) continue;
        out.texts += 1;
        const size = parseFloat(getComputedStyle(el).fontSize);
        if (size < 12) out.small_text.push(name(el) + ' ' + size + 'px');
    }
    const targets = 'a[href], button, select, textarea, input, summary, [role="button"], label';
    for (const el of document.querySelectorAll(targets)) {
        if (el.matches('label') && !el.querySelector('input, select, textarea')) continue;  // its field is measured
        let target = el;
        if (el.matches('input[type="radio"], input[type="checkbox"]')) target = el.closest('label') || el;
        if (!shown(target)) continue;
        out.taps += 1;
        const r = target.getBoundingClientRect();
        if (r.width < 44 || r.height < 44) out.small_taps.push(`${name(target)} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
    return out;
}"""


def measured(page) -> dict:
    """What a phone user meets on the page, from the DOM: the page's width against the screen's, every visible
    text's size (no text is scaled: there is no zoom and no SVG), every tap target's size (a radio button or a
    check box is tapped through its label)."""
    return page.evaluate(MEASURE)


def overlaps(page, selector: str) -> list:
    """Pairs of elements matching ``selector`` whose boxes overlap (by more than a pixel)."""
    return page.evaluate("""(selector) => {
        const boxes = [...document.querySelectorAll(selector)].map((el) => [el.dataset.planet || el.dataset.owner || '',
                                                                            el.getBoundingClientRect()]);
        const found = [];
        for (let i = 0; i < boxes.length; i += 1) for (let j = i + 1; j < boxes.length; j += 1) {
            const [a, r] = boxes[i], [b, q] = boxes[j];
            const x = Math.min(r.right, q.right) - Math.max(r.left, q.left);
            const y = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
            if (x > 1 && y > 1) found.push([a, b]);
        }
        return found;
    }""", selector)
