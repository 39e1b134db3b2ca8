"""Match bookkeeping: best of N, chouette rotation and standings, knockout brackets."""

from __future__ import annotations

import random

import pytest

from kastkopp.dice import SeededDice
from kastkopp.engine import IllegalAction, RuleError, Table, play_out
from kastkopp.games import default_game, load
from kastkopp.matches import (
    Chouette,
    Knockout,
    Match,
    bracket_positions,
    play_chouette,
    play_knockout,
    play_match,
    roll_for_order,
    seat_for_game,
)
from kastkopp.strategy import make_bot

# --------------------------------------------------------------------------- best of N


def test_best_of_three_is_won_with_two_games():
    match = Match(("Anna", "Bo"), best_of=3)
    assert match.needed == 2
    match = match.record("Anna").record("Bo")
    assert not match.is_over and match.winner is None and match.score() == "1-1"
    match = match.record("Anna")
    assert match.is_over and match.winner == "Anna" and match.loser == "Bo"
    with pytest.raises(IllegalAction, match="the match is over: Anna won 2-1"):
        match.record("Bo")


def test_best_of_five_is_won_with_three_games():
    match = Match(("Anna", "Bo"), best_of=5)
    for winner in ("Bo", "Bo", "Anna", "Anna"):
        match = match.record(winner)
    assert not match.is_over
    assert match.record("Bo").winner == "Bo"


def test_the_winner_of_a_game_calls_first_in_the_next():
    match = Match(("Anna", "Bo"))
    assert match.opener is None  # the first game decides with a die roll
    assert match.record("Bo").opener == "Bo"
    assert match.record("Bo").record(None).opener == "Bo"  # a drawn game does not count


def test_a_drawn_game_does_not_count():
    match = Match(("Anna", "Bo")).record(None).record("Anna")
    assert match.wins() == (1, 0)


@pytest.mark.parametrize("best_of", [0, 2, 4, -1])
def test_a_match_is_best_of_an_odd_number(best_of):
    with pytest.raises(RuleError):
        Match(("Anna", "Bo"), best_of=best_of)


def test_a_match_needs_two_different_players():
    with pytest.raises(RuleError, match="named twice"):
        Match(("Anna", "Anna"))
    with pytest.raises(IllegalAction, match="does not play"):
        Match(("Anna", "Bo")).record("Cara")


def test_the_opener_of_poker_dice_calls_first_in_the_next_game():
    game = load("poker_dice")
    opened, seats = seat_for_game(game, ("Anna", "Bo"), "Bo")
    assert seats == ("Anna", "Bo") and opened.new_state().caller == 1
    assert seat_for_game(game, ("Anna", "Bo"), None) == (game, ("Anna", "Bo"))


def test_a_game_without_an_opening_player_seats_the_opener_first():
    game = load("mia", players=2)
    assert seat_for_game(game, ("Anna", "Bo"), "Bo") == (game, ("Bo", "Anna"))


def real_game(seed: int):
    """A PlayGame callback: random bots play a real game on seeded dice."""
    rng = random.Random(seed)

    def play(game, seats):
        table = Table(game, seats=list(seats), dice=SeededDice(rng.randrange(10**9)))
        bots = [make_bot(game, "random"), make_bot(game, "random")]
        outcome = play_out(table, bots, rng)
        return seats[outcome.winners[0]]

    return play


def test_a_played_match_has_the_last_winner_open_each_game():
    openers = []

    def play(game, seats):
        openers.append(game.rules.opener)
        return real_game(len(openers))(game, seats)

    match = play_match(load("poker_dice"), ("Anna", "Bo"), 5, play)
    assert match.is_over and max(match.wins()) == 3
    assert openers[0] == 0  # a die decides the first game
    for previous, opener in zip(match.results, openers[1:], strict=False):
        assert opener == ("Anna", "Bo").index(previous) + 1


# --------------------------------------------------------------------------- the order


