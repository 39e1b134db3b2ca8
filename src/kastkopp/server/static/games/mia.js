// Slosch / Mia: the claim passed on, your dice under the cup, lives, pot and balances.
import {h, t, dice, actionControls, seatName} from "../ui.js";
import {cup, history, ranking, seatsTable} from "./common.js";

export function render(frame, {send}) {
  const v = frame.view;
  const columns = [[t("Lives"), (s) => v.lives[s]]];
  if (v.balances) columns.push([t("Balance"), (s) => v.balances[s]]);
  const parts = [
    h("p", {class: "round"}, t("Round {n}", {n: v.round})),
    seatsTable(frame, columns),
    v.pot !== undefined ? h("p", {class: "pot"}, `${t("Pot")}: ${v.pot}`) : null,
    h("p", {class: "claim", id: "claim"}, `${t("Claim")}: `,
      v.claim ? h("strong", {}, v.claim) : t("nobody yet"),
      v.responsible !== null && v.claim ? ` (${seatName(frame, v.responsible)})` : ""),
    cup(v.your_dice, `${v.round}:${v.history.length}:${v.your_dice}`),
    history(frame, v.history),
  ];
  if (v.last_round) {
    const last = v.last_round;
    parts.push(h("section", {class: "reveal", "aria-label": t("Last round")},
      h("h2", {}, t("Last round")),
      // a round lost by a penalty (a Mäxchen player's silence) shows its reason, not the cup
      last.penalty ? h("p", {class: "penalty"}, last.penalty)
        : h("p", {}, `${t("Claim")}: ${last.claim} · ${t("Dice")}: `, dice([...String(last.dice ?? "")])),
      h("p", {}, (last.losers ?? []).map((s) => seatName(frame, s)).join(", "), " −", String(last.cost ?? ""))));
  }
  parts.push(ranking(frame));
  return {board: h("div", {class: "mia"}, ...parts), controls: actionControls(frame.legal, send)};
}
