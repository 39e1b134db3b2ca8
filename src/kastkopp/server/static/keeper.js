// The score keeper: the sheet lives in this browser (it survives a closed tab), every
// number comes from the server's sheets; offline, a stand-in works it out until the
// connection returns.
import {h, t} from "./ui.js";

const SHEET = "kastkopp.sheet";
const PLAYERS = "kastkopp.players";
const status = document.getElementById("keeper-status");
const section = document.getElementById("sheet");
const error = document.getElementById("entry-error");

let sheet = JSON.parse(localStorage.getItem(SHEET) ?? "null");

if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js");

function save() {
  localStorage.setItem(SHEET, JSON.stringify(sheet));
}

function rememberPlayers(names) {
  const known = new Set(JSON.parse(localStorage.getItem(PLAYERS) ?? "[]"));
  names.forEach((n) => known.add(n));
  localStorage.setItem(PLAYERS, JSON.stringify([...known]));
  showKnownPlayers();
}

function showKnownPlayers() {
  const known = JSON.parse(localStorage.getItem(PLAYERS) ?? "[]");
  document.getElementById("known-players").replaceChildren(
    ...known.map((n) => h("option", {value: n})));
}

/** The derived sheet: the server's when it answers, else the offline stand-in. */
async function derive(candidate) {
  try {
    const response = await fetch("/api/sheets/derive", {method: "POST",
      headers: {"Content-Type": "application/json"}, body: JSON.stringify(candidate)});
    const data = await response.json();
    if (!response.ok) {
      throw new RangeError(typeof data.detail === "string" ? data.detail
        : data.detail.map((d) => d.msg).join("; "));
    }
    status.textContent = t("Saved in this browser");
    document.body.dataset.online = "yes";
    return data;
  } catch (problem) {
    if (problem instanceof RangeError) throw problem;
    status.textContent = t("Offline: saved in this browser, checked again when the network returns");
    document.body.dataset.online = "no";
    const fallback = await import(`./sheets/${candidate.game}.js`).catch(() => null);
    if (!fallback) return null;
    return fallback.derive(candidate);
  }
}

function draw(derived) {
  section.hidden = !sheet;
  if (!sheet) return;
  const grid = document.getElementById("grid");
  const standings = document.getElementById("standings");
  if (!derived) {
    grid.replaceChildren(h("ol", {}, ...sheet.entries.map((e) => h("li", {}, e))));
    standings.replaceChildren();
    return;
  }
  const [header, ...rows] = derived.table;
  grid.replaceChildren(h("table", {class: "sheet", id: "sheet-table"},
    h("thead", {}, h("tr", {}, ...header.map((c) => h("th", {scope: "col"}, c)))),
    h("tbody", {}, ...rows.map((row) => h("tr", {}, ...row.map((c) => h("td", {}, c ?? "")))))));
  const places = [...derived.players].sort((a, b) => a.place - b.place);
  standings.replaceChildren(...places.map((p) => h("li", {"data-player": p.name,
    "data-place": p.place}, `${p.place}. ${p.name} · ${p[derived.count] ?? ""}`)));
  document.body.dataset.entries = String(sheet.entries.length);
  document.body.dataset.finished = derived.finished ? "yes" : "no";
}

async function refresh() {
  if (!sheet) { draw(null); return; }
  try {
    draw(await derive(sheet));
  } catch (problem) {
    error.textContent = problem.message;
  }
}

document.getElementById("new-sheet").addEventListener("submit", async (event) => {
  event.preventDefault();
  const players = document.getElementById("sheet-players").value.split(",")
    .map((n) => n.trim()).filter(Boolean);
  sheet = {game: document.getElementById("sheet-game").value, players, entries: [], rules: {}};
  rememberPlayers(players);
  save();
  error.textContent = "";
  await refresh();
});

document.getElementById("entry-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = document.getElementById("entry");
  const candidate = {...sheet, entries: [...sheet.entries, input.value.trim()]};
  error.textContent = "";
  try {
    const derived = await derive(candidate);  // refused entries change nothing
    sheet = candidate;
    save();
    input.value = "";
    draw(derived);
  } catch (problem) {
    error.textContent = problem.message;
  }
  input.focus();
});

document.getElementById("undo").addEventListener("click", async () => {
  if (!sheet?.entries.length) return;
  sheet = {...sheet, entries: sheet.entries.slice(0, -1)};
  save();
  await refresh();
});

window.addEventListener("online", refresh);
showKnownPlayers();
await refresh();
