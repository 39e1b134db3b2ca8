// Liar's dice / Perudo: your cup, everyone's dice count, the bid history, cups at the reveal.
import {h, t, dice, actionControls, seatName} from "../ui.js";
import {cup, history, ranking, seatsTable} from "./common.js";

export function render(frame, {send}) {
  const v = frame.view;
  const parts = [
    h("p", {class: "round"}, t("Round {n}", {n: v.round}), v.ones_wild ? ` · ${t("ones wild")}` : ""),
    seatsTable(frame, [[t("Dice"), (s) => v.dice_counts[s]]]),
    h("p", {class: "claim", id: "claim"}, `${t("Bid")}: `,
      v.bid ? h("strong", {}, v.bid) : t("nobody yet"),
      v.bid && v.bidder !== null ? ` (${seatName(frame, v.bidder)})` : ""),
    cup(v.your_dice, `${v.round}:${JSON.stringify(v.your_dice)}`),
    history(frame, v.history),
  ];
  const last = v.last_round;
  if (last) {
    parts.push(h("section", {class: "reveal", "aria-label": t("Cups revealed")},
      h("h2", {}, `${t("Last round")} · ${t("Cups revealed")}`),
      h("p", {}, `${seatName(frame, last.bidder)}: ${last.bid} · ${seatName(frame, last.caller)}: ${last.call}`),
      h("ul", {}, ...(last.cups ?? []).map((faces, s) => faces
        ? h("li", {}, `${seatName(frame, s)}: `, dice(faces)) : null))));
  }
  parts.push(ranking(frame));
  return {board: h("div", {class: "liars"}, ...parts), controls: actionControls(frame.legal, send)};
}
