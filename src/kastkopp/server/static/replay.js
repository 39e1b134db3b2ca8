// A finished game step by step from its log, every roll shown; the dice seed is checked
// against the commitment published before the first roll.
import {h, t, dice} from "./ui.js";

const table = JSON.parse(document.getElementById("table").textContent);
const list = document.getElementById("events");
const verify = document.getElementById("verify");
let events = [];
let step = 0;

function hex(bytes) {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function draw() {
  list.querySelectorAll("li").forEach((li, i) => {
    li.hidden = i >= step;
    li.classList.toggle("current", i === step - 1);
  });
  document.getElementById("step").textContent = `${step} / ${events.length}`;
  document.body.dataset.step = String(step);
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
      e.faces ? dice(e.faces) : "?")
    : h("li", {class: e.type}, `${seats[e.seat] ?? ""}: ${e.action ?? e.reason}`)));
  step = events.length;
  draw();
  if (table.server_seed && crypto.subtle) {
    const seed = Uint8Array.from(table.server_seed.match(/../g).map((b) => parseInt(b, 16)));
    const digest = hex(await crypto.subtle.digest("SHA-256", seed));
    verify.textContent = digest === table.seed_sha256
      ? `✓ ${t("Dice commitment")}: ${digest.slice(0, 16)}…` : `✗ ${t("Dice commitment")}`;
    document.body.dataset.verified = digest === table.seed_sha256 ? "yes" : "no";
  }
}
const go = (to) => { step = Math.max(0, Math.min(events.length, to)); draw(); };
document.getElementById("first").onclick = () => go(0);
document.getElementById("back").onclick = () => go(step - 1);
document.getElementById("forward").onclick = () => go(step + 1);
document.getElementById("last").onclick = () => go(events.length);
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowLeft") go(step - 1);
  if (e.key === "ArrowRight") go(step + 1);
});
