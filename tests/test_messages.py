"""Engine errors in the player's language: templates, their catalogs, their translations.

Every message the engine and the games raise is a template with parameters; the templates
are extracted by ``scripts/error-catalogs.sh`` into the ``errors`` catalogs. These tests
extract them again from the source, so a new message without a Swedish and a Danish text
fails here, and so does a translation whose placeholders do not match its template.
"""

from __future__ import annotations

import ast
import pickle
import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract
from babel.messages.pofile import read_po

from kastkopp.engine import IllegalAction, KastkoppError, Message, RuleError, Table
from kastkopp.games import load
from kastkopp.games.liars_dice import parse_hand
from kastkopp.locale.messages import catalog, error_json, translate

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "kastkopp"
LOCALE = SRC / "locale"
# The sources the catalog script reads (babel-errors.cfg) and the keywords it extracts.
SOURCES = [SRC / "engine.py", SRC / "matches.py",
           *sorted((SRC / "cli").rglob("*.py")), *sorted((SRC / "sheets").glob("*.py")),
           *sorted((SRC / "games").glob("*.py")),
           *(SRC / "server" / name for name in ("hub.py", "app.py", "accounts.py", "chat.py",
                                                 "hints.py", "origin.py", "bodies.py",
                                                 "series.py", "review.py", "review_try.py",
                                                 "hosted.py", "deps.py", "sheets_api.py")),
           *sorted((SRC / "server" / "service").glob("*.py")),
           *sorted((SRC / "server" / "routes").glob("*.py")),
           SRC / "strategy" / "__init__.py", SRC / "strategy" / "review.py",
           SRC / "strategy" / "yatzy_review.py",
           SRC / "strategy" / "liars_dice_review.py", SRC / "strategy" / "mia_review.py",
           SRC / "strategy" / "odds.py", *sorted((SRC / "strategy").glob("*_odds.py")),
           SRC / "strategy" / "liars_bidding.py",
           SRC / "interop" / "ismcts.py", SRC / "interop" / "maexchen.py"]
ERRORS = ("KastkoppError", "IllegalAction", "RuleError", "StaleAction", "TableError",
          "AccountError", "NotAuthenticated", "ChatError", "HintError", "ReviewError",
          "Unreadable", "NotYourTurn", "GameOver", "NotFound", "TableNotFound")
KEYWORDS = {**dict.fromkeys(ERRORS), "Message": None, "term": None, "pterm": ((1, "c"), 2),
            "say": None, "LogError": None, "spoken": (2,), "marked": None, "rule": (2,)}


def extracted() -> set[tuple[str | None, str]]:
    found = set()
    for path in SOURCES:
        with path.open("rb") as source:
            for _, text, _, context in extract("python", source, keywords=KEYWORDS):
                found.add((context, text))
    return found


def po(lang: str) -> dict[tuple[str | None, str], str]:
    with (LOCALE / lang / "LC_MESSAGES" / "errors.po").open("rb") as file:
        return {(m.context, m.id): m.string for m in read_po(file, locale=lang) if m.id}


def fields(text: str) -> list[str]:
    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


TEMPLATES = sorted(extracted(), key=lambda key: key[1])


def test_the_sources_hold_the_messages_of_every_game() -> None:
    texts = {text for _, text in TEMPLATES}
    assert len(texts) > 150
    assert "{row} is already filled ({cell}); open: {playable}" in texts  # Yatzy
    assert "{bid} is not higher than {last}; {smallest}" in texts  # liar's dice
    assert "it is not your turn; it is {who}'s" in texts  # the server


@pytest.mark.parametrize("lang", ["sv", "da"])
def test_every_message_has_a_translation(lang: str) -> None:
    translated = po(lang)
    missing = [text for key in TEMPLATES if not translated.get(key)
               for text in [key[1]]]
    assert not missing, f"run scripts/error-catalogs.sh and translate: {missing}"


@pytest.mark.parametrize("lang", ["sv", "da"])
def test_translations_keep_the_placeholders_of_their_template(lang: str) -> None:
    wrong = [(text, string_) for (context, text), string_ in po(lang).items()
             if string_ and fields(string_) != fields(text)]
    assert not wrong


@pytest.mark.parametrize("lang", ["sv", "da"])
def test_the_compiled_catalog_is_the_written_one(lang: str) -> None:
    translations = catalog(lang)
    for (context, text), string_ in po(lang).items():
        shown = translations.pgettext(context, text) if context else translations.gettext(text)
        assert shown == (string_ or text), f"recompile with scripts/error-catalogs.sh: {text!r}"


ERROR_CALLS = {*ERRORS, "Message"}


def test_no_message_is_built_as_an_fstring() -> None:
    """A template must be a literal: an f-string is English only and escapes the catalog."""
    built = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in ERROR_CALLS and node.args:
                first = node.args[0]
                if isinstance(first, ast.JoinedStr | ast.BinOp) or (
                        isinstance(first, ast.Call) and ast.unparse(first.func) == "str"):
                    built.append(f"{path.name}:{node.lineno}")
    assert not built


# --------------------------------------------------------------------------- in use


def test_english_is_the_text_of_the_error_and_the_template_fills_it() -> None:
    error = IllegalAction("a die shows 1 to {sides}, not {face}", sides=6, face=9)
    assert str(error) == "a die shows 1 to 6, not 9" == translate(error, "en")
    assert error.template == "a die shows 1 to {sides}, not {face}"
    assert error.params == {"sides": 6, "face": 9}
    assert translate(error, "sv") == "en tärning visar 1 till 6, inte 9"
    assert translate(error, "da") == "en terning viser 1 til 6, ikke 9"
    assert translate(error, "fr") == str(error)  # an unknown language reads English
    plain = RuleError("literal {braces} stay as they are")
    assert str(plain) == "literal {braces} stay as they are" and plain.params == {}
    copy = pickle.loads(pickle.dumps(error))
    assert isinstance(copy, IllegalAction) and copy.message == error.message


