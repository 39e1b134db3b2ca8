"""The pages without a browser: language choice, the score keeper's derivation, errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kastkopp.server.app import create_app
from kastkopp.server.languages import negotiate
from kastkopp.server.pages import UI, game_words, ui_strings
from kastkopp.sheets import kinds


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path / "kastkopp.db"))) as test_client:
        yield test_client


def test_the_language_is_the_first_of_ours_the_browser_asks_for() -> None:
    assert negotiate("sv-SE,sv;q=0.9,en;q=0.5") == "sv"
    assert negotiate("de;q=1.0,da;q=0.8,sv;q=0.7") == "da"
    assert negotiate("nb-NO") == "da"
    assert negotiate("") == "en"


def test_every_word_of_the_scripts_is_translated_in_swedish_and_danish() -> None:
    for lang in ("sv", "da"):
        words = ui_strings(lang)
        # the scripts' texts, and each game's own (Game.page_words): the Yatzy sheets' rows
        # as each sheet names them, Linka's table told
        assert set(words) == set(UI) | set(game_words(lang))
        assert words["row:maxi:three-kind"] == {"sv": "Tretal", "da": "Tre ens"}[lang]
        assert words["The linka dice: {a} and {b} (sum {s})"] == {
            "sv": "Linkatärningarna: {a} och {b} (summa {s})",
            "da": "Linkaterningerne: {a} og {b} (sum {s})"}[lang]
        # the same in every language: names, a word, a sign
        same = {"Bonus", "Slosch", "palifico", "{n} × {face}"}
        if lang == "sv":
            same.add("Hand")
        assert {w for w in UI if words[w] == w} <= same


def test_pages_follow_accept_language_and_a_chosen_language_is_remembered(
        client: TestClient) -> None:
    assert "Tärningsspel från Skandinavien" in client.get(
        "/", headers={"Accept-Language": "sv"}).text
    response = client.get("/lobby?lang=da")
    assert "Opret bordet" in response.text
    keeper = client.get("/keep", headers={"Accept-Language": "sv"}).text
    assert '<html lang="da">' in keeper and "Ny blok" in keeper


def test_the_score_keeper_derives_seed_003_from_its_entries(client: TestClient) -> None:
    cells = ["0 1 0", "1 0 0", "0 1 0", "0 0 1", "-1 0 0", "0 1 0", "0 0 1", "0 1 0",
             "0 1 0", "0 - 1", "1 - 0", "0 - 1", "0 - 1"]
    response = client.post("/api/sheets/derive", json={
        "game": "liars_dice", "players": ["Anna", "Ben", "Cara"], "entries": cells})
    assert response.status_code == 200
    sheet = response.json()
    assert {p["name"]: (p["place"], p["dice"]) for p in sheet["players"]} == \
        {"Anna": (1, 4), "Cara": (2, 0), "Ben": (3, 0)}
    assert sheet["winner"] == "Anna"


def test_a_sheet_entry_that_cannot_be_is_refused_naming_it_and_why(client: TestClient) -> None:
    response = client.post("/api/sheets/derive", json={
        "game": "liars_dice", "players": ["Anna", "Ben"], "entries": ["loss Ben", "loss Zed"]})
    assert response.status_code == 400
    assert response.json()["detail"].startswith("entry 2 (loss Zed): 'Zed' is not a player")


@pytest.mark.parametrize(("lang", "heading", "said"), [
    ("en", "Not found", "There is no table &#39;nosuchtable&#39;."),
    ("sv", "Hittades inte", "nosuchtable"), ("da", "Ikke fundet", "nosuchtable")])
def test_a_table_that_does_not_exist_is_a_page_with_a_404(
        client: TestClient, lang: str, heading: str, said: str) -> None:
    for path in ("/play/nosuchtable", "/replay/nosuchtable", "/review/nosuchtable"):
        response = client.get(f"{path}?lang={lang}")
        assert response.status_code == 404, path
        assert response.headers["content-type"].startswith("text/html")
        assert f"<h1>{heading}</h1>" in response.text and said in response.text
        assert 'href="/lobby" id="to-lobby"' in response.text
    # the API's answer stays JSON, for programs
    answer = client.get("/api/tables/nosuchtable")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"


def test_the_service_worker_is_served_from_the_root(client: TestClient) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert "javascript" in response.headers["content-type"]
    assert "/keep" in response.text
    # it keeps the stand-in every sheet kind names, and the keeper's page imports the same
    named = [f"/static/{kind.stand_in}" for kind in kinds().values() if kind.stand_in]
    assert named and f"const STAND_INS = {json.dumps(named)};" in response.text
    for path in named:
        assert client.get(path).status_code == 200
    keeper = client.get("/keep").text
    assert all(json.dumps(path) in keeper for path in named)


def test_the_new_controls_speak_the_page_language(client: TestClient) -> None:
    assert "Tips från rådgivaren" in client.get("/lobby?lang=sv").text
    keeper = client.get("/keep?lang=da").text
    assert "Dine blokke" in keeper and "Gemmes i denne browser" in keeper
    assert ui_strings("sv")["Saved in your account"] == "Sparat i ditt konto"
