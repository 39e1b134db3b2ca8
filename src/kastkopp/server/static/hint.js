// The advisor's hint: asked for on the player's own turn, shown best first with the odds
// behind it, in the unit of the game. While the advisor gets ready (a first solve can take
// seconds) it says so and asks again. Every game's table shares this one module.
import {h, t} from "./ui.js";

const button = document.getElementById("hint-button");
const status = document.getElementById("hint-status");
const list = document.getElementById("hint-choices");
const facts = document.getElementById("hint-facts");
const SHOWN = 6;  // the best few; the rest are rarely worth reading

// What a choice's number means, per unit the server names.
const HEADINGS = {
  points: "The advisor's choices, best first (expected final score)",
  turn: "The advisor's choices, best first (expected score this turn)",
  lives: "The advisor's choices, best first (lives won or lost, both playing the solved game)",
  dice: "The advisor's choices, best first (dice won or lost, both playing the solved game)",
  chips: "The advisor's choices, best first (chips won against giving up now)",
  chance: "The advisor's choices, best first (the chance each is right)",
};
const FACTS = {
  claim_beaten: "Chance the dice make the claim: {p}",
  beat_by_rolling: "Chance to beat it by rolling: {p}",
  make_or_beat: "Chance to make the announced hand with the throws left: {p}",
  share: "Your share of the pot at the showdown: {p}",
  bid_holds: "Chance the standing bid holds: {p}",
  win: "Chance of finishing ahead of the leading opponent, played to win: {p}",
};
const percent = (p) => `${(100 * p).toFixed(p > 0 && p < 0.01 ? 2 : 1)} %`;
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
    facts?.replaceChildren();
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
    show(data);
    break;
  }
  button.disabled = false;
}

/** A choice's worth as the unit reads: a chance in percent, points to one decimal, lives
 * and chips signed, and how far below the best it is. */
function worth(unit, value, best) {
  if (unit === "chance") return percent(value);
  if (unit === "points" || unit === "turn") {
    return value < best ? `${value.toFixed(1)} (−${(best - value).toFixed(1)})` : value.toFixed(1);
  }
  const signed = `${value >= 0 ? "+" : "−"}${Math.abs(value).toFixed(2)}`;
  return value < best ? `${signed} (−${(best - value).toFixed(2)})` : signed;
}

function show({unit = "points", choices = [], facts: odds = {}, said = {}}) {
  const best = choices[0]?.expected ?? 0;
  const known = Object.entries(odds).filter(([name]) => name in FACTS);
  facts?.replaceChildren(...known.map(([name, p]) => h("li", {"data-fact": name},
    t(FACTS[name], {p: percent(p)}))));
  status.textContent = choices.length ? t(HEADINGS[unit] ?? HEADINGS.points)
    : known.length ? t("The odds now; no choice to rank here") : t("Nothing to advise here");
  list.replaceChildren(...choices.slice(0, SHOWN).map((c) => h("li", {"data-choice": c.choice},
    h("code", {}, said[c.choice] ?? c.choice), h("span", {class: "worth"}, ` · ${worth(unit, c.expected, best)}`))));
  document.body.dataset.hint = "ready";
  document.body.dataset.hintUnit = unit;
  // on a phone the answer may fall below the screen or under a docked toolbar
  document.getElementById("hint")?.scrollIntoView({block: "nearest"});
}