def test_the_order_is_by_die_and_ties_roll_again():
    rolls = iter([3, 5, 3, 1, 6, 4])  # Anna 3, Bo 5, Cara 3, Dan 1; then Anna 6, Cara 4
    result = roll_for_order(["Anna", "Bo", "Cara", "Dan"], lambda: next(rolls))
    assert result.order == ("Bo", "Anna", "Cara", "Dan")
    assert result.rounds[1] == (("Anna", 6), ("Cara", 4))


# --------------------------------------------------------------------------- chouette


def test_in_chouette_the_winner_stays_and_the_loser_goes_to_the_end():
    chouette = Chouette(("Anna", "Bo", "Cara", "Dan"))
    assert chouette.table == ("Anna", "Bo") and chouette.waiting == ("Cara", "Dan")
    chouette = chouette.record("Anna")
    assert chouette.table == ("Anna", "Cara") and chouette.waiting == ("Dan", "Bo")
    chouette = chouette.record("Cara")  # Cara stays in her seat, Dan takes Anna's
    assert chouette.table == ("Dan", "Cara") and chouette.waiting == ("Bo", "Anna")
    assert chouette.opener == "Cara"


def test_chouette_with_three_players_rotates_through_everyone():
    chouette = Chouette(("Anna", "Bo", "Cara"))
    for winner in ("Bo", "Bo", "Anna"):
        chouette = chouette.record(winner)
    assert chouette.games() == [("Anna", "Bo", "Bo"), ("Cara", "Bo", "Bo"),
                                ("Anna", "Bo", "Anna")]
    assert chouette.table == ("Anna", "Cara") and chouette.waiting == ("Bo",)


def test_chouette_standings_order_by_wins_then_losses():
    chouette = Chouette(("Anna", "Bo", "Cara"))
    for winner in ("Bo", "Bo", "Anna", "Cara"):
        chouette = chouette.record(winner)
    rows = [(s.player, s.played, s.won, s.lost) for s in chouette.standings()]
    assert rows == [("Bo", 3, 2, 1), ("Cara", 2, 1, 1), ("Anna", 3, 1, 2)]
    assert sum(s.won for s in chouette.standings()) == 4
    assert sum(s.played for s in chouette.standings()) == 8


def test_chouette_refuses_a_winner_who_is_not_at_the_table():
    chouette = Chouette(("Anna", "Bo", "Cara"))
    with pytest.raises(IllegalAction, match="not at the table"):
        chouette.record("Cara")
    with pytest.raises(IllegalAction, match="game 1"):
        Chouette(("Anna", "Bo", "Cara"), results=("Cara",))


def test_a_played_chouette_counts_every_game():
    chouette = play_chouette(load("poker_dice"), ["Anna", "Bo", "Cara", "Dan", "Eve"], 12,
                             real_game(3))
    assert len(chouette.results) == 12
    assert sum(s.played for s in chouette.standings()) == 24
    assert {s.player for s in chouette.standings()} == {"Anna", "Bo", "Cara", "Dan", "Eve"}


# --------------------------------------------------------------------------- knockout


def test_bracket_positions_keep_the_top_seeds_apart():
    assert bracket_positions(2) == [1, 2]
    assert bracket_positions(4) == [1, 4, 2, 3]
    positions = bracket_positions(16)
    assert sorted(positions) == list(range(1, 17))
    assert positions.index(1) < 8 <= positions.index(2)  # seeds 1 and 2 meet in the final
    for i in range(0, 16, 2):
        assert positions[i] + positions[i + 1] == 17


def test_a_full_bracket_of_eight_has_three_rounds_and_no_byes():
    cup = Knockout(tuple("ABCDEFGH"))
    assert [len(r) for r in cup.rounds] == [4, 2, 1]
    assert [(p.a, p.b) for p in cup.pending()] == [("A", "H"), ("D", "E"), ("B", "G"),
                                                   ("C", "F")]
    assert not any(p.bye for p in cup.rounds[0])
    assert cup.round_name(0) == "quarter-finals" and cup.round_name(2) == "final"


