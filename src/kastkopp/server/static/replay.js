// A finished game step by step: each position drawn by the game's own renderer, from
// every seat with its cup lifted (or from one seat), beside the log with every roll. The
// browser checks the dice itself: the seed against the commitment published before the
// first roll, the client seed against the players' seeds it is made of, and every roll
// against what the seeds give (HMAC-SHA256, as kastkopp.dice).
import {h, t, dice} from "./ui.js";
import {combinedClientSeed, hex} from "./seeds.js";
import {revealCups} from "./games/common.js";

const table = JSON.parse(document.getElementById("table").textContent);
const list = document.getElementById("events");
const verify = document.getElementById("verify");
const board = document.getElementById("board");
const seen = document.getElementById("replay-seat");
let events = [];
let steps = [];
let replay = null;
let renderer = null;
let step = 0;

function drawBoard() {
  if (!replay || !renderer) return;
  const position = steps[step];
  const last = step === steps.length - 1;
  const frame = (seat) => ({type: "state", seq: step, status: last ? "over" : "playing",
    seat, seats: replay.seats, to_move: position.to_move, legal: [], deadline: null,
    view: position.views[seat], outcome: last ? replay.outcome : null});
  const seats = seen.value === "all" ? replay.seats.map((_, s) => s) : [Number(seen.value)];
  board.replaceChildren(...seats.map((seat) => h("section", {class: "replay-seat",
    "data-seat": seat, "aria-label": replay.seats[seat]},
    seats.length > 1 ? h("h2", {}, replay.seats[seat]) : null,
    renderer.render(frame(seat), {send: () => {}, mine: false}).board)));
}

function draw() {
  list.querySelectorAll("li").forEach((li, i) => {
    li.hidden = i >= step;
    li.classList.toggle("current", i === step - 1);
  });
  document.getElementById("step").textContent = `${step} / ${events.length}`;
  document.body.dataset.step = String(step);
  drawBoard();
}

async function facesFromSeed(key, clientSeed, nonce, count) {
  const faces = [];
  for (let block = 0; faces.length < count; block++) {
    const message = new TextEncoder().encode(`${clientSeed}:${nonce}:${block}`);
    for (const byte of new Uint8Array(await crypto.subtle.sign("HMAC", key, message))) {
      if (byte < 252) faces.push(byte % 6 + 1);  // rejection sampling: no bias
      if (faces.length === count) break;
    }
  }
  return faces;
}

/** Problems with the dice (empty: every roll is what the committed seed gives). */
async function checkDice(log) {
  const source = log.dice ?? {};
  if (source.source !== "commit-reveal" || !source.server_seed) {
    return [t("The dice seed is not revealed")];
  }
  const seed = Uint8Array.from(source.server_seed.match(/../g).map((b) => parseInt(b, 16)));
  const problems = [];
  if (hex(await crypto.subtle.digest("SHA-256", seed)) !== table.seed_sha256) {
    problems.push(t("The dice seed does not match its commitment"));
  }
  if (source.contributions && combinedClientSeed(source.contributions) !== source.client_seed) {
    problems.push(t("The client seed is not made of the players' seeds"));
  }
  const key = await crypto.subtle.importKey("raw", seed, {name: "HMAC", hash: "SHA-256"},
    false, ["sign"]);
  for (const event of log.events.filter((e) => e.type === "roll")) {
    const expected = await facesFromSeed(key, source.client_seed ?? "", event.nonce,
      event.faces.length);
    if (expected.join() !== event.faces.join()) {
      problems.push(t("Roll {n} is not what the seed gives", {n: event.nonce + 1}));
    }
  }
  return problems;
}

const response = await fetch(`/api/tables/${table.id}/log`);
const log = await response.json();
if (!response.ok) {
  verify.textContent = log.detail;
} else {
  events = log.events;
  const seats = log.seats ?? table.seats.map((s) => s.name ?? `bot:${s.bot}`);
  list.replaceChildren(...events.map((e) => e.type === "roll"
    ? h("li", {class: "roll"}, `${e.seat !== undefined && e.seat !== null ? seats[e.seat] ?? "" : ""} `,
      e.faces ? dice(e.faces) : h("span", {class: "small"}, t("rolls: the dice are shown at the end")))
    : h("li", {class: e.type}, `${seats[e.seat] ?? ""}: ${e.action ?? e.reason ?? e.type}`)));
  step = events.length;
  const positions = await fetch(`/api/tables/${table.id}/replay`);
  if (positions.ok) {
    replay = await positions.json();
    steps = replay.steps;
    revealCups();
    try {
      renderer = await import(table.renderer);
    } catch {
      renderer = await import("./games/default.js");
    }
    seen.append(...replay.seats.map((name, s) => h("option", {value: String(s)}, name)));
    document.getElementById("seen-from").hidden = false;
  }
  draw();
  if (table.status !== "over") {
    // The seed is revealed at the end: until then there is nothing to check, and no fault.
    verify.replaceChildren(h("span", {id: "not-yet"},
      t("This game is still being played: its dice can be checked here once it is over.")),
    " ", h("a", {href: `/play/${table.id}`}, t("Watch the table")));
    document.body.dataset.verified = "later";
  } else if (crypto.subtle) {
    const problems = await checkDice(log);
    const rolls = events.filter((e) => e.type === "roll").length;
    verify.replaceChildren(problems.length
      ? h("span", {class: "error"}, `✗ ${problems.join(" · ")}`)
      : `✓ ${t("Every roll ({n}) is what the committed seed gives", {n: rolls})} · ` +
        `${t("Dice commitment")}: ${table.seed_sha256.slice(0, 16)}…`);
    document.body.dataset.verified = problems.length ? "no" : "yes";
  }
}
const go = (to) => { step = Math.max(0, Math.min(events.length, to)); draw(); };
document.getElementById("first").onclick = () => go(0);
document.getElementById("back").onclick = () => go(step - 1);
document.getElementById("forward").onclick = () => go(step + 1);
document.getElementById("last").onclick = () => go(events.length);
seen.addEventListener("change", drawBoard);
document.addEventListener("redraw", drawBoard);
document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLSelectElement) return;
  if (e.key === "ArrowLeft") go(step - 1);
  if (e.key === "ArrowRight") go(step + 1);
});
