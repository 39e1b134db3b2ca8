"""The search bot of liar's dice: legal through whole games, its reading of the other's bids,
and its view as all it knows."""

from __future__ import annotations

import json
import random

import pytest

from kastkopp.dice import SeededDice
from kastkopp.engine import Table, play_out
from kastkopp.games import load
from kastkopp.games.liars_dice import Bid, LiarsRules
from kastkopp.strategy import bot_names, make_bot
from kastkopp.strategy.liars_dice import NaiveLiarsBot, StrongLiarsBot
from kastkopp.strategy.liars_search import Round, SearchLiarsBot, cups


def rolled(start, *cups_by_seat):
    """Roll the cups of a round (``start``: a game, or a state between rounds)."""
    state = start.new_state() if hasattr(start, "new_state") else start
    while (chance := state.chance()) is not None:
        state = state.resolve(cups_by_seat[chance.seat])
    return state


def test_the_bot_is_listed():
    assert "search" in bot_names("liars_dice")


@pytest.mark.parametrize("preset", sorted(LiarsRules.PRESETS))
def test_the_bot_plays_legal_moves_through_whole_games_at_every_preset(preset):
    # three dice each keep it short; a third player in one game takes the strong bot's way
    for players, seed in ((2, 1), (2, 2), (3, 3)):
        game = load("liars_dice", preset=preset, players=players, dice=3)
        names = ["search", "strong", "naive"][:players]
        table = Table(game, dice=SeededDice(seed))  # an illegal move raises in table.act
        outcome = play_out(table, [make_bot(game, n) for n in names], random.Random(seed))
        assert table.state.is_over() and len(outcome.ranking) >= 2


def test_a_bid_of_two_fives_makes_the_cups_with_two_fives_likely_exactly_as_computed():
    # two dice each, seat 0 opens 2x5. The strong bot opens its highest bid that holds at
    # least 60% of the time (one time in ten any such bid): that is 2x5 only with two dice
    # counting for fives, and with two ones it has ten such bids.
    game = load("liars_dice", preset="perudo", players=2, dice=2)
    state = rolled(game, (5, 5), (2, 3)).apply("bid 2x5")
    rnd = Round.of(game, state.view(1))
    belief = SearchLiarsBot(game, kinds=(1.0, 0.0, 0.0), slip=0.0).belief(rnd)
    rolls, prior = cups(2, 6)
    assert belief[len(rolls):].sum() == 0  # read as the strong bot only
    likelihood = {(5, 5): 0.9 + 0.1 / 2, (1, 5): 0.9 + 0.1 / 6, (1, 1): 0.1 / 10}
    weights = {c: prior[rolls.index(c)] * p for c, p in likelihood.items()}
    for cup, weight in weights.items():
        assert belief[rolls.index(cup)] == pytest.approx(weight / sum(weights.values()))
    assert belief.sum() == pytest.approx(1.0)
    # read as any of the three kinds of player every cup stays possible, fives still gain
    soft = SearchLiarsBot(game).belief(rnd).reshape(3, len(rolls)).sum(axis=0)
    fives = [i for i, c in enumerate(rolls) if sum(d in (1, 5) for d in c) == 2]
    assert soft.min() > 0
    assert soft[fives].sum() > 0.5 > prior[fives].sum()


def test_the_model_of_the_other_picks_what_the_strong_and_naive_bots_pick_for_every_cup():
    # seat 0 opened, seat 1 (the searcher) bids; for every cup seat 0 may hold, the model
    # gives the strong bot's own answer (drawn without a bluff) at least its 90%, and the
    # naive bot's (which never bluffs) all of it
    game = load("liars_dice", preset="perudo", players=2, dice=2)
    no_bluff = next(s for s in range(100) if random.Random(s).random() >= 0.1)
    bot, strong, naive = SearchLiarsBot(game, slip=0.0), StrongLiarsBot(game), NaiveLiarsBot(game)
    rolls, _ = cups(2, 6)
    for opening in ("bid 2x4", "bid 3x6"):
        rnd = Round.of(game, rolled(game, (3, 4), (2, 6)).apply(opening).view(1))
        for ours in ("bid 4x6", "bid 2x1"):
            bid = game.parse_action(ours)
            assert isinstance(bid, Bid)
            raises, dudo, calza, raise_p = bot.their_policy(
                rnd, frozenset({bid.face}), rnd.index(bid))
            for i, cup in enumerate(rolls):
                world = rolled(game, cup, (2, 6)).apply(opening).apply(ours)
                for kind, player, least in ((0, strong, 0.9), (1, naive, 1.0)):
                    pick = player.choose(world.view(0), world.legal_actions(),
                                         random.Random(no_bluff))
                    row = kind * len(rolls) + i
                    chance = {"dudo": dudo[row], "calza": calza[row]}
                    chance.update({str(rnd.bids[j]): raise_p[row, k]
                                   for k, j in enumerate(raises)})
                    assert chance[str(pick)] >= least - 1e-9, (kind, opening, ours, cup, pick)


