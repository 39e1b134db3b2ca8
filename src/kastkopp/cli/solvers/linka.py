"""``solve linka``: Linka's solver on the command line."""

from __future__ import annotations

import typer

from kastkopp.cli.options import AsJson, HouseRules, Preset
from kastkopp.cli.solve import percent, progress, rules_of, solve_app
from kastkopp.cli.support import console, friendly, printed, rich_table, say


@solve_app.command("linka")
@friendly
def solve_linka(
    preset: Preset = None,
    rule: HouseRules = None,
    fresh: bool = typer.Option(False, "--fresh", help="solve again even if cached"),
    as_json: AsJson = False,
) -> None:
    """Heads-up Linka: the betting equilibrium of one pot, exactly (a linear programme for
    every deal). Tärningsspel's example plays --rule ante=5."""
    from kastkopp.games.linka import LinkaRules
    from kastkopp.strategy.linka_equilibrium import cached_solve

    rules = rules_of(LinkaRules, preset, rule)
    with progress(say("solving"), 1) as update:
        eq = cached_solve(rules, progress=lambda done, total: update(done / total),
                          fresh=fresh)
    data = eq.to_json()
    if printed(data, as_json):
        return
    source = (say("from the cache") if eq.cached
              else say("solved in {seconds} s", seconds=f"{eq.seconds:.0f}"))
    console.print(say("First bettor's value: {value} koppar per pot (exploitability {gap}, "
                      "{source})", value=f"[bold]{eq.value:+.4f}[/]",
                      gap=f"{eq.exploitability:.1e}", source=source), highlight=False)
    table = rich_table(title=say("How each hand is bet, over every deal"))
    table.add_column(say("situation"))
    table.add_column(say("hand"))
    for column in (say("check"), say("call"), say("raise"), say("mean raise"), say("fold")):
        table.add_column(column, justify="right")
    for row in data["hands"]:
        raised = row.get("mean_raise")
        table.add_row(row["situation"], row["hand"],
                      *(percent(row.get(c)) for c in ("check", "call", "raise")),
                      "" if raised is None else f"{raised:.1f}", percent(row.get("fold")))
    console.print(table)