@pytest.mark.parametrize("players", [3, 5, 6, 7])
def test_an_odd_or_short_field_gives_the_top_seeds_byes(players):
    seeds = tuple(f"P{i}" for i in range(1, players + 1))
    cup = Knockout(seeds)
    size = len(cup.rounds[0]) * 2
    byes = [p for p in cup.rounds[0] if p.bye]
    assert len(byes) == size - players
    assert sorted(p.winner for p in byes) == sorted(seeds[:size - players])
    assert all(not p.bye for r in cup.rounds[1:] for p in r)


def test_a_knockout_is_played_to_a_champion():
    cup = Knockout(("Anna", "Bo", "Cara", "Dan", "Eve"))
    rng = random.Random(2)
    while not cup.is_over:
        p = cup.pending()[0]
        cup = cup.record(p.round, p.slot, rng.choice([p.a, p.b]))
    places = cup.placings()
    assert places[0] == (1, [cup.champion])
    assert sorted(n for _, names in places for n in names) == sorted(cup.seeds)
    assert [place for place, _ in places] == [1, 2, 3, 5]
    assert cup.lines()[-1] == f"Champion: {cup.champion}"


def test_a_knockout_refuses_results_out_of_turn():
    cup = Knockout(tuple("ABCD"))
    with pytest.raises(IllegalAction, match=r"not ready; playable: 1\.1 A against D"):
        cup.record(1, 0, "A")
    with pytest.raises(IllegalAction, match="does not play"):
        cup.record(0, 0, "B")
    cup = cup.record(0, 0, "A")
    with pytest.raises(IllegalAction, match="decided"):
        cup.record(0, 0, "D")
    with pytest.raises(IllegalAction, match="not in the bracket"):
        cup.record(3, 0, "A")


def test_a_knockout_is_a_fold_of_its_results():
    cup = Knockout(tuple("ABCDEF"))
    for _ in range(3):
        p = cup.pending()[0]
        cup = cup.record(p.round, p.slot, p.b)
    again = Knockout(cup.seeds, cup.results)
    assert again == cup and again.rounds == cup.rounds
    assert again.rounds[1][0].a == "A"  # the bye carried A on


def test_the_bracket_shows_every_player_and_the_winners():
    cup = Knockout(("Anna", "Bo", "Cara"))
    cup = cup.record(0, 1, "Cara")
    text = "\n".join(cup.lines())
    for name in ("Anna", "Bo", "Cara", "(bye)"):
        assert name in text
    assert text.endswith("Next: Anna against Cara (final)")


def test_a_played_knockout_of_eight_bots():
    seen = []
    cup = play_knockout(load("poker_dice"), [f"bot{i}" for i in range(8)], 3, real_game(1),
                        on_match=lambda p, m: seen.append((p.round, m.score())))
    assert cup.is_over and len(seen) == 7
    assert [r for r, _ in seen] == [0, 0, 0, 0, 1, 1, 2]
    assert all(score in ("2-0", "2-1", "0-2", "1-2") for _, score in seen)


# --------------------------------------------------------------------------- the command line


def cli(*args, input=None):
    from typer.testing import CliRunner

    from kastkopp.cli import app

    return CliRunner().invoke(app, list(args), input=input)


EIGHT_BOTS = ",".join(["bot:strong", "bot:random"] * 4)


def test_a_knockout_of_eight_bots_prints_the_bracket():
    result = cli("knockout", "--players", EIGHT_BOTS, "--seed", "1")
    assert result.exit_code == 0, result.output
    assert result.output.count("quarter-finals:") == 4
    assert result.output.count("semi-finals:") == 2 and "final:" in result.output
    assert "Champion: bot:" in result.output
    assert "bot:random 4" in result.output and "┐" in result.output


