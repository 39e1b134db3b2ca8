"""``/stats/GAME`` shows the bot ladder ``kastkopp ladder GAME --out`` wrote to the server's
ladder folder, with translated headings; the ladders kastkopp comes with cover every game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from kastkopp.cli import app as cli
from kastkopp.games import registered
from kastkopp.server.app import create_app
from kastkopp.server.stats import LADDERS, ladder, ladder_folder
from kastkopp.strategy import bot_names


def write_ladder(folder: Path, game: str) -> dict:
    folder.mkdir(exist_ok=True)
    # IS-MCTS is left out: it is slow, and any three bots make the page's tables
    bots = ",".join(b for b in bot_names(game) if b != "ismcts")
    result = CliRunner().invoke(cli, ["ladder", game, "--bots", bots, "--games", "3", "--seed",
                                      "5", "--workers", "1", "--out", str(folder / f"{game}.json")])
    assert result.exit_code == 0, result.stderr
    return json.loads((folder / f"{game}.json").read_text(encoding="utf-8"))


def page(tmp_path: Path, folder: Path | None, url: str) -> str:
    with TestClient(create_app(str(tmp_path / "kastkopp.db"), ladders=folder)) as client:
        response = client.get(url)
        assert response.status_code == 200
        return response.text


@pytest.mark.parametrize(("lang", "heading", "column"), [
    ("sv", "Bottarnas stege", "Vinstandel"), ("da", "Botternes stige", "Vinderandel"),
    ("en", "Bot ladder", "Win rate")])
def test_the_stats_page_shows_the_written_ladder(tmp_path, lang, heading, column):
    data = write_ladder(tmp_path / "ladders", "poker_dice")
    text = page(tmp_path, tmp_path / "ladders", f"/stats/poker_dice?lang={lang}")
    assert heading in text and column in text and 'id="ladder"' in text
    assert "kastkopp ladder poker_dice --bots random,simple,strong --games 3 --seed 5" in text
    ratings = text[text.index('id="ladder"'):text.index('id="heads-up"')]
    shown = [row["bot"] for row in data["ratings"]]
    named = [ratings.index(f'<span class="bot-prefix">bot:</span>{bot}<') for bot in shown]
    assert named == sorted(named)  # best first, as rated
    bots = len(data["ratings"])
    heads_up = text[text.index('id="heads-up"'):]
    assert heads_up.count('<tr><td><span class="bot-prefix">bot:</span>') == \
        bots * (bots - 1) // 2  # every pair heads-up


def test_without_a_ladder_the_page_says_so(tmp_path):
    empty = tmp_path / "none"
    empty.mkdir()
    text = page(tmp_path, empty, "/stats/mia?lang=da")
    assert "Ingen stige for botterne endnu." in text and 'id="ladder"' not in text


def test_a_file_that_is_not_this_games_ladder_is_not_shown(tmp_path):
    folder = tmp_path / "ladders"
    data = write_ladder(folder, "poker_dice")
    (folder / "mia.json").write_text(json.dumps(data), encoding="utf-8")  # poker's, misnamed
    (folder / "knack.json").write_text("{not json", encoding="utf-8")
    assert ladder(folder, "mia") is None and ladder(folder, "knack") is None
    assert ladder(folder, "poker_dice") is not None


def test_the_folder_is_given_else_the_environment_else_kastkopps_own(tmp_path, monkeypatch):
    monkeypatch.delenv("KASTKOPP_LADDERS", raising=False)
    assert ladder_folder() == LADDERS
    monkeypatch.setenv("KASTKOPP_LADDERS", str(tmp_path))
    assert ladder_folder() == tmp_path
    assert ladder_folder(tmp_path / "given") == tmp_path / "given"


def test_kastkopp_comes_with_a_ladder_of_every_game(tmp_path, monkeypatch):
    monkeypatch.delenv("KASTKOPP_LADDERS", raising=False)
    for game in registered():
        data = ladder(LADDERS, game)
        assert data is not None, game
        assert data["heads_up"] and data["command"].startswith(f"kastkopp ladder {game} ")
    assert 'id="heads-up"' in page(tmp_path, None, "/stats/knack")