def test_a_yatzy_row_is_named_as_the_sheet_names_it_in_each_language() -> None:
    state = load("yatzy", players=1).new_state().resolve((3, 3, 4, 5, 6))
    state = state.apply("score chance").resolve((1, 2, 3, 5, 5))
    with pytest.raises(IllegalAction) as caught:
        state.apply("score chance")
    error = caught.value
    assert str(error).startswith("chance is already filled (21); open: ones, twos")
    assert translate(error, "sv").startswith("raden Chans är redan ifylld (21); öppna: Ettor")
    assert translate(error, "da").startswith("rækken Chance er allerede udfyldt (21); åbne: Enere")


def test_a_poker_hand_is_named_in_the_players_words() -> None:
    state = load("poker_dice").new_state()
    for faces in [(6,), (1,), (4, 4, 4, 5, 3), (1, 2, 2, 3, 5)]:  # who calls first, the cups
        state = state.resolve(faces)
    state = state.apply("announce 3Q K J")
    with pytest.raises(IllegalAction) as caught:
        state.apply("announce 2T 2 9 A")
    assert str(caught.value).startswith("'2T 2x9 A' (two tens, two nines and an ace) is not "
                                        "higher than the claim '3Q K J'")
    assert translate(caught.value, "sv") == (
        "'2T 2x9 A' (två tior, två nior och ett ess) är inte högre än utropet '3Q K J'; det "
        "lägsta tillåtna utropet är '3Q A 9' (tre damer, ett ess och en nia)")
    assert "(to tiere, to niere og et es) er ikke højere" in translate(caught.value, "da")


def test_the_words_inside_a_knack_refusal_are_translated_too() -> None:
    state = load("knack", players=2).new_state()
    while state.chance() is not None:
        state = state.resolve((4, 2, 1)[: state.chance().count])
    seat = state.to_move()
    assert seat is not None
    with pytest.raises(IllegalAction) as caught:
        state.apply("keep 6")
    error = caught.value
    assert str(error) == "there is no 6 among your dice 4 2 1; keep one of them or reroll"
    assert translate(error, "sv") == ("det finns ingen 6 bland dina tärningar 4 2 1; spara "
                                      "en av dem eller slå om")


def test_a_liars_dice_refusal_nests_the_smallest_bid_in_every_language() -> None:
    state = load("liars_dice", preset="perudo", players=2).new_state()
    while state.chance() is not None:
        state = state.resolve((2,) * state.chance().count)
    state = state.apply("bid 3x4")
    with pytest.raises(IllegalAction) as caught:
        state.apply("bid 2x4")
    error = caught.value
    assert str(error).startswith("2x4 is not higher than 3x4; the smallest legal bid is")
    assert translate(error, "sv").startswith("2x4 är inte högre än 3x4; det minsta tillåtna "
                                             "budet är")
    assert translate(error, "da").startswith("2x4 er ikke højere end 3x4; det mindste "
                                             "tilladte bud er")
    data = error_json(error)
    assert data["error"] == str(error) and data["template"] == error.template
    assert data["params"]["smallest"]["template"].startswith("the smallest legal bid is")


def test_a_seat_out_of_turn_hears_who_is_to_move() -> None:
    table = Table(load("mia", players=2), seats=["Anna", "Bo"])
    with pytest.raises(KastkoppError) as caught:
        table.act(1, "roll")
    assert str(caught.value) == "it is not Bo's turn; it is Anna's"
    assert translate(caught.value, "sv") == "det är inte Bos tur; Anna står på tur"


def test_every_game_answers_nonsense_in_swedish_and_danish() -> None:
    for name in ("mia", "knack", "linka", "liars_dice", "poker_dice", "yatzy"):
        game = load(name)
        with pytest.raises(IllegalAction) as caught:
            game.parse_action("xyzzy plugh")
        error = caught.value
        assert "xyzzy plugh" in str(error)
        for lang in ("sv", "da"):
            text = translate(error, lang)
            assert text != str(error) and "xyzzy plugh" in text, (name, lang)


def test_a_message_renders_its_lists_and_choices() -> None:
    message = Message("{a}; {b}", {"a": [1, 2], "b": Message("x")})
    assert str(message) == "1, 2; x"


READERS = [("mia", {}), ("knack", {}), ("linka", {}), ("liars_dice", {"preset": "perudo"}),
           ("liars_dice", {"preset": "lognare"}), ("poker_dice", {}), ("yatzy", {})]


@pytest.mark.parametrize(("name", "rules"), READERS)
@pytest.mark.parametrize("lang", ["en", "sv", "da"])
def test_the_moves_a_refusal_suggests_are_read_by_the_game_in_its_language(
        name: str, rules: dict[str, str], lang: str) -> None:
    game = load(name, **rules)
    with pytest.raises(IllegalAction) as caught:
        game.parse_action("xyzzy plugh")
    suggested = [q for q in re.findall(r"'([^']*)'", translate(caught.value, lang))
                 if q != "xyzzy plugh"]
    assert len(suggested) >= 2
    for move in suggested:
        game.parse_action(move)  # raises if the game cannot read its own suggestion


@pytest.mark.parametrize("lang", ["en", "sv", "da"])
def test_the_hands_a_refusal_suggests_are_read_in_its_language(lang: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        parse_hand("xyzzy")
    suggested = [q for q in re.findall(r"'([^']*)'", translate(caught.value, lang))
                 if q != "xyzzy"]
    assert len(suggested) == 6
    for hand in suggested:
        parse_hand(hand)
