"""The engine: house rules, the table, logs and their verification."""

from __future__ import annotations

import json

import pytest

from kastkopp.dice import CommitRevealDice, SeededDice
from kastkopp.engine import (
    GameOver,
    IllegalAction,
    LogError,
    NotYourTurn,
    Outcome,
    RuleError,
    Table,
    ranking_by,
    verify_log,
)
from kastkopp.games import load


def played_table(dice=None):
    table = Table(load("mia", players=2), seats=["Anna", "Ben"],
                  dice=dice or SeededDice(seed=5))
    while not table.state.is_over():
        seat = table.state.to_move()
        table.act(seat, "call" if table.state.phase == "respond" else "announce 21")
    return table


def test_presets_and_rules_as_text():
    game = load("mia", preset="classic", lives="5", passing="off")
    assert game.rules.order == "classic" and game.rules.lives == 5 and not game.rules.passing
    assert game.rules.changed() == {"order": "classic", "lives": 5, "passing": False}


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"name": "chess"}, "unknown game 'chess'"),
    ({"name": "mia", "preset": "poker"}, "unknown preset 'poker'"),
    ({"name": "mia", "colour": "red"}, "unknown rule 'colour'"),
    ({"name": "mia", "lives": "many"}, "whole number"),
    ({"name": "mia", "lives": "99"}, "at most 9"),
    ({"name": "mia", "passing": "perhaps"}, "on or off"),
])
def test_bad_rules_are_refused_with_a_clear_message(kwargs, message):
    with pytest.raises(RuleError, match=message):
        load(**kwargs)


def test_the_table_rolls_logs_and_refuses_out_of_turn_actions():
    table = Table(load("mia", players=2), seats=["Anna", "Ben"], dice=SeededDice(seed=1))
    assert table.events[0]["type"] == "roll" and table.events[0]["nonce"] == 0
    with pytest.raises(IllegalAction, match="not Ben's turn; it is Anna's"):
        table.act(1, "announce 54")
    before = list(table.events)
    with pytest.raises(IllegalAction):
        table.act(0, "call")
    assert table.events == before
    table.act(0, "announce 54")
    assert table.events[-1] == {"seq": 1, "type": "action", "seat": 0, "action": "announce 54"}


def test_replaying_a_log_gives_the_same_state_and_resumes_the_dice():
    table = Table(load("mia", players=3), dice=SeededDice(seed=9))
    table.act(0, "announce 43")
    table.act(1, "roll")
    replayed = Table.loads(table.dumps())
    assert replayed.state == table.state
    assert replayed.dice.nonce == table.dice.nonce
    replayed.act(1, "announce 65")
    table.act(1, "announce 65")
    assert replayed.state == table.state


def test_a_finished_commit_reveal_log_verifies_and_a_tampered_one_does_not():
    table = played_table(CommitRevealDice(client_seed="anna"))
    data = table.to_json()
    assert "server_seed" in data["dice"]
    assert verify_log(data) == []
    tampered = json.loads(json.dumps(data))
    roll = next(e for e in tampered["events"] if e["type"] == "roll")
    roll["faces"] = [7 - f for f in roll["faces"]]
    problems = verify_log(tampered)
    assert problems and "not what the seed gives" in problems[0]


def test_an_unfinished_commit_reveal_log_keeps_its_seed_secret():
    table = Table(load("mia", players=2), dice=CommitRevealDice())
    data = table.to_json()
    assert "server_seed" not in data["dice"]
    assert "not been revealed" in verify_log(data)[0]


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda d: d.update(format="chess-pgn"), "not a kastkopp log"),
    (lambda d: d.update(version=99), "unsupported log version"),
    (lambda d: d.update(game="chess"), "unknown game"),
    (lambda d: d["events"][1].update(action="announce 99"), "event 1: '99' is not a roll"),
    (lambda d: d["events"][1].update(seat=1), "event 1: seat 1 acted out of turn"),
    (lambda d: d["events"].insert(1, {"type": "roll", "faces": [1, 1], "nonce": 1}),
     "event 1: a roll where no dice were to be rolled"),
    (lambda d: d["events"][0].update(faces=[1, 9]), "event 0: a die shows 1 to 6"),
    (lambda d: d["events"].__setitem__(0, {"type": "dance"}), "event 0: unknown event"),
])
def test_corrupted_logs_name_the_first_bad_event(mutate, message):
    data = played_table().to_json()
    mutate(data)
    with pytest.raises(LogError, match=message):
        Table.from_json(data)


def test_ranking_groups_equal_keys_and_places_count_seats_ahead():
    ranking = ranking_by([3, 5, 5, 1])
    assert ranking == ((1, 2), (0,), (3,))
    outcome = Outcome(ranking=ranking, scores=(3, 5, 5, 1), payoffs=(0, 0, 0, 0))
    assert [outcome.place(s) for s in range(4)] == [3, 1, 1, 4]


def test_a_game_refuses_another_games_rules():
    mia = load("mia", players=2)
    knack_rules = load("knack", players=2).rules
    with pytest.raises(RuleError, match="played with its own rules"):
        type(mia)(rules=knack_rules, players=2)


def test_a_copied_table_moves_on_alone():
    table = Table(load("mia", players=2), dice=SeededDice(seed=4))
    copy = table.copy()
    copy.act(0, "announce 54")
    copy.act(1, "call")
    assert len(table.events) == 1 and table.dice.nonce == 1
    assert copy.dice.nonce == 2 and table.state.to_move() == 0


def test_a_preview_leaves_the_table_as_it_was_and_accepted_is_the_move_itself():
    table = Table(load("mia", players=2), seats=["Anna", "Ben"], dice=SeededDice(seed=3))
    twin = Table(load("mia", players=2), seats=["Anna", "Ben"], dice=SeededDice(seed=3))
    before = (list(table.events), table.state, table.dice.nonce)

    def play(t: Table) -> None:
        t.act(0, "announce 54")
        t.act(1, "call")  # the dice are rolled for the next round inside the preview

    preview = table.preview(play)
    assert (table.events, table.state, table.dice.nonce) == before
    assert [e["type"] for e in preview.events][:2] == ["action", "action"]
    play(twin)
    table.accept(preview)
    assert table.events == twin.events and table.dice.nonce == twin.dice.nonce
    assert table.state.view(None) == twin.state.view(None)


def test_a_refused_preview_changes_nothing():
    table = Table(load("mia", players=2), seats=["Anna", "Ben"], dice=SeededDice(seed=3))
    before = (list(table.events), table.state, table.dice.nonce)
    with pytest.raises(NotYourTurn):
        table.preview(lambda t: (t.act(0, "announce 54"), t.act(0, "announce 65")))
    assert (table.events, table.state, table.dice.nonce) == before


def test_refusals_say_what_kind_they_are():
    table = played_table()
    with pytest.raises(GameOver) as over:
        table.act(0, "call")
    assert over.value.code == "game_over" and isinstance(over.value, IllegalAction)
    fresh = Table(load("mia", players=2), seats=["Anna", "Ben"], dice=SeededDice(seed=1))
    with pytest.raises(NotYourTurn) as turn:
        fresh.act(1, "announce 54")
    assert turn.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as illegal:
        fresh.act(0, "announce 99")
    assert illegal.value.code == "illegal"
    with pytest.raises(RuleError) as rules:
        load("mia", players=2, colour="red")
    assert rules.value.code == "rules"
