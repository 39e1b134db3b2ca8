"""``solve knack``: Knack's solver on the command line."""

from __future__ import annotations

import typer

from kastkopp.cli.options import AsJson, HouseRules, Preset
from kastkopp.cli.solve import progress, rules_of, solve_app
from kastkopp.cli.support import console, friendly, printed, rich_table, say


@solve_app.command("knack")
@friendly
def solve_knack(
    preset: Preset = None,
    rule: HouseRules = None,
    versus: str = typer.Option(None, "--versus", help="also play the equilibrium bot off "
                               "against this bot, exactly (every position, no sampling)"),
    as_json: AsJson = False,
) -> None:
    """Heads-up Knack: every position's value and best move, by backward induction."""
    from kastkopp.engine import RuleError
    from kastkopp.games import load
    from kastkopp.games.knack import KnackRules
    from kastkopp.strategy import make_bot
    from kastkopp.strategy.knack_equilibrium import match_value, solve

    rules = rules_of(KnackRules, preset, rule)
    with progress(say("solving"), 1):
        solution = solve(rules)
    data = solution.to_json()
    if versus is not None:
        if versus == "random":
            raise RuleError("the play-off asks each bot once per position, so it needs a "
                            "bot that chooses without chance (not random)")
        game = load("knack", players=2, **rules.changed())
        mine, theirs = make_bot(game, "equilibrium"), make_bot(game, versus)
        with progress(say("playing off against {bot}", bot=versus), 1):
            first = match_value(rules, (mine, theirs))
            second = -match_value(rules, (theirs, mine))
        data["versus"] = {"bot": versus, "as_seat_0": first, "as_seat_1": second,
                          "mean": (first + second) / 2}
    if printed(data, as_json):
        return
    console.print(say("Seat 0's value: {value} koppar per pot (residual {residual} after "
                      "{iterations} throws iterated, {seconds} s)",
                      value=f"[bold]{solution.first_value:+.6f}[/]",
                      residual=f"{solution.residual:.1e}", iterations=solution.iterations,
                      seconds=f"{solution.seconds:.1f}"), highlight=False)
    console.print(say("Double knock: never ask for one; always grant it (asking costs the "
                      "loser {cost} × the stake).",
                      cost=f"{data['double_knock']['asking_costs_per_stake']:.3f}"))
    table = rich_table(title=say("Raises at the ante (the worst placed bets; the rest knock)"))
    for column in (say("seat 0 kept"), say("seat 1 kept"), say("bettor"), say("raise"),
                   say("seat 0's value")):
        table.add_column(column)
    for row in data["positions"]:
        if row["raise"]:
            table.add_row(" ".join(map(str, row["seat0"])) or "-",
                          " ".join(map(str, row["seat1"])) or "-", str(row["bettor"]),
                          str(row["raise"]), f"{row['value']:+.4f}")
    console.print(table)
    if "versus" in data:
        v = data["versus"]
        console.print(say("The equilibrium bot against {bot}: {first} koppar per pot as seat "
                          "0, {second} as seat 1 (exactly)", bot=v["bot"],
                          first=f"{v['as_seat_0']:+.6f}", second=f"{v['as_seat_1']:+.6f}"),
                      highlight=False)
