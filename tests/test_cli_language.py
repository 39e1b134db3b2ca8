"""The terminal in the player's language: no English left where a Swedish or Danish player reads.

A game is played at a Swedish and a Danish terminal, and every word of its output is checked
against the English side of the ``errors`` catalogs: a word the catalogs hold only in English
(no translation uses it) must not be printed. What a player types — the actions of the legal
list, such as ``knock`` or ``raise 2`` — and the players' names are written as typed.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from typer.testing import CliRunner

from kastkopp.cli import app
from kastkopp.games import load, registered
from kastkopp.strategy import bot_names

# slow: tells every game's positions and events in three languages
pytestmark = pytest.mark.slow

runner = CliRunner()
LOCALE = Path(__file__).resolve().parent.parent / "src" / "kastkopp" / "locale"
WORD = re.compile(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ'-]*[A-Za-zÀ-ÿ]")


def words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(re.sub(r"\{[^}]*\}", " ", text))}


@cache
def english_only(lang: str) -> frozenset[str]:
    """Words of the catalog's English templates that none of its translations uses."""
    with (LOCALE / lang / "LC_MESSAGES" / "errors.po").open("rb") as file:
        catalog = [m for m in read_po(file, locale=lang) if m.id and m.string]
    english = set().union(*(words(m.id) for m in catalog))
    spoken = set().union(*(words(m.string) for m in catalog))
    return frozenset(english - spoken)


def typed(game: str) -> set[str]:
    """The words a player types: the game's actions, the prompt's own commands, the bots'
    names (``bot:optimal``)."""
    actions = load(game, players=2).all_actions()
    return (set().union(*(words(str(a)) for a in actions)) | {"quit", "bot"}
            | set().union(*(words(b) for b in bot_names(game))))


def english_left(output: str, lang: str, game: str, names: tuple[str, ...]) -> set[str]:
    return (words(output) & english_only(lang)) - typed(game) - words(" ".join(names))


def played(lang: str, game: str, players: str, answers: str) -> str:
    result = runner.invoke(app, ["--lang", lang, "play", game, "--players", players,
                                 "--seed", "2"], input=answers)
    assert result.exit_code in (0, 1), result.output
    return result.output


GAMES = {  # a person's answers: legal moves first, then 'quit' when the game asks on
    "poker_dice": "announce 2K 2Q 9\ndoubt\n" + "quit\n",
    "knack": "knock\n" * 4 + "pass\n" * 4 + "quit\n",
    "linka": "check\ncall\n" * 4 + "quit\n",
    "yatzy": "score yatzy\nkanske\nnej\nscore chance\n" + "quit\n",
    "mia": "21\ncall\n" * 5 + "quit\n",
    "liars_dice": "bid 3x5\ndudo\n" * 3 + "quit\n",
}