def test_a_knockout_with_byes_as_json():
    import json

    result = cli("knockout", "poker_dice", "--players", "bot:strong,bot:random,bot:random",
                 "--best-of", "3", "--seed", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["rounds"][0][0]["bye"] and data["champion"] in data["seeds"]


def test_a_match_between_a_person_and_a_bot():
    # the person always answers with the best hand, or doubts when nothing is higher
    result = cli("match", "poker_dice", "--best-of", "3", "--players", "Anna,bot:strong",
                 "--seed", "4", input="announce 5A\ndoubt\n" * 40)
    assert result.exit_code == 0, result.output
    assert "wins the match" in result.output
    assert "Anna's turn" in result.output


def test_a_bad_announcement_at_the_keyboard_names_the_lowest_legal_one():
    result = cli("match", "--players", "Anna,bot:random", "--seed", "4",
                 input="announce 3T 3A\n" + "announce 5A\ndoubt\n" * 40)
    text = " ".join(result.output.split())  # the terminal wraps long lines
    assert "'3T 3A' names 6 dice; a hand is exactly five" in text
    assert "the lowest legal announcement is" in text


def test_a_chouette_of_bots_shows_the_order_and_the_standings():
    result = cli("chouette", "--players", "bot:strong,bot:random,bot:random", "--games", "5",
                 "--seed", "3")
    assert result.exit_code == 0, result.output
    assert "Dice for the order" in result.output and "Order:" in result.output
    assert result.output.count("game ") >= 5
    assert "waiting:" in result.output


@pytest.mark.parametrize(("args", "fragment"), [
    (("match", "--players", "bot,bot", "--best-of", "2"), "odd number"),
    (("match", "--players", "bot,bot,bot"), "two players"),
    (("chouette", "--players", "bot,bot"), "three or more"),
    (("knockout", "--players", "bot,bot", "--seeding", "age"), "seeding"),
    (("match", "no_such_game", "--players", "bot,bot"), "unknown game"),
    (("knockout", "--players", "bot:strong,bot:clever"), "no bot 'clever'"),
])
def test_bad_match_options_get_one_line_errors(args, fragment):
    result = cli(*args)
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and fragment in lines[0], result.stderr


def test_every_format_survives_json():
    import json

    match = Match(("Anna", "Bo"), 5).record("Bo").record(None)
    assert Match.from_json(json.loads(json.dumps(match.to_json()))) == match
    chouette = Chouette(("Anna", "Bo", "Cara")).record("Bo").record("Cara")
    assert Chouette.from_json(json.loads(json.dumps(chouette.to_json()))) == chouette
    cup = Knockout(("Anna", "Bo", "Cara")).record(0, 1, "Bo")
    again = Knockout.from_json(json.loads(json.dumps(cup.to_json())))
    assert again == cup and again.pending()[0].b == "Bo"


@pytest.mark.parametrize("command", [
    ("match", "--players", "bot:strong,bot:random", "--best-of", "5"),
    ("chouette", "--players", "bot:strong,bot:random,bot:random", "--games", "4"),
])
def test_match_and_chouette_json_is_only_json(command):
    import json

    result = cli(*command, "--seed", "5", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["results"]


def test_every_game_of_a_match_leaves_a_log_that_replays(tmp_path):
    import json

    result = cli("match", "--players", "bot:strong,bot:random", "--best-of", "3", "--seed", "3",
                 "--logs", str(tmp_path))
    assert result.exit_code == 0, result.output
    logs = sorted(tmp_path.glob("game-*.json"))
    assert len(logs) >= 2
    winners = []
    for path in logs:
        table = Table.loads(path.read_text(encoding="utf-8"))
        assert table.game.name == default_game("match")  # GAME left out: the registered one
        assert table.state.is_over()
        winners.append(table.seats[table.state.outcome().winners[0]])
    assert json.loads(logs[-1].read_text())["rules"]["opener"] in (1, 2)  # the winner opened
    match = Match(("bot:strong", "bot:random"))
    for winner in winners:
        match = match.record(winner)
    assert f"wins the match {match.players[0]} {match.score()}" in result.output
