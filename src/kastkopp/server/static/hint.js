// The advisor's hint: asked for on the player's own turn, shown best first. While the
// advisor gets ready (a first solve can take seconds) it says so and asks again.
import {h, t} from "./ui.js";

const button = document.getElementById("hint-button");
const status = document.getElementById("hint-status");
const list = document.getElementById("hint-choices");
const SHOWN = 6;  // the best few; the rest are rarely worth reading
let tableId = null;
let seq = -1;     // the position the hint on the page is for

export function start(id) {
  tableId = id;
  button?.addEventListener("click", ask);
}

/** A new position: an old hint no longer applies; the button works on one's own turn. */
export function update(frame, mine) {
  if (!button) return;
  button.disabled = !mine;
  if (frame.seq !== seq) {
    seq = frame.seq;
    list.replaceChildren();
    status.textContent = "";
    delete document.body.dataset.hint;
  }
}

async function ask() {
  const askedFor = seq;
  button.disabled = true;
  for (;;) {
    const response = await fetch(`/api/tables/${tableId}/hint`).catch(() => null);
    if (askedFor !== seq) return;  // the game moved on meanwhile
    if (!response) { status.textContent = t("Connection lost: reconnecting…"); break; }
    const data = await response.json();
    if (response.status === 202) {
      status.textContent = t("Preparing the advisor…");
      document.body.dataset.hint = "preparing";
      await new Promise((resolve) => setTimeout(resolve, 700));
      continue;
    }
    if (!response.ok) { status.textContent = data.detail; break; }
    show(data.choices);
    break;
  }
  button.disabled = false;
}

function show(choices) {
  const best = choices[0]?.expected ?? 0;
  status.textContent = t("The advisor's choices, best first (expected final score)");
  list.replaceChildren(...choices.slice(0, SHOWN).map((c) => h("li", {"data-choice": c.choice},
    h("code", {}, c.choice), ` · ${c.expected.toFixed(1)}`,
    c.expected < best ? h("span", {class: "small"}, ` (−${(best - c.expected).toFixed(1)})`) : "")));
  document.body.dataset.hint = "ready";
}
