"""The review of a table: refused while the game is on (it would show hidden dice), the
graded decisions once it is over."""

from __future__ import annotations

import json
import random
from typing import Any

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


def costly_game(client, anna: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """A finished heads-up round of liar's dice (a die each) in which someone's choice
    cost more than the solve's error: random play makes one within a few games."""
    for attempt in range(12):
        table = new_table(client, anna, "liars_dice", 2, [None, "bot:strong"],
                          preset="lognare", rules={"dice": 1})
        url = f"/api/tables/{table['id']}"
        client.post(f"{url}/start", json={"seed": "b2"}, headers=anna)
        if attempt == 0:
            early = client.get(f"{url}/review/try", params={"step": 1, "seat": 0})
            assert early.status_code == 400 and "not over" in early.json()["detail"]
        with client.websocket_connect(f"{url}/ws", headers=anna) as ws:
            play_by_websocket(ws, random.Random(attempt), Frames())
        data = client.get(f"{url}/review").json()
        if any(s["costliest"] for s in data["summaries"]):
            return url, data
    raise AssertionError("no costly decision in 12 games")


def test_trying_again_sets_up_the_seats_own_view_and_grades_the_new_choice(client) -> None:
    anna = guest(client, "Anna")
    url, data = costly_game(client, anna)
    log = client.get(f"{url}/log").json()
    moment = max((m for s in data["summaries"] for m in s["costliest"]),
                 key=lambda m: m["cost"])  # a decision that cost more than the solve's error
    step, seat = moment["index"], moment["seat"]
    seen = client.get(f"{url}/review/try", params={"step": step, "seat": seat})
    assert seen.status_code == 200, seen.text
    position = seen.json()
    assert position["seat"] == seat and moment["made"] in position["legal"]
    # the seat's own cup, and no other: the other seat's dice of that round stay hidden
    rolled = [e for e in log["events"][:step] if e["type"] == "roll"]
    assert position["view"]["your_dice"] == rolled[-1]["faces"][seat:seat + 1] or \
        len(rolled[-1]["faces"]) != 2
    assert set(position["view"]) >= {"your_dice", "dice_counts", "history"}
    assert "cups" not in json.dumps({k: v for k, v in position["view"].items()
                                     if k != "last_round"})
    tried = client.post(f"{url}/review/try", json={"step": step, "seat": seat,
                                                    "action": moment["best"]})
    assert tried.status_code == 200, tried.text
    best = tried.json()
    assert best["is_best"] and best["best"] == moment["best"] and best["unit"] == "dice"
    assert best["made"] == moment["made"] and best["made_cost"] == moment["cost"]
    assert best["said"][moment["best"]] == data["said"][moment["best"]]
    danish = client.post(f"{url}/review/try", json={"step": step, "seat": seat,
                                                     "action": moment["best"]},
                         headers={"Accept-Language": "da"}).json()["said"][moment["best"]]
    assert danish == "udfordr buddet" or danish == "bud " + moment["best"][4:].replace("x", "×")
    again = client.post(f"{url}/review/try", json={"step": step, "seat": seat,
                                                    "action": moment["made"]}).json()
    assert again["cost"] == moment["cost"] and not again["is_best"]
    # bad input: a clear refusal in the asker's language, and nothing changes
    swedish = {"Accept-Language": "sv"}
    for body, words in [({"step": step, "seat": seat, "action": "xyzzy"}, "xyzzy"),
                        ({"step": step, "seat": 1 - seat, "action": "dudo"}, "inget beslut"),
                        ({"step": "ett", "seat": seat, "action": "dudo"}, "steget"),
                        ({"step": step, "seat": seat}, "draget"),
                        (["dudo"], "skicka steget")]:
        refused = client.post(f"{url}/review/try", json=body, headers=swedish)
        assert refused.status_code == 400, (body, refused.text)
        assert words in refused.json()["detail"], refused.json()
    bad_seat = client.get(f"{url}/review/try", params={"step": step, "seat": "x"},
                          headers={"Accept-Language": "da"})
    assert bad_seat.status_code == 400 and "pladsen er et tal" in bad_seat.json()["detail"]
    assert client.get(f"{url}/log").json() == log
    assert client.get(f"{url}/review").json()["moments"] == data["moments"]
