"""``solve mia``: Slosch (Mia)'s solver on the command line."""

from __future__ import annotations

import typer

from kastkopp.cli.options import AsJson, HouseRules, Preset
from kastkopp.cli.solve import percent, progress, rules_of, solve_app
from kastkopp.cli.support import console, friendly, printed, rich_table, say


@solve_app.command("mia")
@friendly
def solve_mia(
    preset: Preset = None,
    rule: HouseRules = None,
    passes: int = typer.Option(1, "--passes", min=0, max=5,
                               help="how often one claim may be passed on in a row (the "
                               "rules: once)"),
    target: float = typer.Option(1e-4, "--target", min=1e-9, max=0.1,
                                 help="exploitability to reach in every subgame, in lives"),
    as_json: AsJson = False,
) -> None:
    """Heads-up Slosch: the equilibrium of one exchange (announce, believe, call, pass)."""
    from kastkopp.games.mia import MiaRules
    from kastkopp.strategy.mia_equilibrium import solve

    rules = rules_of(MiaRules, preset, rule)
    with progress(say("solving"), len(rules.values)) as update:
        eq = solve(rules, passes=passes, target=target,
                   progress=lambda done, total: update(done))
    data = eq.to_json()
    if printed(data, as_json):
        return
    console.print(say("First player's value: {value} lives per exchange (exploitability "
                      "{gap}, {seconds} s)", value=f"[bold]{eq.value:+.4f}[/]",
                      gap=f"{eq.exploitability:.1e}", seconds=f"{eq.seconds:.1f}"))
    console.print(say("The opening announcement, and how it is answered"), style="bold")
    legend = mia_legend()
    table = rich_table()
    for column, _ in legend:
        table.add_column(column, justify="right")
    for row in data["opening"]:
        table.add_row(row["value"], *(percent(row.get(c)) for c in
                                      ("truth", "bluff", "claimed", "true", "call", "roll",
                                       "pass")))
    console.print(table)
    told = rich_table(show_header=False, box=None, padding=(0, 2, 0, 0))
    told.add_column(no_wrap=True)
    told.add_column()  # a long meaning wraps under itself, within 80 columns
    for column, meaning in legend:
        told.add_row(column, meaning)
    console.print(told, highlight=False)


def mia_legend() -> list[tuple[str, str]]:
    """The columns of ``solve mia``, each with what it means, in the player's language."""
    return [
        (say("value"), say("what the first roller has in the cup, worst first")),
        (say("truth"), say("how often the roller announces exactly that value")),
        (say("bluff"), say("how often the roller announces more than that value")),
        (say("claimed"), say("how often the roller announces that value at all, whatever "
                             "the cup shows")),
        (say("true"), say("of those announcements, how often the cup holds at least that "
                          "value")),
        (say("call"), say("how often the other player lifts the cup on that announcement")),
        (say("roll"), say("how often the other player believes it and rolls on")),
        (say("pass"), say("how often the other player believes it and passes the cup on "
                          "unseen")),
    ]
