"""15.23: one way of paging every list: ``limit`` and ``after`` (a cursor) in, ``limit``, ``next_after``, ``more`` out."""

from __future__ import annotations

import pytest

from tests.app.conftest import ADMIN, problem_type
from workers.webhooks import subscriptions

LISTS = {("/games", "listGames"), ("/games/{game_id}/events", "getEvents"), ("/webhooks", "listWebhooks"),
         ("/webhooks/{sub_id}/deliveries", "webhookDeliveries"), ("/me/games", "myGames")}


def all_pages(client, path: str, key: str, limit: int, headers=None, **params) -> list[list[str]]:
    """Every page of a list, each as the ids (or names) of its items."""
    pages, after = [], None
    while True:
        query = {"limit": limit, **params, **({"after": after} if after is not None else {})}
        page = client.get(path, query_string=query, headers=headers or {}).json
        assert page["limit"] == limit
        pages.append([item.get("id") or item.get("delivery") or item.get("seq") for item in page[key]])
        if key == "events":
            assert [e["seq"] for e in page[key]] == sorted(e["seq"] for e in page[key])
        after = page["next_after"]
        if not page["more"]:
            return pages


def test_every_list_in_the_spec_pages_the_same_way(spec):
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method != "get":
                continue
            names = {p.get("name") or p["$ref"].rsplit("/", 1)[-1] for p in operation.get("parameters", [])}
            is_list = (path, operation["operationId"]) in LISTS
            assert ("limit" in names) == is_list, path
            if not is_list:
                continue
            assert "after" in names, path
            schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
            for ref in [s["$ref"] for s in schema.get("oneOf", [schema])]:  # the events' full and compact pages
                page = spec["components"]["schemas"][ref.rsplit("/", 1)[-1]]
                assert {"limit", "next_after", "more"} <= set(page["required"]), (path, ref)


def newest_first(client, made: list[str]) -> list[str]:
    """The order the game list promises for games made one after another: newest first, and by id among games
    created in the same millisecond (a fast engine creates several in one)."""
    created = {g["id"]: g["created"] for g in client.get("/games", query_string={"limit": 100}).json["games"]}
    assert [created[g] for g in made] == sorted(created[g] for g in made)  # each made after the one before
    return sorted(made, key=lambda game_id: (-created[game_id], game_id))


def test_the_game_list_pages_with_a_cursor_that_new_games_do_not_shift(client):
    made = [client.post("/games", json={"seats": 2}).json["id"] for _ in range(7)]
    expected = newest_first(client, made)
    pages = all_pages(client, "/games", "games", 3)
    assert [len(p) for p in pages] == [3, 3, 1]
    assert sum(pages, []) == expected  # newest first, each once
    first = client.get("/games", query_string={"limit": 3}).json
    newer = client.post("/games", json={"seats": 2}).json["id"]  # created between two pages
    second = client.get("/games", query_string={"limit": 3, "after": first["next_after"]}).json
    assert [g["id"] for g in second["games"]] == expected[3:6] and newer not in [g["id"] for g in second["games"]]


def test_offset_still_pages_the_game_list_but_not_together_with_a_cursor(client):
    made = [client.post("/games", json={"seats": 2}).json["id"] for _ in range(3)]
    page = client.get("/games", query_string={"limit": 2, "offset": 1}).json
    assert [g["id"] for g in page["games"]] == newest_first(client, made)[1:]
    assert page["offset"] == 1 and page["more"] is False
    cursor = client.get("/games", query_string={"limit": 1}).json["next_after"]
    both = client.get("/games", query_string={"after": cursor, "offset": 1})
    assert both.status_code == 400 and problem_type(both) == "invalid-request"
    assert "offset" in both.json["errors"]


@pytest.mark.parametrize("path", ["/games?after=12", "/games?after=x.y.z", "/webhooks?after=wh_1",
                                  "/games/g1/events?after=abc"])
def test_a_cursor_that_is_not_one_of_the_list_is_a_400(client, path):
    answer = client.get(path, headers=ADMIN)
    assert answer.status_code in (400, 404)
    if answer.status_code == 400:
        assert "after" in answer.json.get("errors", {})


def test_the_log_pages_by_event_number(client, api_game):
    game = api_game(seats=3, seed="pages", moves=20)
    pages = all_pages(client, game.url("/events"), "events", 7)
    seqs = [e["seq"] for e in client.get(game.url("/events"), query_string={"limit": 1000}).json["events"]]
    assert sum(pages, []) == seqs and all(len(p) <= 7 for p in pages)  # (a page leaves out bookkeeping events)
    last = client.get(game.url("/events"), query_string={"after": seqs[-1]}).json
    # past the last event shown there may only be bookkeeping (a Bookmark), which the cursor steps over
    assert last["events"] == [] and last["more"] is False
    assert seqs[-1] <= last["next_after"] == last["version"]


def test_webhooks_and_their_deliveries_page_the_same_way(client, runtime, api_game):
    game = api_game(seats=2, seed="pages-hooks")
    made = [client.post("/webhooks", json={"url": f"https://example.com/{k}", "game_id": game.id},
                        headers=ADMIN).json["id"] for k in range(5)]
    assert sum(all_pages(client, "/webhooks", "webhooks", 2, ADMIN), []) == made  # oldest first
    subs = subscriptions(runtime)
    for k in range(5):
        subs.record(made[0], {"delivery": f"d{k}", "game_id": game.id, "seq": k + 1, "event_type": "GameCreated",
                              "attempt": 1, "status_code": 200, "ok": True, "error": None, "at": k, "duration_ms": 1})
    pages = all_pages(client, f"/webhooks/{made[0]}/deliveries", "deliveries", 2, ADMIN)
    assert pages == [["d4", "d3"], ["d2", "d1"], ["d0"]]  # newest first