def test_the_choice_depends_on_the_view_only():
    game = load("liars_dice", preset="perudo", players=2, dice=3)
    bot = make_bot(game, "search")
    choices, views = set(), set()
    for hidden in ((1, 1, 5), (2, 3, 4), (6, 6, 6), (2, 2, 5)):
        state = rolled(game, hidden, (5, 5, 2)).apply("bid 3x5")
        views.add(json.dumps(state.view(1), sort_keys=True))
        choices.add(str(bot.choose(state.view(1), state.legal_actions(), random.Random(3))))
    assert len(views) == 1 and len(choices) == 1


def test_it_challenges_a_bid_its_own_cup_makes_unlikely_and_raises_on_a_sure_one():
    game = load("liars_dice", preset="perudo", players=2, dice=3)
    bot = make_bot(game, "search")
    start = rolled(game, (2, 3, 4), (2, 3, 4))
    state = start.apply("bid 5x6")  # five sixes of six dice; seat 1 holds none
    assert str(bot.choose(state.view(1), state.legal_actions(), random.Random(0))) == "dudo"
    state = start.apply("bid 1x2")  # seat 1 holds a two itself
    choice = bot.choose(state.view(1), state.legal_actions(), random.Random(0))
    assert isinstance(choice, Bid)


def test_a_palifico_opening_tells_the_face_the_opener_holds():
    # seat 0 falls to one die; in the palifico round it opens 1x4, ones not wild
    game = load("liars_dice", preset="perudo", players=2, dice=2)
    state = rolled(game, (5, 6), (2, 2)).apply("bid 2x6").apply("dudo")
    state = rolled(state, (4,), (3, 6))
    assert state.view(1)["palifico"] == 0
    rnd = Round.of(game, state.apply("bid 1x4").view(1))
    belief = SearchLiarsBot(game).belief(rnd).reshape(3, 6).sum(axis=0)
    assert belief[3] > 0.9  # the cup (4,)


def test_the_cup_lifted_last_round_tells_what_kind_of_player_the_other_is():
    # seat 0 bids as the naive bot does (the lowest bid on its best face, then a challenge
    # of a bid that would take it past half the dice); the strong bot opens 2x5 with (5, 5)
    game = load("liars_dice", preset="perudo", players=2, dice=2)
    bot = SearchLiarsBot(game, kinds=(0.4, 0.2, 0.4))  # a prior that doubts the naive kind
    state = rolled(game, (5, 5), (3, 6)).apply("bid 1x5").apply("bid 2x6").apply("dudo")
    state = rolled(state, (2, 3), (4,))
    view = state.view(1)
    assert view["last_round"]["cups"] == [[5, 5], [3, 6]]
    bot.read_last_round(view)
    strong, naive, _ = bot.kinds_now(view)
    assert naive > 2 * bot.kinds[1] and strong < bot.kinds[0] / 4
    # a new game starts from the prior again
    fresh = rolled(game, (2, 3), (4, 5)).view(1)
    bot.read_last_round(fresh)
    assert list(bot.kinds_now(fresh)) == list(bot.kinds)


def test_at_two_dice_each_it_beats_the_naive_bot_that_calls_every_bid_past_half():
    # a game of two dice each is three rounds at most, too short to learn from lifted cups
    # that the other calls: the prior leans to the naive kind, so the search leads the naive
    # bot into a bid it can challenge instead of bluffing into its call (a prior of a fifth
    # on the naive kind won 14 of these 20 games)
    game = load("liars_dice", preset="perudo", players=2, dice=2)
    wins = 0
    for n in range(20):
        search_seat = n % 2
        players = [make_bot(game, "naive"), make_bot(game, "naive")]
        players[search_seat] = make_bot(game, "search")
        table = Table(game, dice=SeededDice(11 * 1_000_003 + n))
        outcome = play_out(table, players, random.Random(11 * 7_919 + n))
        wins += search_seat in outcome.winners
    assert wins >= 19
