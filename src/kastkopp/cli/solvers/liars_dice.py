"""``solve liars_dice``: the liar's dice solver on the command line."""

from __future__ import annotations

import typer

from kastkopp.cli.options import AsJson, HouseRules, Preset
from kastkopp.cli.solve import progress, rules_of, solve_app
from kastkopp.cli.support import console, friendly, printed, rich_table, say


@solve_app.command("liars_dice")
@friendly
def solve_liars(
    dice: int = typer.Option(1, "--dice", min=1, max=5, help="dice in each cup"),
    preset: Preset = None,
    rule: HouseRules = None,
    openspiel: bool = typer.Option(False, "--openspiel", help="OpenSpiel's rules: the "
                                   "highest face wild, bids by count then face"),
    faces: int = typer.Option(6, "--faces", min=2, max=9, help="faces of a die (2 to 6 with "
                              "kastkopp's rules, to 9 with OpenSpiel's)"),
    target: float = typer.Option(1e-3, "--target", min=1e-7, max=0.5,
                                 help="exploitability to reach"),
    variant: str = typer.Option("cfr+", "--variant", help="cfr+ or dcfr"),
    max_memory: float = typer.Option(2.0, "--max-memory", min=0.001,
                                     help="GB the solver's tables may take"),
    as_json: AsJson = False,
) -> None:
    """One round of two-player liar's dice: its value and an equilibrium, by CFR (kastkopp's
    rules: the lognare preset unless --preset names another)."""
    from kastkopp.engine import RuleError
    from kastkopp.games.liars_dice import LiarsRules
    from kastkopp.strategy.liars_bidding import Bidding
    from kastkopp.strategy.liars_equilibrium import solve

    if variant not in ("cfr+", "dcfr"):
        raise RuleError("the variant is cfr+ or dcfr, not '{variant}'", variant=variant)
    if openspiel:
        if preset or rule:
            raise RuleError("--openspiel fixes the rules; leave out --preset and --rule")
        bidding = Bidding.openspiel(dice=dice, faces=faces)
    else:
        fewer = [f"faces={faces}"] if faces != 6 else []
        rules = rules_of(LiarsRules, preset or "lognare", [*(rule or []), f"dice={dice}", *fewer])
        bidding = Bidding.from_rules(rules)
    with progress(say("solving"), 1) as update:
        eq = solve(bidding, target=target, variant=variant, max_bytes=max_memory * 1e9,
                   progress=lambda i, gap: update(min(1.0, target / max(gap, 1e-12))))
    data = eq.to_json()
    if printed(data, as_json):
        return
    console.print(say("First bidder's value: {value} (exploitability {gap} after {iterations} "
                      "iterations, {seconds} s)", value=f"[bold]{eq.game_value:+.5f}[/]",
                      gap=f"{eq.exploitability:.1e}", iterations=eq.iterations,
                      seconds=f"{eq.seconds:.1f}"), highlight=False)
    out = rich_table(title=say("How the first bidder opens, by cup"))
    out.add_column(say("cup"))
    out.add_column(say("opening bids"))
    for row in data["opening"]:
        out.add_row(row["cup"], ", ".join(f"{b[4:]} {p:.0%}" for b, p in row["bids"].items()))
    console.print(out)