@pytest.mark.parametrize("lang", ["sv", "da"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_game_at_the_terminal_prints_no_english_word_of_the_catalogs(game, lang):
    person = played(lang, game, "Anna,bot", GAMES[game])
    bots = played(lang, game, "bot,bot:random", "")
    assert english_left(person, lang, game, ("Anna",)) == set(), person
    assert english_left(bots, lang, game, ()) == set(), bots


def test_english_is_caught_where_it_is_left() -> None:
    """The check itself: an English board holds words the catalogs have only in English."""
    out = played("en", "knack", "Anna,bot", GAMES["knack"])
    assert {"pair", "balances", "paid"} <= english_left(out, "sv", "knack", ("Anna",))


@pytest.mark.parametrize("lang", ["sv", "da"])
def test_a_sheet_prints_no_english_word_of_the_catalogs(tmp_path, lang) -> None:
    def sheet(*args: str) -> str:
        result = runner.invoke(app, ["--lang", lang, "sheet", *args])
        assert result.exit_code == 0, result.output
        return result.output

    names = ("Anna", "Ben", "Cara")
    liars, knack = tmp_path / "logne.sheet", tmp_path / "knack.sheet"
    sheet("new", "liars_dice", "--players", ",".join(names), str(liars))
    sheet("add", str(liars), "loss", "Ben")
    sheet("add", str(liars), "exact", "Anna")
    sheet("new", "knack", "--players", "Anna,Ben", str(knack))
    sheet("add", str(knack), "Anna", "3", "Ben", "3", "won", "Ben")
    for path in (liars, knack):
        out = sheet("show", str(path))
        left = (words(out) & english_only(lang)) - words(" ".join(names))
        assert left == set(), out
    unit = {"sv": "Ben tärningar", "da": "Ben terninger"}[lang]
    assert unit in sheet("show", str(liars)) and "−3" in sheet("show", str(knack))


@pytest.mark.parametrize("lang", ["sv", "da"])
def test_the_games_are_listed_in_the_players_language(lang) -> None:
    result = runner.invoke(app, ["--lang", lang, "games"])
    assert result.exit_code == 0, result.output
    # rule names, presets, bots and the values typed (die, life, counts…) stay as typed
    typed_words = set().union(*(words(w) for w in re.findall(
        r"^\s+(?:\S+ )?(\S+)\s", result.output, re.M)))
    choices = set().union(*(words(c) for c in re.findall(r"\(([^()]*\|[^()]*)\)",
                                                         result.output)))
    bots = set().union(*(words(b) for game in registered() for b in bot_names(game)))
    left = (words(result.output) & english_only(lang)) - typed_words - choices - bots
    assert left == set(), left
    expected = {"sv": ("2–10 spelare", "förval perudo:", "vad den gör", "robotar:"),
                "da": ("2–10 spillere", "forvalg perudo:", "hvad den gør", "robotter:")}[lang]
    assert all(text in result.output for text in expected)


def test_the_games_are_listed_in_english_and_as_json_unchanged() -> None:
    english = runner.invoke(app, ["--lang", "en", "games"]).output
    assert "2–10 players" in english and "preset perudo:" in english
    data = runner.invoke(app, ["--lang", "sv", "games", "--json"]).output
    assert '"summary": "hidden cups, bids on all dice on the table' in data


@pytest.mark.parametrize("game", ["knack", "linka"])
def test_a_negative_balance_has_the_minus_sign_of_the_sheets(game) -> None:
    out = played("sv", game, "bot,bot:random", "")
    balances = next(line for line in out.splitlines() if line.startswith("Saldon:"))
    assert "−" in balances and "-" not in balances.replace("bot:", "")


@pytest.mark.parametrize(("english", "swedish", "danish"), [
    ("three 6s", "tre 6:or", "tre 6'ere"),
    ("pair of 5s", "par i 5:or", "par i 5'ere"),
    ("keeps a 4", "behåller en 4:a", "beholder en 4'er"),
    ("rerolls all", "slår om alla", "slår alle om"),
    ("throws 6 5", "slår 6 5", "slår 6 5"),
    ("wins the pot of 6", "vinner potten på 6", "vinder puljen på 6"),
    ("shares the pot of 6", "delar potten på 6", "deler puljen på 6"),
    ("throws 6 5 2 = 13: wins back 3", "slår 6 5 2 = 13: vinner tillbaka 3",
     "slår 6 5 2 = 13: vinder 3 tilbage"),
    ("throws 1 2 3 = 6: pays 3", "slår 1 2 3 = 6: betalar 3", "slår 1 2 3 = 6: betaler 3"),
    ("knock", "knock", "knock"),  # an action stays as it is typed
])
def test_every_knack_position_and_event_is_told(english, swedish, danish) -> None:
    from kastkopp.games.knack import _told

    assert (_told("sv", english), _told("da", english), _told("en", english)) == (
        swedish, danish, english)


@pytest.mark.parametrize(("lang", "loss", "exact"), [("sv", "förlust", "exakt"),
                                                      ("da", "tab", "præcis")])
def test_the_sheet_games_are_told_with_the_words_the_sheets_read(tmp_path, lang, loss, exact):
    listing = runner.invoke(app, ["--lang", lang, "sheet", "games"]).output
    assert (words(listing) & english_only(lang)) - {"slosch"} == set(), listing
    assert f"'{loss} " in listing and f"'{exact} " in listing
    path = tmp_path / "logne.sheet"
    for args in (["new", "liars_dice", "--players", "Anna,Ben", str(path)],
                 ["add", str(path), loss, "Ben"], ["add", str(path), exact, "Anna"]):
        result = runner.invoke(app, ["--lang", lang, "sheet", *args])
        assert result.exit_code == 0, result.output


@pytest.mark.parametrize(("lang", "fours", "total"), [("sv", "Fyror", "Totalt"),
                                                       ("da", "Firere", "I alt")])
def test_a_yatzy_sheet_names_its_rows_in_the_players_language(tmp_path, lang, fours, total):
    path = tmp_path / "yatzy.sheet"
    for args in (["new", "yatzy", "--players", "Anna", str(path)],
                 ["add", str(path), "Anna", "fours", "4", "4", "4", "1", "2"]):
        assert runner.invoke(app, ["sheet", *args]).exit_code == 0
    shown = runner.invoke(app, ["--lang", lang, "sheet", "show", str(path)]).output
    assert re.search(rf"│ {fours} +│ +12 │", shown) and re.search(rf"│ {total} +│ +12 │", shown)
    english = runner.invoke(app, ["--lang", "en", "sheet", "show", str(path)]).output
    assert re.search(r"│ Fours +│ +12 │", english)
