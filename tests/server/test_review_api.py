"""The review of a table: refused while the game is on (it would show hidden dice), the
graded decisions once it is over."""

from __future__ import annotations

import random

from servertools import Frames, guest, new_table, play_by_websocket


def test_the_review_opens_when_the_game_is_over(client) -> None:
    anna = guest(client, "Anna")
    table = new_table(client, anna, "mia", 2, [None, "bot:sensible"])
    url = f"/api/tables/{table['id']}"
    client.post(f"{url}/start", json={"seed": "a1"}, headers=anna)
    early = client.get(f"{url}/review")
    assert early.status_code == 400
    assert early.json()["detail"] == "the game is not over; a review would show hidden dice"
    swedish = client.get(f"{url}/review", headers={"Accept-Language": "sv"})
    assert swedish.status_code == 400 and "inte slut" in swedish.json()["detail"]
    assert "your_dice" not in early.text and "faces" not in early.text
    with client.websocket_connect(f"{url}/ws", headers=anna) as ws:
        play_by_websocket(ws, random.Random(3), Frames())
    review = client.get(f"{url}/review")
    assert review.status_code == 200
    data = review.json()
    assert data["table"] == table["id"] and data["unit"] == "lives"
    log = client.get(f"{url}/log").json()
    decisions = [m for m in data["moments"] if m["kind"] == "decision"]
    actions = [i for i, e in enumerate(log["events"]) if e["type"] == "action"]
    assert [m["index"] for m in decisions] == actions
    assert sum(s["decisions"] for s in data["summaries"]) == len(actions)
    page = client.get(f"/review/{table['id']}")
    assert page.status_code == 200 and "/static/review.js" in page.text
