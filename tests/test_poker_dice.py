"""Liar Dice / Poker Menteur (seed 002): the hand order, the notation and every game rule."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from kastkopp.dice import ScriptedDice, SeededDice
from kastkopp.engine import IllegalAction, RuleError, Table, play_out
from kastkopp.games import load
from kastkopp.games.poker_dice import (
    ORDINARY,
    POKER,
    Announce,
    Doubt,
    Hand,
    HandClass,
    Reroll,
    hands,
    parse_action,
    parse_hand,
)
from kastkopp.strategy.odds import odds_for
from kastkopp.strategy.poker_dice_odds import hand_chances, reroll_table

# One example of every class, worst first, on poker dice (faces: 1=9 2=T 3=J 4=Q 5=K 6=A).
CLASS_EXAMPLES = {
    HandClass.NOTHING: "A Q J T 9",
    HandClass.ONE_PAIR: "2x9 A K Q",
    HandClass.TWO_PAIR: "2A 2K Q",
    HandClass.THREE_OF_A_KIND: "3T A Q",
    HandClass.LOW_STRAIGHT: "K Q J T 9",
    HandClass.HIGH_STRAIGHT: "A K Q J T",
    HandClass.FULL_HOUSE: "3x9 2T",
    HandClass.FOUR_OF_A_KIND: "4x9 T",
    HandClass.FIVE_OF_A_KIND: "5x9",
}


def h(text: str, dice: str = POKER) -> Hand:
    return parse_hand(text, dice)


# --------------------------------------------------------------------------- the hand order


def test_every_class_example_reads_as_its_class():
    for cls, text in CLASS_EXAMPLES.items():
        assert h(text).hand_class == cls, text


@pytest.mark.parametrize(("low", "high"), list(itertools.combinations(HandClass, 2)))
def test_a_higher_class_beats_every_hand_of_a_lower_class(low, high):
    # the best hand of the lower class against the worst hand of the higher class
    best_low = max(x for x in hands() if x.hand_class == low)
    worst_high = min(x for x in hands() if x.hand_class == high)
    assert worst_high > best_low
    assert h(CLASS_EXAMPLES[high]) > h(CLASS_EXAMPLES[low])


def test_kickers_break_ties_as_in_card_poker():
    assert h("3T A Q") > h("3T A 9")  # the seed's example
    assert h("3T A Q") > h("3T K Q")
    assert h("3J 9 T") > h("3T A K")  # the triple counts before any kicker
    assert h("2K 2Q A") > h("2K 2Q J")
    assert h("2K 2x9 T") > h("2Q 2J A")  # the higher pair decides first
    assert h("2A K Q J") > h("2A K Q T")
    assert h("3A 2x9") > h("3K 2A")  # a full house is ranked by its three first
    assert h("4Q A") > h("4Q K")
    assert h("5T") > h("5x9")
    assert h("A K Q T 9") > h("A K J T 9") > h("A Q J T 9")


def test_equal_hands_are_equal_whatever_order_the_dice_fell():
    a = Hand.of((2, 6, 2, 4, 2))
    b = Hand.of((4, 2, 2, 2, 6))
    assert a == b and not a < b and not b < a and a <= b and a >= b
    assert hash(a) == hash(b)


@pytest.mark.parametrize("dice", [POKER, ORDINARY])
def test_the_order_is_total_over_all_252_throws(dice):
    every = hands(dice)
    assert len(every) == 252
    assert all(a < b for a, b in itertools.pairwise(every))
    assert every[-1].hand_class == HandClass.FIVE_OF_A_KIND
    assert str(every[-1]) == "5A"


def test_poker_dice_straights_are_ace_to_ten_and_king_to_nine():
    assert Hand.of((2, 3, 4, 5, 6)).hand_class == HandClass.HIGH_STRAIGHT
    assert Hand.of((1, 2, 3, 4, 5)).hand_class == HandClass.LOW_STRAIGHT
    assert h("A K Q J 9").hand_class == HandClass.NOTHING


def test_ordinary_dice_have_the_ace_high_and_the_seeds_straights():
    assert h("6 5 4 3 2", ORDINARY).hand_class == HandClass.HIGH_STRAIGHT
    assert h("5 4 3 2 A", ORDINARY).hand_class == HandClass.LOW_STRAIGHT
    assert h("A 6 5 4 3", ORDINARY).hand_class == HandClass.NOTHING
    assert h("2A 6 5 4", ORDINARY) > h("2x6 5 4 3", ORDINARY)
    assert h("5A", ORDINARY) > h("5x6", ORDINARY)
    assert h("6 5 4 3 2", ORDINARY) > h("5 4 3 2 A", ORDINARY) > h("3A 5 4", ORDINARY)


def test_one_throw_chances_are_exact():
    chances = hand_chances()
    assert sum(chances.values()) == 1
    straight = sum(p for x, p in chances.items() if x.hand_class == HandClass.HIGH_STRAIGHT)
    assert straight == pytest.approx(120 / 7776)
    assert chances[h("5A")] == pytest.approx(1 / 7776)


# --------------------------------------------------------------------------- the notation


@pytest.mark.parametrize("dice", [POKER, ORDINARY])
def test_every_hand_reads_back_from_its_short_form_and_its_names(dice):
    for hand in hands(dice):
        assert parse_hand(str(hand), dice) == hand, str(hand)
        assert parse_hand(hand.dice_text(), dice) == hand, hand.dice_text()
        for lang in ("en", "sv", "da"):
            assert parse_hand(hand.name(lang), dice) == hand, hand.name(lang)


def test_announcements_are_read_in_english_swedish_and_danish():
    expected = h("3T A Q")
    for text in ("three tens, an ace and a queen", "tre tior, ett ess och en dam",
                 "tre tiere, et es og en dronning", "3T A Q", "T T T A Q", "3xT Q A",
                 "3 tens A Q", "three 10s, ace, queen"):
        assert parse_hand(text) == expected, text
    assert parse_hand("fire drenge og en konge") == h("4J K")
    assert parse_hand("high straight") == parse_hand("stor stege") == parse_hand("høj lige")
    assert parse_hand("lav straight") == h("K Q J T 9")
    assert parse_hand("full house, three aces and two queens") == h("3A 2Q")
    assert str(parse_hand("three fours, an ace and a six", ORDINARY)) == "3x4 A 6"
    assert parse_hand("tre fyror, ett ess och en sexa", ORDINARY) == h("3x4 A 6", ORDINARY)


@pytest.mark.parametrize("text", ["3T 3A", "three tens", "5A K", "three tens and seven",
                                  "straight", "two three aces"])
def test_a_text_that_is_not_five_dice_is_not_a_hand(text):
    with pytest.raises(IllegalAction):
        parse_hand(text)


def test_action_notation_round_trips():
    for text in ("announce 3T A Q", "reroll Q T 9", "doubt", "accept"):
        assert str(parse_action(text)) == text
    assert parse_action("tvivla") == Doubt()
    assert parse_action("slå Q 9") == Reroll((1, 4))
    assert parse_action("tre tior, ett ess och en dam") == Announce(h("3T A Q"))
    assert str(parse_action("reroll A 2", ORDINARY)) == "reroll A 2"


# --------------------------------------------------------------------------- the game

TTTAQ = (2, 2, 2, 6, 4)  # three tens, ace, queen
NINES = (1, 1, 3, 5, 6)  # two nines, ace, king, jack
ACES = (6, 6, 6, 6, 6)


def dealt(first=TTTAQ, second=NINES, opening=(6, 1), **rules):
    """Seat 0 rolls A, seat 1 rolls 9 (seat 0 calls first); then the deal."""
    game = load("poker_dice", **rules)
    state = game.new_state()
    for face in opening:
        state = state.resolve((face,))
    return state.resolve(first).resolve(second)


def test_the_higher_opening_die_calls_first():
    game = load("poker_dice")
    state = game.new_state()
    assert state.chance().count == 1 and not state.chance().private
    state = state.resolve((2,)).resolve((5,))  # 10 against K
    assert state.caller == 1
    assert state.chance().seat == 1 and state.chance().private  # the caller throws first


def test_equal_opening_dice_are_rolled_again():
    state = load("poker_dice").new_state().resolve((4,)).resolve((4,))
    assert state.caller is None and state.chance().seat == 0
    state = state.resolve((3,)).resolve((1,))
    assert state.caller == 0
    assert state.view(None)["opening"] == [["Q", "Q"], ["J", "9"]]


def test_with_ordinary_dice_the_ace_wins_the_opening_roll():
    state = load("poker_dice", preset="ace_high").new_state().resolve((6,)).resolve((1,))
    assert state.caller == 1


def test_the_first_caller_announces_without_rerolling_or_doubting():
    state = dealt()
    assert state.to_move() == 0
    legal = state.legal_actions()
    assert all(isinstance(a, Announce) for a in legal) and len(legal) == 252
    with pytest.raises(IllegalAction, match="first call"):
        state.apply("reroll Q")
    with pytest.raises(IllegalAction, match="nothing to doubt"):
        state.apply("doubt")


def test_doubting_a_false_announcement_wins_for_the_doubter():
    state = dealt().apply("announce 4T A").apply("doubt")
    assert state.is_over() and state.outcome().winners == (1,)


@pytest.mark.parametrize("claim", ["3T A Q", "3T A J", "2A K Q J"])
def test_a_true_or_understated_announcement_wins_when_doubted(claim):
    state = dealt().apply(f"announce {claim}").apply("doubt")
    assert state.outcome().winners == (0,)
    assert state.view(1)["revealed"] == ["T T T A Q", "9 9 A K J"]


def test_accepting_means_announcing_higher():
    state = dealt().apply("announce 3T A Q")
    with pytest.raises(IllegalAction, match="lowest legal announcement is '3T A K'"):
        state.apply("announce 3T A 9")
    state = state.apply("announce 3T A K")
    assert state.to_move() == 0 and str(state.claim) == "3T A K"


def test_a_player_who_has_thrown_must_announce():
    state = dealt().apply("announce 3T A Q").apply("reroll J 9 9")
    assert state.chance().seat == 1 and state.chance().count == 3
    state = state.resolve((1, 2, 3))
    assert Doubt() not in state.legal_actions()
    with pytest.raises(IllegalAction, match="must announce"):
        state.apply("doubt")
    assert state.throws == (1, 2)
    assert sorted(state.dice[1]) == [1, 2, 3, 5, 6]


def test_nobody_throws_more_than_three_times_in_a_game():
    state = dealt().apply("announce 2x9 A K Q")
    state = state.apply("reroll 9").resolve((1,)).apply("reroll 9").resolve((1,))
    assert state.throws == (1, 3)
    assert not any(isinstance(a, Reroll) for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="thrown 3 times"):
        state.apply("reroll A")
    state = state.apply("announce 3x9 A K").apply("reroll Q").resolve((5,))
    state = state.apply("reroll K").resolve((5,))
    assert state.throws == (3, 3)


def test_the_throws_per_game_are_a_house_rule():
    state = dealt(throws=1).apply("announce 3T A Q")
    assert not any(isinstance(a, Reroll) for a in state.legal_actions())


def test_only_dice_a_player_has_can_be_picked_up():
    state = dealt().apply("announce 3T A Q")
    with pytest.raises(IllegalAction, match="dice you have: 9 9 A K J"):
        state.apply("reroll Q")


def test_five_aces_announced_can_only_be_doubted():
    state = dealt().apply("announce 5A")
    assert state.legal_actions() == [Doubt()]
    with pytest.raises(IllegalAction, match="nothing beats 5A"):
        state.apply("reroll 9")


def test_five_aces_are_shown_and_the_opponent_tries_with_his_throws_left():
    state = dealt(second=ACES)
    assert state.shown == 1 and state.to_move() == 0 and state.phase == "chase"
    assert state.view(0)["shown_dice"] == "A A A A A"
    assert {str(a) for a in state.legal_actions()} >= {"accept", "reroll Q T T T"}
    state = state.apply("reroll Q T T T").resolve((6, 6, 6, 5))
    assert state.phase == "chase"
    state = state.apply("reroll K").resolve((4,))
    assert state.is_over() and state.outcome().winners == (1,)


def test_five_aces_matched_is_a_draw_dealt_again():
    state = dealt(second=ACES).apply("reroll Q T T T").resolve((6, 6, 6, 6))
    assert state.phase == "deal" and state.replays == 1 and state.caller == 0
    assert state.throws == (0, 0) and state.claim is None
    assert state.view(1)["last_draw"] == ["A A A A A", "A A A A A"]
    state = state.resolve(TTTAQ).resolve(NINES)
    assert state.to_move() == 0 and not state.is_over()


def test_accepting_five_aces_loses():
    state = dealt(second=ACES).apply("accept")
    assert state.outcome().winners == (1,)
    with pytest.raises(IllegalAction, match="no five aces to accept"):
        dealt().apply("accept")


def test_five_aces_in_both_first_throws_is_a_draw():
    state = dealt(first=ACES, second=ACES)
    assert state.phase == "deal" and state.replays == 1


def test_five_aces_thrown_with_a_reroll_are_shown_too():
    state = dealt(second=(6, 6, 6, 6, 1)).apply("announce 3T A Q").apply("reroll 9")
    state = state.resolve((6,))
    assert state.shown == 1 and state.to_move() == 0 and state.phase == "chase"


def test_five_aces_win_at_once_when_the_opponent_has_no_throws_left():
    state = dealt(first=(6, 6, 6, 6, 1), second=NINES).apply("announce 4A 9")
    state = state.apply("reroll 9").resolve((1,)).apply("reroll 9").resolve((1,))
    state = state.apply("announce 4A T").apply("reroll 9").resolve((6,))
    assert state.is_over() and state.outcome().winners == (0,)


def test_without_the_five_aces_rule_five_aces_are_just_the_best_hand():
    state = dealt(second=ACES, five_aces=False)
    assert state.phase == "call" and state.shown is None


def test_the_opener_rule_skips_the_opening_roll():
    game = load("poker_dice").opened_by(1)
    state = game.new_state()
    assert state.chance().count == 5 and state.chance().seat == 1 and state.caller == 1
    with pytest.raises(RuleError):
        load("poker_dice", opener=3)


def test_views_show_how_many_dice_the_opponent_threw_but_not_which():
    state = dealt().apply("announce 3T A Q").apply("reroll J 9 9").resolve((1, 2, 3))
    assert state.view(0)["history"][-1]["action"] == "reroll 3 dice"
    assert state.view(1)["history"][-1]["action"] == "reroll J 9 9"
    assert "your_faces" not in state.view(None)
    assert state.view(0)["your_hand"] == "3T A Q"


def test_a_bad_announcement_names_the_lowest_legal_one():
    state = dealt()
    with pytest.raises(IllegalAction, match="lowest legal announcement is 'A Q J T 9'"):
        state.apply("announce 3T 3A")
    state = state.apply("announce 3T A Q")
    with pytest.raises(IllegalAction, match="lowest legal announcement is '3T A K'"):
        state.apply("announce seven tens")
    with pytest.raises(IllegalAction, match="lowest legal announcement is '3T A K'"):
        state.apply("announce 2K 2Q A")


def test_a_game_replays_from_its_log():
    rolls = [(6,), (1,), TTTAQ, NINES, (1, 2, 3)]
    table = Table(load("poker_dice"), seats=["Anna", "Bo"], dice=ScriptedDice(rolls=rolls))
    table.act(0, "announce three tens, an ace and a queen")
    table.act(1, "reroll J 9 9")
    table.act(1, "announce 3T A K")
    table.act(0, "doubt")
    assert table.state.outcome().winners == (0,)
    replayed = Table.loads(json.dumps(table.to_json()))
    assert replayed.state == table.state
    text = table.game.render(table.state.view(0), table.seats)
    assert "Anna won" in text and "three tens" in text


def test_odds_tables():
    game = load("poker_dice")
    rows = odds_for(game)
    assert rows[0]["class"] == "five of a kind" and rows[-1]["at_least"] == 1.0
    reach = odds_for(game, hand="3T A Q")
    assert [r["throws"] for r in reach] == [1, 2, 3]
    assert reach[0]["at_least"] == pytest.approx(
        float(sum(p for x, p in hand_chances().items() if x >= h("3T A Q"))))
    assert reach[0]["at_least"] < reach[1]["at_least"] < reach[2]["at_least"]
    with pytest.raises(RuleError):
        odds_for(game, target="x")


def test_reroll_odds_are_exact():
    """Keeping three tens and throwing two dice again reaches a full house of tens or better
    with a pair (6/36) or at least one more ten (10/36 one, 1/36 two, the pair counted once)."""
    table = reroll_table()
    target = h("3T 2x9")  # the lowest full house of tens
    chances = dict(table.choice_chances(TTTAQ, POKER, target.strength, 1))
    assert chances[(4, 6)] == pytest.approx(16 / 36)  # pick up the queen and the ace
    assert chances[(4,)] == pytest.approx(1 / 6 + 1 / 6)  # a queen again, or a ten
    rng = random.Random(5)
    hits = sum(Hand.of((2, 2, 2, rng.randint(1, 6), rng.randint(1, 6))) >= target
               for _ in range(20_000))
    assert chances[(4, 6)] == pytest.approx(hits / 20_000, abs=0.015)


# --------------------------------------------------------------------------- the bots


def strong_bot(preset=None):
    from kastkopp.strategy import make_bot

    return make_bot(load("poker_dice", preset=preset), "strong")


def test_the_strong_bot_picks_up_the_dice_that_best_reach_the_next_hand():
    state = dealt(first=NINES, second=TTTAQ).apply("announce 2x9 A K J")
    # seat 1 has three tens: to beat a pair it already holds the truth
    action = strong_bot().choose(state.view(1), state.legal_actions(), random.Random(0))
    assert action == Announce(h("3T A Q"))
    # to beat three aces it needs a straight or better: throwing the queen and the ace at
    # the three tens gives a full house or four tens 16 times in 36
    state = dealt(first=NINES, second=TTTAQ).apply("announce 3A K Q")
    state = state.apply("reroll Q").resolve((4,))
    action = strong_bot().choose(state.view(1), state.legal_actions(), random.Random(0))
    assert action == Reroll((4, 6))


def test_the_strong_bot_doubts_an_unlikely_first_announcement():
    state = dealt().apply("announce 4K A")
    action = strong_bot().choose(state.view(1), state.legal_actions(), random.Random(0))
    assert action == Doubt()


def test_the_strong_bot_chases_five_aces_with_every_other_die():
    state = dealt(first=(6, 6, 2, 2, 4), second=ACES)
    action = strong_bot().choose(state.view(0), state.legal_actions(), random.Random(0))
    assert action == Reroll((2, 2, 4))


def win_rate(game, first, second, games, seed):
    """How often bot ``first`` beats bot ``second``, the two taking turns in seat 0."""
    from kastkopp.strategy import make_bot

    rng = random.Random(seed)
    wins = 0
    for i in range(games):
        bots = [make_bot(game, first), make_bot(game, second)]
        seat = i % 2
        if seat:
            bots.reverse()
        wins += play_out(Table(game, dice=SeededDice(seed + i)), bots, rng).winners == (seat,)
    return wins / games


@pytest.mark.parametrize("preset", [None, "ace_high"])
def test_the_strong_bot_beats_random_play(preset):
    assert win_rate(load("poker_dice", preset=preset), "strong", "random", 200, 11) > 0.75


def test_the_strong_bot_beats_the_simple_bot():
    # about 70% over 2000 games; 300 games fall below 58% with odds far under 1 in 1000
    assert win_rate(load("poker_dice"), "strong", "simple", 300, 7) > 0.58


def test_reroll_odds_agree_with_exact_enumeration():
    """The table's best single reroll, against counting every pick and every fall by hand."""
    from fractions import Fraction

    from kastkopp.dice import multisets
    from kastkopp.games.poker_dice import remove, sub_multisets

    table = reroll_table()
    rng = random.Random(3)
    every = hands()
    for _ in range(4):
        faces = tuple(sorted(rng.randint(1, 6) for _ in range(5)))
        for target in (every[60], every[150], every[230]):
            best = Fraction(int(Hand(faces) >= target))
            for pick in sub_multisets(faces):
                kept = remove(faces, pick)
                chance = sum((p for new, p in multisets(len(pick))
                              if Hand.of(kept + new) >= target), Fraction(0))
                best = max(best, chance)
            got = table.reach(POKER, target.strength, 1)[table.index[faces]]
            assert got == pytest.approx(float(best)), (faces, str(target))


