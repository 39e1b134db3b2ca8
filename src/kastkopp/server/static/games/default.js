// Any game without its own renderer: the public facts of the view and the legal actions.
import {h, actionControls, seatName} from "../ui.js";

export function render(frame, {send}) {
  const view = frame.view;
  const facts = Object.entries(view).filter(([k, v]) => k !== "game" && typeof v !== "object");
  const board = h("dl", {class: "facts"}, ...facts.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, String(v))]));
  if (frame.outcome) {
    board.append(h("dt", {}, "ranking"), h("dd", {}, frame.outcome.ranking
      .map((group) => group.map((s) => seatName(frame, s)).join(" = ")).join(" · ")));
  }
  return {board, controls: actionControls(frame.legal, send)};
}
