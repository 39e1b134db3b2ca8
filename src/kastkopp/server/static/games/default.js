// Any game without its own renderer: the public facts of the view, dice drawn as dice,
// and the legal actions.
import {h, dice, actionControls, seatName} from "../ui.js";

const isDice = (key, value) => key.includes("dice") && Array.isArray(value) && value.length
  && value.every((f) => Number.isInteger(f) && f >= 1 && f <= 6);

export function render(frame, {send}) {
  const view = frame.view;
  const facts = Object.entries(view).filter(([k, v]) => k !== "game"
    && (typeof v !== "object" || v === null || isDice(k, v)));
  const board = h("dl", {class: "facts"}, ...facts.flatMap(([k, v]) => [h("dt", {}, k),
    h("dd", {}, isDice(k, v) ? dice(v) : String(v ?? "—"))]));
  if (frame.outcome) {
    board.append(h("dt", {}, "ranking"), h("dd", {id: "ranking"}, frame.outcome.ranking
      .map((group) => group.map((s) => seatName(frame, s)).join(" = ")).join(" · ")));
  }
  return {board, controls: actionControls(frame.legal, send)};
}