def test_odds_for_each_reroll_choice():
    game = load("poker_dice")
    rows = odds_for(game, hand="5A", dice="A A J 9 A")
    assert rows[0] == {"reroll": "-", "keep": "A A A J 9", "at_least": 0.0}
    assert rows[1]["reroll"] == "J 9" and rows[1]["keep"] == "A A A"
    assert rows[1]["at_least"] == pytest.approx((11 / 36) ** 2)  # each die: 1/6 + 5/6 · 1/6
    one = odds_for(game, hand="3T 2x9", dice="T T T A Q", rerolls="1")
    assert next(r for r in one if r["reroll"] == "A Q")["at_least"] == pytest.approx(16 / 36)
    for bad in ({"dice": "A A"}, {"hand": "5A", "dice": "A A J 9"},
                {"hand": "5A", "dice": "A A J 9 A", "rerolls": "3"}):
        with pytest.raises((RuleError, IllegalAction)):
            odds_for(game, **bad)


def test_the_strong_bot_believes_a_claim_made_without_rerolling_more():
    bot = strong_bot()
    opening = dealt().apply("announce 3K A Q")
    first = bot.claim_true(opening.view(1), h("3K A Q"))
    assert first == pytest.approx(bot.reached_fresh(h("3K A Q"), 1))
    stood = dealt().apply("announce 2x9 A K Q").apply("announce 3K A Q")
    assert bot.claim_true(stood.view(0), h("3K A Q")) > first
    rerolled = dealt().apply("announce 2x9 A K Q").apply("reroll 9").resolve((1,))
    rerolled = rerolled.apply("announce 3K A Q")
    assert bot.claim_true(rerolled.view(0), h("3K A Q")) == pytest.approx(
        bot.reached_fresh(h("3K A Q"), 2))


def test_without_the_five_aces_rule_a_game_ends_within_its_declared_length():
    game = load("poker_dice", five_aces=False)
    length = game.bounds().length
    assert length is not None and load("poker_dice").bounds().length is None
    for seed in range(20):
        table = Table(game, dice=SeededDice(seed))
        rng = random.Random(seed)
        actions = 0
        while not table.state.is_over() and actions <= length:
            table.act(table.state.to_move(), rng.choice(table.state.legal_actions()))
            actions += 1
        assert table.state.is_over() and actions <= length
