"""Score sheets: seed 003's worked example and warnings, every sheet rule, undo, the file."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kastkopp.engine import IllegalAction, KastkoppError, RuleError
from kastkopp.sheets import Sheet
from kastkopp.sheets import sheetfile as files
from kastkopp.sheets.history import History

# Seed 003's worked example: the cells of 13 rounds (Anna, Ben, Cara) and the dice after.
SEED_CELLS = ["0 1 0", "1 0 0", "0 1 0", "0 0 1", "-1 0 0", "0 1 0", "0 0 1", "0 1 0",
              "0 1 0", "0 - 1", "1 - 0", "0 - 1", "0 - 1"]
SEED_DICE = [(5, 4, 5), (4, 4, 5), (4, 3, 5), (4, 3, 4), (5, 3, 4), (5, 2, 4), (5, 2, 3),
             (5, 1, 3), (5, 0, 3), (5, None, 2), (4, None, 2), (4, None, 1), (4, None, 0)]


def seed_sheet(**rules) -> Sheet:
    sheet = Sheet.new("liars_dice", ["Anna", "Ben", "Cara"], **rules)
    for cells in SEED_CELLS:
        sheet = sheet.add(cells)
    return sheet


def dice_columns(sheet: Sheet) -> list[tuple[int | None, ...]]:
    """The derived 'dice' columns of every round, as numbers (None: an empty cell)."""
    header, *rows = sheet.derive().grid
    n = (len(header) - 1) // 2
    return [tuple(None if c is None else int(c) for c in row[1 + n:]) for row in rows]


def places(sheet: Sheet) -> dict[str, int]:
    return {s.name: s.place for s in sheet.derive().standings}


# --------------------------------------------------------------------------- seed 003


def test_seed_worked_example_anna_wins_with_four_dice_cara_second_ben_third():
    sheet = seed_sheet()
    derived = sheet.derive()
    assert dice_columns(sheet) == SEED_DICE
    assert places(sheet) == {"Anna": 1, "Cara": 2, "Ben": 3}
    assert derived.standings[0].count == 4
    assert derived.finished is True
    assert [w.name for w in derived.winners] == ["Anna"]


def test_eliminated_players_rank_by_when_they_went_out_not_by_their_equal_zero():
    standings = {s.name: s for s in seed_sheet().derive().standings}
    assert standings["Ben"].count == standings["Cara"].count == 0
    assert standings["Cara"].out == 13 and standings["Ben"].out == 9
    assert standings["Cara"].place == 2 and standings["Ben"].place == 3


def test_cells_after_elimination_are_empty_not_zero():
    header, *rows = seed_sheet().derive().grid
    ben = header.index("Ben")
    assert [row[ben] for row in rows[9:]] == [None] * 4
    assert rows[8][ben] == "1"
    # a zero typed for a player who is out is refused: he did not play that round
    sheet = Sheet.new("liars_dice", ["Anna", "Ben", "Cara"], dice=1).add("Ben")
    with pytest.raises(IllegalAction, match="Ben is out since round 1"):
        sheet.add("0 0 1")
    assert sheet.add("0 - 1").derive().finished


def test_changing_start_dice_to_three_mid_game_recomputes_every_count():
    sheet = seed_sheet().set_rule("dice", "3")
    columns = dice_columns(sheet)
    assert columns[:7] == [(3, 2, 3), (2, 2, 3), (2, 1, 3), (2, 1, 2), (3, 1, 2), (3, 0, 2),
                           (3, None, 1)]
    derived = sheet.derive()
    # Ben is out after round 6 now: his losses in rounds 8 and 9 cannot have happened
    flagged = {f.entry + 1: f.reason for f in derived.flags}
    assert set(flagged) == {8, 9, 11, 12, 13}
    assert "Ben is out since round 6" in flagged[8]
    assert "ended in round 10" in flagged[11]
    assert places(sheet) == {"Anna": 1, "Cara": 2, "Ben": 3}
    assert derived.standings[0].count == 3 and derived.finished
    # the entries are all still there, and changing back restores the seed's sheet
    assert len(sheet.entries) == 13
    assert sheet.set_rule("dice", "5").derive() == seed_sheet().derive()


def test_exact_win_at_full_hand_is_zero_and_does_not_swallow_a_later_loss():
    sheet = Sheet.new("liars_dice", ["Anna", "Ben"]).add("exact Anna").add("loss Anna")
    _, first, second = sheet.derive().grid
    assert first[1] == "0" and second[1] == "1"
    assert sheet.derive().standings[0].count == 4
    assert sheet.set_rule("dice", "3").derive().standings[0].count == 2


def test_minus_one_at_a_full_hand_is_refused_with_the_reason():
    sheet = Sheet.new("liars_dice", ["Anna", "Ben"])
    with pytest.raises(IllegalAction, match="full hand is written 0, not −1"):
        sheet.add("-1 0")
    with pytest.raises(IllegalAction, match="full hand is written 0"):
        sheet.add("exact Anna -1")
    assert sheet.add("exact Anna 0").derive().standings[0].count == 5
    with pytest.raises(IllegalAction, match="written −1, not 0"):
        sheet.add("Anna").add("exact Anna 0")


def test_come_back_a_player_on_one_die_wins_an_exact_call_back_to_the_start_once():
    sheet = Sheet.new("liars_dice", ["Anna", "Ben", "Cara"], preset="come_back", dice=3)
    sheet = sheet.add("Anna").add("Anna")
    with pytest.raises(IllegalAction, match="had not come back yet: the come-back brings "
                                            "back 2 dice and is written −2, not −1"):
        sheet.add("exact Anna -1")
    back = sheet.add("exact Anna")
    assert back.derive().grid[-1][1:] == ("−2", "0", "0", "3", "3", "3")
    assert sheet.add("-2 0 0").derive() == back.derive() == sheet.add("exact Anna -2").derive()
    # once a game: on one die again, an exact call won gives one die back
    again = back.add("Anna").add("Anna")
    with pytest.raises(IllegalAction, match=r"Anna has come back once already: .* −1, not −2"):
        again.add("-2 0 0")
    assert again.add("exact Anna").derive().grid[-1][1:] == ("−1", "0", "0", "2", "3", "3")
    # and only from one die: at two it is the ordinary −1
    with pytest.raises(IllegalAction, match=r"had 2 of 3 dice: .* −1, not −2"):
        Sheet.new("liars_dice", ["Anna", "Ben"], preset="come_back", dice=3).add(
            "Anna").add("exact Anna -2")


def test_turning_the_come_back_off_or_on_recomputes_the_sheet():
    sheet = Sheet.new("liars_dice", ["Anna", "Ben", "Cara"], dice=3)
    with pytest.raises(IllegalAction, match=r"a cell is 1 .* not -2"):
        sheet.add("Ben").add("Ben").add("0 -2 0")
    with pytest.raises(IllegalAction, match=r"written −1 .* not -2"):
        sheet.add("exact Ben -2")
    played = sheet.add("Ben").add("Ben").add("exact Ben")
    assert played.derive().standings[1].count == 2
    assert played.set_rule("come_back", "on").derive().standings[1].count == 3
    written = Sheet.new("liars_dice", ["Anna", "Ben", "Cara"], dice=3, come_back="on")
    written = written.add("Ben").add("Ben").add("0 -2 0")
    flagged = written.set_rule("come_back", "off").derive()
    assert flagged.standings[1].count == 1 and "written −1, not −2" in flagged.flags[0].reason
    with pytest.raises(RuleError, match="come_back=off"):
        played.set_rule("come_back", "on").set_rule("exact_call", "off")


def test_every_round_changes_exactly_one_players_dice():
    sheet = Sheet.new("liars_dice", ["Anna", "Ben", "Cara"])
    with pytest.raises(IllegalAction, match="exactly one player's dice"):
        sheet.add("1 1 0")
    with pytest.raises(IllegalAction, match="write 'exact NAME'"):
        sheet.add("0 0 0")
    with pytest.raises(IllegalAction, match="2 cells for the 3 players"):
        sheet.add("0 1")


def test_a_loss_of_two_needs_the_dudo_difference_and_is_flagged_without_it():
    sheet = Sheet.new("liars_dice", ["Anna", "Ben"], preset="dudo").add("loss Ben 2")
    assert sheet.derive().standings[1].count == 3
    with pytest.raises(IllegalAction, match="costs one die here"):
        Sheet.new("liars_dice", ["Anna", "Ben"]).add("0 2")
    flagged = sheet.set_rule("penalty", "one").derive()
    assert flagged.standings[1].count == 5 and "costs one die" in flagged.flags[0].reason


def test_exact_calls_off_or_three_plus_flag_the_exact_calls_they_forbid():
    sheet = Sheet.new("liars_dice", ["Anna", "Ben", "Cara"], dice=2).add("Anna")
    assert sheet.add("exact Cara").derive().grid[-1][1:4] == ("0", "0", "0")
    sheet = Sheet.new("liars_dice", ["Anna", "Ben", "Cara"]).add("Ben").add("exact Ben")
    assert sheet.set_rule("exact_call", "off").derive().flags[0].entry == 1
    assert sheet.set_rule("exact_call", "three_plus").derive().flags == ()
    two = Sheet.new("liars_dice", ["Anna", "Ben"], exact_call="three_plus").add("Ben")
    with pytest.raises(IllegalAction, match="three or more"):
        two.add("exact Ben")


def test_lives_mode_is_the_same_arithmetic_with_lives_and_fixed_hands():
    sheet = Sheet.new("liars_dice", ["Anna", "Ben"], loss="life", lives=2)
    sheet = sheet.add("Ben").add("Ben")
    derived = sheet.derive()
    assert derived.count_name == "lives" and derived.finished
    assert sheet.to_json()["players"][0] == {"name": "Anna", "place": 1, "lives": 2}
    assert "Anna lives" in derived.grid[0]


def test_keeping_eliminated_players_off_hides_their_column_but_still_ranks_them():
    sheet = seed_sheet(keep_eliminated="off")
    header = sheet.derive().grid[0]
    assert "Ben" not in header and "Cara" not in header and "Anna" in header
    assert places(sheet) == {"Anna": 1, "Cara": 2, "Ben": 3}


def test_an_impossible_entry_is_refused_and_changes_nothing():
    sheet = seed_sheet()
    with pytest.raises(IllegalAction, match="game ended in round 13"):
        sheet.add("Anna")
    with pytest.raises(IllegalAction, match="'Bob' is not a player here"):
        sheet.add("loss Bob")
    with pytest.raises(IllegalAction, match="cannot read"):
        sheet.add("bid 4x5")
    assert sheet == seed_sheet()


def test_a_player_inserted_late_has_empty_cells_before_and_a_full_hand():
    sheet = Sheet.new("liars_dice", ["Anna", "Ben"]).add("Ben").insert("Dora", 2)
    sheet = sheet.add("0 0 1")
    header, first, second = sheet.derive().grid
    assert header[:4] == ("Round", "Anna", "Dora", "Ben")
    assert first[2] is None and second[2] == "0"
    assert {s.name: s.count for s in sheet.derive().standings} == {"Anna": 5, "Dora": 5,
                                                                  "Ben": 3}


def test_renaming_and_reordering_players_change_no_number():
    sheet = seed_sheet()
    moved = sheet.rename("Ben", "Bengt").move("Cara", 1)
    assert moved.names == ["Cara", "Anna", "Bengt"]
    assert {s.name: (s.place, s.count) for s in moved.derive().standings} == {
        "Anna": (1, 4), "Cara": (2, 0), "Bengt": (3, 0)}
    with pytest.raises(IllegalAction, match="already a player called Anna"):
        sheet.rename("Ben", "anna")
    with pytest.raises(IllegalAction, match="reads as a score"):
        sheet.insert("1")


def test_sheet_refuses_unknown_games_rules_and_player_counts():
    with pytest.raises(RuleError, match="no score sheet for 'chess'"):
        Sheet.new("chess", ["Anna", "Ben"])
    with pytest.raises(RuleError, match="unknown rule"):
        Sheet.new("liars_dice", ["Anna", "Ben"]).set_rule("startDice", "3")
    with pytest.raises(RuleError, match="at most 6"):
        Sheet.new("liars_dice", ["Anna", "Ben"]).set_rule("dice", "7")
    with pytest.raises(RuleError, match="2 to 10 players"):
        Sheet.new("liars_dice", ["Anna"])


# --------------------------------------------------------------------------- Slosch


def slosch(*entries, **rules) -> Sheet:
    sheet = Sheet.new("mia", ["Anna", "Ben", "Cara"], **rules)
    for entry in entries:
        sheet = sheet.add(entry)
    return sheet


def test_slosch_in_the_decisive_exchange_costs_two_lives():
    sheet = slosch("Ben", "loss Ben slosch")
    assert {s.name: s.count for s in sheet.derive().standings}["Ben"] == 0
    assert sheet.derive().grid[2][2] == "2"
    assert slosch("0 2 0").entries == sheet.entries[1:]


def test_turning_the_double_loss_off_recomputes_the_slosch_rounds():
    sheet = slosch("Ben", "loss Ben slosch", "Cara").set_rule("slosch_double", "off")
    assert {s.name: s.count for s in sheet.derive().standings} == {"Anna": 3, "Ben": 1,
                                                                  "Cara": 2}


def test_slosch_last_player_with_lives_wins_the_pot_and_the_out_rank_by_time_out():
    sheet = slosch(*["Ben"] * 3, *["Cara"] * 3, lives=3, stake=5)
    derived = sheet.derive()
    assert derived.finished and places(sheet) == {"Anna": 1, "Cara": 2, "Ben": 3}
    assert [s.extra["winnings"] for s in derived.standings] == [10, -5, -5]
    assert slosch("Ben").derive().standings[0].extra == {"winnings": -1}  # not paid out yet
    with pytest.raises(IllegalAction, match="game ended"):
        sheet.add("Anna")


def test_several_losers_at_once_only_when_a_revealed_slosch_makes_everyone_lose():
    with pytest.raises(IllegalAction, match="mia_reveals"):
        slosch("loss Ben Cara slosch")
    sheet = slosch("loss Ben Cara slosch", mia_reveals="on", lives=2)
    derived = sheet.derive()
    assert derived.finished and places(sheet) == {"Anna": 1, "Ben": 2, "Cara": 2}


def test_maexchen_points_are_rounds_played_minus_rounds_lost():
    sheet = slosch("Ben", "Ben", "Cara", preset="maexchen", rounds=3)
    derived = sheet.derive()
    assert derived.count_name == "points" and derived.finished
    assert {s.name: s.count for s in derived.standings} == {"Anna": 3, "Ben": 1, "Cara": 2}
    with pytest.raises(IllegalAction, match="3 rounds"):
        sheet.add("Anna")


# --------------------------------------------------------------------------- undo, redo


def test_undo_and_redo_any_number_of_steps():
    history = History(Sheet.new("liars_dice", ["Anna", "Ben", "Cara"]))
    for cells in SEED_CELLS[:5]:
        history = history.do(f"add {cells}")
    history = history.do("set dice=3").do("rename Ben Bengt")
    assert history.undo(7).sheet == history.start
    back = history.undo(3)
    assert back.sheet.names == ["Anna", "Ben", "Cara"] and len(back.sheet.entries) == 4
    assert back.redo(3).sheet == history.sheet
    assert back.redo().changes[-1] == "add exact Anna -1"
    assert back.do("add Cara").undone == ()
    with pytest.raises(IllegalAction, match="nothing to redo"):
        history.redo()
    with pytest.raises(IllegalAction, match="only 7 changes"):
        history.undo(8)


# --------------------------------------------------------------------------- the file


def test_sheet_file_round_trips_changes_and_the_redo_list(tmp_path):
    history = History(Sheet.new("liars_dice", ["Anna Lisa", "Ben"], preset="perudo"))
    history = history.do("add 'Anna Lisa'").do("set dice=4").do("add exact 'Anna Lisa'")
    history = history.do("insert Cara at 1").do("add loss Cara").undo()
    path = tmp_path / "game.sheet"
    files.write(path, history)
    text = path.read_text(encoding="utf-8")
    assert "player Anna Lisa\n" in text and "add exact 'Anna Lisa' \n" not in text
    again = files.read(path)
    assert again.changes == history.changes and again.undone == ("add loss Cara",)
    assert again.sheet.derive() == history.sheet.derive()
    assert [p.name for p in os.scandir(tmp_path)] == ["game.sheet"]


@pytest.mark.parametrize(("edit", "message"), [
    (lambda t: t.replace("add loss Ben", "add loss Bob", 1), "line 20: 'Bob' is not a player"),
    (lambda t: t.replace("rule dice=5", "rule dice=9"), "line 4: rule 'dice' must be at most 6"),
    (lambda t: t.replace("player Cara", "player ben"), "line 19: there is already a player "
                                                        "called Ben"),
    (lambda t: t.replace("player Ben\nplayer Cara\n", ""), "header: a liar's dice sheet is "
                                                            "for 2 to 10 players, not 1"),
    (lambda t: t.replace("kastkopp-sheet 1", "kastkopp-sheet 7"), "line 2: sheet format version 7"),
    (lambda t: t.replace("add loss Ben", "frobnicate", 1), "line 20: unknown change 'frobnicate'"),
    (lambda t: t + "add loss Anna\n" * 9, "line 33: the game ended in round 13"),
    (lambda t: t.replace("game liars_dice", "game chess"), "no score sheet for 'chess'"),
    (lambda t: "{\"format\": 1}\n", "line 1: this is not a kastkopp score sheet"),
])
def test_a_damaged_sheet_file_is_refused_naming_the_bad_line(tmp_path, edit, message):
    history = History(Sheet.new("liars_dice", ["Anna", "Ben", "Cara"]))
    for cells in SEED_CELLS:
        history = history.do(f"add {cells}")
    path = tmp_path / "game.sheet"
    path.write_text(edit(files.dumps(history)), encoding="utf-8")
    with pytest.raises(files.SheetFileError, match=message):
        files.read(path)


def test_a_failed_write_keeps_the_previous_good_sheet(tmp_path, monkeypatch):
    path = tmp_path / "game.sheet"
    history = History(Sheet.new("liars_dice", ["Anna", "Ben"])).do("add Ben")
    files.write(path, history)
    before = path.read_bytes()

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        files.write(path, history.do("add Anna"))
    assert path.read_bytes() == before
    assert [p.name for p in os.scandir(tmp_path)] == ["game.sheet"]


# --------------------------------------------------------------------------- properties

KINDS = {
    "liars_dice": (["loss {n}", "exact {n}", "{n}"], [("dice", ["1", "2", "3", "5", "6"]),
                                                      ("exact_call", ["on", "off",
                                                                      "three_plus"]),
                                                      ("loss", ["die", "life"]),
                                                      ("lives", ["1", "3"]),
                                                      ("keep_eliminated", ["on", "off"])]),
    "mia": (["loss {n}", "loss {n} slosch", "{n}"], [("lives", ["1", "2", "5"]),
                                                     ("slosch_double", ["on", "off"]),
                                                     ("scoring", ["lives", "points"])]),
    "yatzy": (["{n} {row} {dice}", "{n} {row} {dice} first", "{n} {row} {points}",
               "{n} {row} -"], [("upper", ["sum", "three"]), ("misses", ["zero", "dash"]),
                                ("first_throw_double", ["on", "off"]),
                                ("order", ["free", "parts", "top-down"]),
                                ("sheet", ["yatzy", "yahtzee", "terningspoker"])]),
    "poker_dice": (["{n}", "won {n}", "draw"], [("best_of", ["1", "3", "5"]),
                                                ("five_aces", ["on", "off"])]),
    "knack": (["Anna {points} Ben {points} won {n}", "double {n} won", "double {n} lost"],
              [("ante", ["1", "5"]), ("purse", ["20", "100"]), ("double_knock", ["on", "off"])]),
}
ROWS = ["ones", "fours", "sixes", "pair", "two-pairs", "full-house", "small-straight",
        "chance", "yatzy"]
NAMES = ["Anna", "Ben", "Cara", "Dan"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), game=st.sampled_from(sorted(KINDS)))
def test_undo_of_everything_returns_the_empty_sheet_and_a_rule_change_equals_a_fresh_sheet(
        data, game):
    forms, rules = KINDS[game]
    players = data.draw(st.integers(2, 4))
    history = History(Sheet.new(game, NAMES[:players]))
    for _ in range(data.draw(st.integers(0, 25))):
        form = data.draw(st.sampled_from(forms))
        line = "add " + form.format(
            n=data.draw(st.sampled_from(NAMES[:players])), row=data.draw(st.sampled_from(ROWS)),
            dice=" ".join(map(str, data.draw(st.lists(st.integers(1, 6), min_size=5,
                                                      max_size=5)))),
            points=data.draw(st.integers(0, 30)))
        try:
            history = history.do(line)
        except KastkoppError:
            continue  # refused: nothing changed
    emptied = history.undo(len(history.changes)) if history.changes else history
    assert emptied.sheet == history.start == Sheet.new(game, NAMES[:players])
    assert emptied.sheet.derive() == Sheet.new(game, NAMES[:players]).derive()
    name, values = data.draw(st.sampled_from(rules))
    value = data.draw(st.sampled_from(values))
    try:
        changed = history.do(f"set {name}={value}").sheet
    except KastkoppError:
        return  # a rule combination the game refuses
    fresh = dataclasses.replace(Sheet.new(game, NAMES[:players], **{name: value}),
                                entries=history.sheet.entries)
    assert changed.derive() == fresh.derive()
    reread = files.loads(files.dumps(history.do(f"set {name}={value}")))
    assert reread.sheet.derive() == fresh.derive()


# --------------------------------------------------------------------------- pots


def test_a_pot_goes_to_its_winner_and_the_balances_sum_to_zero():
    sheet = Sheet.new("knack", ["Anna", "Ben", "Cara"]).add("Anna 3 Ben 3 Cara 5 won Cara")
    sheet = sheet.add("Anna 1 Ben 1 Cara 1 won Anna Ben")  # 3 shared: the odd one to Anna
    balances = {s.name: s.count for s in sheet.derive().standings}
    assert balances == {"Anna": -2, "Ben": -3, "Cara": 5}
    assert sum(balances.values()) == 0
    assert places(sheet) == {"Cara": 1, "Anna": 2, "Ben": 3}


def test_double_knock_wins_back_or_pays_the_share_of_the_last_pot():
    sheet = Sheet.new("knack", ["Anna", "Ben", "Cara"]).add("Anna 3 Ben 3 Cara 6 won Cara")
    won = sheet.add("double Ben won")  # the share is 12 // 3 = 4
    assert {s.name: s.count for s in won.derive().standings} == {"Anna": -3, "Ben": 1,
                                                                "Cara": 2}
    lost = sheet.add("double Ben lost")
    assert {s.name: s.count for s in lost.derive().standings}["Ben"] == -7
    with pytest.raises(IllegalAction, match="already double-knocked"):
        lost.add("double Ben won")
    with pytest.raises(IllegalAction, match="only a loser asks"):
        sheet.add("double Cara won")
    flagged = won.set_rule("double_knock", "off").derive()
    assert "not played here" in flagged.flags[0].reason
    with pytest.raises(IllegalAction, match="no double knock in this game"):
        Sheet.new("linka", ["Anna", "Ben"]).add("double Ben won")


def test_nobody_pays_more_than_the_purse_or_less_than_the_ante():
    sheet = Sheet.new("linka", ["Anna", "Ben"], purses="5,20", ante=2)
    with pytest.raises(IllegalAction, match="Anna: a bet of 6 is more than the 5 left"):
        sheet.add("Anna 6 Ben 6 won Ben")
    with pytest.raises(IllegalAction, match="ante of 2; Ben paid 1"):
        sheet.add("Anna 2 Ben 1 won Anna")
    with pytest.raises(IllegalAction, match="Ben paid nothing"):
        sheet.add("Anna 2 won Ben")
    done = sheet.add("Anna 5 Ben 5 won Ben")
    assert done.derive().finished  # Anna cannot pay the ante any more
    assert done.derive().standings[0].extra == {"purse": 0}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pots=st.lists(st.tuples(st.lists(st.integers(1, 9), min_size=3, max_size=3),
                               st.sets(st.integers(0, 2), min_size=1)), max_size=12))
def test_pot_balances_always_sum_to_zero(pots):
    sheet = Sheet.new("knack", NAMES[:3], purse=1000)
    for paid, winners in pots:
        entry = " ".join(f"{n} {a}" for n, a in zip(NAMES, paid, strict=False))
        sheet = sheet.add(f"{entry} won " + " ".join(NAMES[w] for w in sorted(winners)))
    assert sum(s.count for s in sheet.derive().standings) == 0


# --------------------------------------------------------------------------- Yatzy family


def yatzy(*entries, **rules) -> Sheet:
    sheet = Sheet.new("yatzy", ["Anna", "Ben"], **rules)
    for entry in entries:
        sheet = sheet.add(entry)
    return sheet


def totals(sheet: Sheet) -> dict[str, int | float]:
    return {s.name: s.count for s in sheet.derive().standings}


def test_yatzy_rows_entered_as_dice_are_scored_by_the_rule_set():
    sheet = yatzy("Anna fours 4 4 4 1 2", "Ben full house 3 3 5 5 5", "Anna chance 66554")
    assert totals(sheet) == {"Anna": 38, "Ben": 21}
    three = sheet.set_rule("upper", "three").set_rule("full_house", "25")
    assert totals(three) == {"Anna": 26, "Ben": 25}  # fours: (3 - 3) x 4 = 0


def test_a_rule_change_flags_the_rows_it_makes_impossible_and_keeps_the_rest():
    sheet = yatzy("Anna small straight 1 2 3 4 6", "Ben fours 16", preset="tarningspoker")
    assert totals(sheet) == {"Anna": 30, "Ben": 16}
    changed = sheet.set_rule("sheet", "yatzy").set_rule("upper", "three")
    flags = [f.reason for f in changed.derive().flags]
    assert flags == ["1 2 3 4 6 is not Small straight: to cross the row out write 'Anna "
                     "small-straight 0'",
                     "16 is not a possible score in Fours (-12, -8, -4, 0, 4, 8)"]
    assert totals(changed) == {"Anna": 0, "Ben": 0} and len(changed.entries) == 2
    assert changed.derive().grid[4][2] == "(16) !"


def test_the_upper_bonus_and_the_terningspoker_average_are_derived():
    rows = [f"Anna {row} {face}{face}{face}{face}1" for face, row in
            enumerate(["ones", "twos", "threes", "fours", "fives", "sixes"], start=1)]
    sheet = yatzy(*rows)
    assert totals(sheet)["Anna"] == 5 + 8 + 12 + 16 + 20 + 24 + 50
    poker = yatzy(*rows, "Ben ones 1 2 3 4 5", preset="terningspoker")
    # (count - 3) x face: five ones +2, then four of each face +face; the sum >= 0 earns 50
    assert totals(poker) == {"Anna": 2 + 2 + 3 + 4 + 5 + 6 + 50, "Ben": -2}
    assert {s.name: s.extra["result"] for s in poker.derive().standings} == {
        "Anna": 37, "Ben": -37}


def test_terningspoker_dashes_are_not_zeros_and_chance_cannot_be_crossed_out():
    parts = ("Anna ones 11123", "Anna twos 22234", "Anna threes 33312", "Anna fours 44412",
             "Anna fives 55512", "Anna sixes 66612")
    sheet = yatzy(*parts, "Anna pair -", "Anna two pairs 0", preset="terningspoker")
    grid = {row[0]: row[1] for row in sheet.derive().grid}
    assert grid["One pair"] == "–" and grid["Two pairs"] == "–"
    with pytest.raises(IllegalAction, match="Chance is always made"):
        sheet.add("Anna chance -")
    # Scandinavian sheets write a row not made as 0
    assert yatzy("Ben pair -").derive().grid[9] == ("One pair", None, "0")


def test_yahtzee_joker_and_extra_yahtzee_bonus_come_from_the_game():
    sheet = yatzy("Anna yatzy 5 5 5 5 5", preset="yahtzee")
    with pytest.raises(IllegalAction, match="goes in its upper row"):
        sheet.add("Anna chance 5 5 5 5 5")
    sheet = sheet.add("Anna fives 5 5 5 5 5")
    assert totals(sheet)["Anna"] == 50 + 25 + 100


def test_the_example_in_the_format_document_reads():
    doc = (Path(__file__).parents[1] / "docs" / "sheet-format.md").read_text(encoding="utf-8")
    example = doc.split("```text\n", 1)[1].split("```", 1)[0]
    history = files.loads(example, "docs/sheet-format.md")
    assert history.sheet.names == ["Anna", "Dora", "Bengt", "Cara"]
    assert history.undone == ("add loss Cara",)
    assert {s.name: s.count for s in history.sheet.derive().standings} == {
        "Anna": 3, "Dora": 3, "Bengt": 2, "Cara": 3}


def test_seed_003_setting_names_are_understood_and_written_as_the_games():
    assert Sheet.new("liars_dice", ["Anna", "Ben"], startingDice="3").rules.dice == 3
    sheet = seed_sheet().set_rule("startingDice", "3")
    assert sheet.rules.dice == 3 and places(sheet) == {"Anna": 1, "Cara": 2, "Ben": 3}
    history = History(Sheet.new("liars_dice", ["Anna", "Ben"])).do("set exactCall=false")
    assert history.changes == ("set exact_call=off",)
    assert history.sheet.set_rule("keepEliminated", "false").rules.keep_eliminated is False


# --------------------------------------------------------------------------- Liar Dice


def test_liar_dice_match_is_won_by_the_first_to_more_than_half():
    sheet = Sheet.new("poker_dice", ["Anna", "Bo"]).add("Anna").add("draw").add("won Bo")
    assert not sheet.derive().finished
    sheet = sheet.add("Anna")
    derived = sheet.derive()
    assert derived.finished and [w.name for w in derived.winners] == ["Anna"]
    assert derived.grid[2][1:3] == ("=", "=")  # a drawn game counts for nobody
    with pytest.raises(IllegalAction, match="the match is over: Anna 2, Bo 1"):
        sheet.add("Bo")
    longer = sheet.set_rule("best_of", "5")
    assert not longer.derive().finished and totals(longer) == {"Anna": 2, "Bo": 1}
    with pytest.raises(RuleError, match="odd number"):
        sheet.set_rule("best_of", "4")
    flagged = sheet.set_rule("five_aces", "off").derive()
    assert "five aces" in flagged.flags[0].reason and flagged.flags[0].entry == 1


def test_liar_dice_chouette_the_winner_stays_the_loser_queues():
    sheet = Sheet.new("poker_dice", ["Anna", "Bo", "Cara"]).add("Bo").add("Cara")
    with pytest.raises(IllegalAction, match="Bo was not at the table \\(Cara against Anna\\)"):
        sheet.add("Bo")
    sheet = sheet.insert("Dan").add("Cara").add("Cara")  # Dan joins the end of the queue
    derived = sheet.derive()
    assert derived.grid[3][1:5] == ("lost", None, "won", None)
    assert derived.grid[4][1:5] == (None, "lost", "won", None)
    # by games won, then fewest lost: Dan, who has not played yet, is ahead of Anna
    assert {s.name: (s.place, s.count, s.extra["lost"]) for s in derived.standings} == {
        "Anna": (4, 0, 2), "Bo": (2, 1, 2), "Cara": (1, 3, 0), "Dan": (3, 0, 0)}
    assert not derived.finished
