"""Issue 28 item 10: the table keeps to its own origin and no other origin can frame it.

Its pages run under their Content-Security-Policy (app/routes/table.py) without a single
violation; a page of another origin that frames /table/ gets an empty frame, never the table.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

pytestmark = pytest.mark.browser

WATCH = """window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective));"""


def test_the_lobby_and_a_seats_table_run_without_a_policy_violation(api, browser, table_server):
    game, tokens = api.game(3, seed="framing")
    colour, token = next(iter(tokens.items()))
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        page = context.new_page()
        page.add_init_script(WATCH)
        for url in (f"{table_server}/table/", f"{table_server}/table/#game={game}&token={token}"):
            page.goto(url)
            page.wait_for_selector("body[data-ready='1']")
            if "#game=" in url:
                page.wait_for_selector("#board .board[data-version]")
            assert page.evaluate("window.__violations") == [], url
    finally:
        context.close()


@pytest.fixture
def other_origin(table_server):
    """A page on another port (another origin) that frames the table."""
    framing = f'<!doctype html><iframe id="f" src="{table_server}/table/" width="600" height="400"></iframe>'.encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(framing)))
            self.end_headers()
            self.wfile.write(framing)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://localhost:{server.server_port}/"
    server.shutdown()
    server.server_close()


def test_another_origin_cannot_frame_the_table(browser, other_origin):
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(other_origin)
        page.wait_for_timeout(1500)  # the frame's load (refused) has had its chance
        framed = [f for f in page.frames if f != page.main_frame]
        assert framed, "the framing page has its frame"
        # the refused frame is an error page: the table's shell (its header, its lobby) never appears in it
        assert framed[0].locator("#lobby-view").count() == 0
    finally:
        context.close()
