"""The score keeper's server side: house rules chosen with a sheet, checked in the player's
language; the offline table of every Yatzy-family rule set, equal to the sheets' scoring;
the grid, the rule choices and the help in Swedish and Danish."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kastkopp.dice import multisets
from kastkopp.games.liars_dice import LiarsRules
from kastkopp.games.yatzy import YatzyRules, parse_row, score
from kastkopp.server import keeper
from kastkopp.server.app import create_app
from kastkopp.sheets import kinds
from kastkopp.sheets.yatzy import can_miss, possible_points, scores_table

# Every preset, and rule sets that change what a throw scores or how a row is read.
RULE_SETS = [*({"preset": p} for p in YatzyRules.PRESETS),
             {"preset": "yahtzee", "joker_choice": True},
             {"preset": "yahtzee", "first_throw_double": True},
             {"preset": "terningspoker", "lang": "da"},
             {"preset": None, "kinds": "all", "full_house": 25, "upper": "three"}]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path / "kastkopp.db"))) as test_client:
        yield test_client


def rules_of(rule_set: dict[str, object]) -> YatzyRules:
    changed = {k: v for k, v in rule_set.items() if k != "preset"}
    preset = rule_set["preset"]
    return YatzyRules.make(preset if isinstance(preset, str) else None, **changed)


@pytest.mark.parametrize("rule_set", RULE_SETS, ids=str)
def test_the_published_table_is_the_sheets_own_scoring_of_every_throw(
        rule_set: dict[str, object]) -> None:
    rules = rules_of(rule_set)
    table = scores_table(rules)
    throws = [dice for dice, _ in multisets(rules.dice)]
    assert len(table["throws"]) == {5: 252, 6: 462}[rules.dice]
    assert table["throws"] == ["".join(map(str, d)) for d in throws]
    ways = {"plain": (False, False), "first": (True, False), "joker": (False, True),
            "first joker": (True, True)}
    expected = {"plain"} | ({"first"} if rules.first_throw_double else set()) \
        | ({"joker"} if rules.joker else set()) \
        | ({"first joker"} if rules.joker and rules.first_throw_double else set())
    assert set(table["scores"]) == expected
    for way, by_row in table["scores"].items():
        first, joker = ways[way]
        assert list(by_row) == list(rules.rows)
        for row, points in by_row.items():
            assert points == [score(row, d, rules, first, joker) for d in throws], (way, row)
    for row in rules.rows:
        assert table["possible"][row] == sorted(possible_points(row, rules))
        assert (row in table["miss"]) == can_miss(row, rules)
    for name, row in table["names"].items():
        assert parse_row(name, rules) == row


def test_the_offline_table_is_served_per_rule_set_cacheable_and_refused_in_the_language(
        client: TestClient) -> None:
    maxi = client.get("/api/sheets/offline/yatzy?preset=maxi")
    assert maxi.status_code == 200 and "max-age" in maxi.headers["cache-control"]
    assert maxi.json() == scores_table(YatzyRules.make("maxi"))
    changed = client.get("/api/sheets/offline/yatzy?preset=yatzy&bonus=40&order=parts")
    assert changed.json()["rules"]["bonus"] == 40
    bad = client.get("/api/sheets/offline/yatzy?bonus=lots&lang=sv")
    assert bad.status_code == 400 and "lots" in bad.json()["detail"]
    assert bad.json()["detail"] != client.get("/api/sheets/offline/yatzy?bonus=lots").json()[
        "detail"]
    none = client.get("/api/sheets/offline/mia?lang=da")
    assert none.status_code == 404
    assert none.json()["detail"].endswith("intet at kontrollere uden net")


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "rule 'bonus for the upper part (0: none)' must be at most 1000, not 5000"),
    ("sv", "5000"), ("da", "5000")])
def test_house_rules_chosen_with_a_sheet_are_checked_in_the_players_language(
        client: TestClient, lang: str, expected: str) -> None:
    body = {"game": "yatzy", "preset": "maxi", "rules": {"bonus": 5000},
            "players": ["Anna", "Ben"], "entries": []}
    refused = client.post(f"/api/sheets/derive?lang={lang}", json=body)
    assert refused.status_code == 400
    detail = refused.json()["detail"]
    assert expected in detail
    if lang != "en":  # named by the rule's help, in the language
        assert "must be" not in detail and "'bonus'" not in detail
        assert {"sv": "övre delen", "da": "øverste del"}[lang] in detail
    body["rules"] = {"bonus": 40, "joker": True}
    sheet = client.post(f"/api/sheets/derive?lang={lang}", json=body).json()
    assert (sheet["rules"]["bonus"], sheet["rules"]["joker"], sheet["rules"]["dice"]) \
        == (40, True, 6)
    unknown = client.post(f"/api/sheets/derive?lang={lang}",
                          json={**body, "preset": "nosuch"})
    assert unknown.status_code == 400 and "nosuch" in unknown.json()["detail"]


def test_a_refused_entry_is_told_in_the_players_language(client: TestClient) -> None:
    body = {"game": "liars_dice", "players": ["Anna", "Ben"], "entries": ["loss Ben", "loss Zed"]}
    told = {lang: client.post(f"/api/sheets/derive?lang={lang}", json=body).json()["detail"]
            for lang in ("en", "sv", "da")}
    assert told["en"].startswith("entry 2 (loss Zed): 'Zed' is not a player")
    assert told["sv"].startswith("post 2 (loss Zed): ") and "Zed" in told["sv"]
    assert told["da"].startswith("post 2 (loss Zed): ") and "Zed" in told["da"]
    assert "is not a player" not in told["sv"] + told["da"]


def test_the_grid_speaks_the_page_language(client: TestClient) -> None:
    def grid(game: str, entries: list[str], lang: str) -> list[list[str | None]]:
        table: list[list[str | None]] = client.post(
            f"/api/sheets/derive?lang={lang}",
            json={"game": game, "players": ["Anna", "Ben"], "entries": entries}).json()["table"]
        return table

    assert grid("liars_dice", ["loss Ben"], "sv")[0] == \
        ["Omgång", "Anna", "Ben", "Anna tärningar", "Ben tärningar"]
    assert grid("knack", ["Anna 3 Ben 3 won Ben"], "da")[0] == \
        ["Pulje", "Anna", "Ben", "Anna saldo", "Ben saldo"]
    assert grid("poker_dice", ["Anna"], "sv")[1][1:3] == ["vann", "förlorade"]
    yatzy = grid("yatzy", ["Anna fours 4 4 4 1 2"], "da")
    assert [row[0] for row in yatzy[1:5]] == ["Enere", "Toere", "Treere", "Firere"]
    assert yatzy[4][1] == "12"
    assert grid("liars_dice", ["loss Ben"], "en")[0][0] == "Round"


def test_every_rule_choice_of_every_sheet_kind_has_words_in_swedish_and_danish() -> None:
    names = {"slosch", "yatzy", "yahtzee", "terningspoker", "poker"}
    choices = {f"choice:{c}" for kind in kinds().values()
               for spec in kind.rules_class().specs() for c in spec.choices or ()
               if isinstance(c, str)}
    assert choices <= set(keeper.CHOICES)
    for lang in ("sv", "da"):
        words = keeper.words(lang)
        for key in choices:
            value = key.removeprefix("choice:")
            assert words[key] != key
            same = names | ({"sum"} if lang == "da" else set())  # a Danish word too
            assert value in same or words[key] != value, (lang, key)


def test_the_keeper_tells_each_kind_its_own_help_presets_and_rules_in_the_language() -> None:
    for lang in ("sv", "da"):
        info = {k["game"]: k for k in keeper.kinds_info(lang)}
        assert set(info) == set(kinds())
        english = {k["game"]: k for k in keeper.kinds_info("en")}
        for game, kind in info.items():
            assert kind["help"] != english[game]["help"]
            assert set(kind["presets"]) == set(english[game]["presets"])
            assert all(text and text != english[game]["presets"][p]
                       for p, text in kind["presets"].items())
            assert [r["name"] for r in kind["rules"]] == [r["name"] for r in english[game]["rules"]]
        assert info["yatzy"]["offline"] and info["liars_dice"]["offline"]
        assert not info["mia"]["offline"]
    # every offline refusal the page repeats has its words
    for text in kinds()["yatzy"].offline_texts:
        assert keeper.words("sv")[text] != text


def test_the_liars_dice_stand_in_is_told_the_start_and_unit_of_the_sheets_rules(
        client: TestClient) -> None:
    for preset in LiarsRules.PRESETS:
        rules = LiarsRules.make(preset)
        table = client.get(f"/api/sheets/offline/liars_dice?preset={preset}").json()
        assert (table["start"], table["count"]) == (
            rules.start, "lives" if rules.loss == "life" else "dice")
        assert "förlust" in table["loss_words"] and "exakt" in table["exact_words"]
    assert client.get("/api/sheets/offline/liars_dice?dice=3").json()["start"] == 3
