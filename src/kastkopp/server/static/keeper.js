// The score keeper: every sheet lives in this browser (it survives a closed tab) and, for
// a logged-in person, in the account too; every number comes from the server's sheets.
// Offline, a stand-in works the sheet out, and the changes reach the account once the
// connection returns.
import {h, t} from "./ui.js";

// id -> {sheet, revision, dirty, deleted, refused, account (whose account it is saved in)}
const SHEETS = "kastkopp.sheets";
const CURRENT = "kastkopp.current";  // the id of the sheet on the page
const OLD_SHEET = "kastkopp.sheet";  // the single sheet of earlier versions
const PLAYERS = "kastkopp.players";
const status = document.getElementById("keeper-status");
const section = document.getElementById("sheet");
const error = document.getElementById("entry-error");
const account = document.getElementById("me-name")?.textContent ?? null;
const loggedIn = account !== null;

if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js");

const load = (key, fallback) => JSON.parse(localStorage.getItem(key) ?? "null") ?? fallback;
let store = load(SHEETS, {});
let currentId = localStorage.getItem(CURRENT);
const old = load(OLD_SHEET, null);
if (old) {  // an earlier version's sheet becomes the first of the list
  currentId = newId();
  store[currentId] = {sheet: old, revision: null, dirty: true, updated: Date.now()};
  localStorage.removeItem(OLD_SHEET);
  persist();
}
let sheet = store[currentId]?.deleted ? null : store[currentId]?.sheet ?? null;

function newId() {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

function persist() {
  localStorage.setItem(SHEETS, JSON.stringify(store));
  if (currentId) localStorage.setItem(CURRENT, currentId);
}

/** The page's sheet changed: kept here at once, sent to the account when it can be. */
function save() {
  store[currentId] = {...store[currentId], sheet, dirty: true, refused: null,
    updated: Date.now()};
  persist();
  drawList();
  showStatus();
  sync();
}

function rememberPlayers(names) {
  const known = new Set(load(PLAYERS, []));
  names.forEach((n) => known.add(n));
  localStorage.setItem(PLAYERS, JSON.stringify([...known].sort()));
  showKnownPlayers();
}

function showKnownPlayers() {
  document.getElementById("known-players").replaceChildren(
    ...load(PLAYERS, []).map((n) => h("option", {value: n})));
}

function message(data) {
  return typeof data.detail === "string" ? data.detail
    : data.detail.map((d) => d.msg).join("; ");
}

/** The derived sheet: the server's when it answers, else the offline stand-in. */
async function derive(candidate) {
  try {
    const response = await fetch("/api/sheets/derive", {method: "POST",
      headers: {"Content-Type": "application/json"}, body: JSON.stringify(candidate)});
    const data = await response.json();
    if (!response.ok) throw new RangeError(message(data));
    document.body.dataset.online = "yes";
    showStatus();
    return data;
  } catch (problem) {
    if (problem instanceof RangeError) throw problem;
    document.body.dataset.online = "no";
    showStatus();
    const fallback = await import(`./sheets/${candidate.game}.js`).catch(() => null);
    if (!fallback) return null;
    return fallback.derive(candidate);
  }
}

function showStatus() {
  const entry = store[currentId];
  if (document.body.dataset.online === "no") {
    status.textContent = t("Offline: saved in this browser, checked again when the network returns");
  } else if (entry?.refused) {
    status.textContent = t("Not saved in your account: {reason}", {reason: entry.refused});
  } else if (loggedIn && entry && !entry.dirty && entry.account === account) {
    status.textContent = t("Saved in your account");
  } else {
    status.textContent = t("Saved in this browser");
  }
}

// ------------------------------------------------------------------ the account

let syncing = null;
let again = false;

/** Bring this browser and the account together; one pass at a time, repeated if asked. */
function sync() {
  if (!loggedIn) return Promise.resolve();
  if (syncing) { again = true; return syncing; }
  syncing = syncOnce().catch(() => { document.body.dataset.online = "no"; })
    .finally(() => {
      syncing = null;
      showStatus();
      drawList();
      if (again) { again = false; sync(); }
    });
  return syncing;
}

async function api(method, path, body) {
  const response = await fetch(path, {method, headers: {"Content-Type": "application/json"},
    body: body === undefined ? undefined : JSON.stringify(body)});
  return {status: response.status, data: await response.json()};
}

async function syncOnce() {
  for (const [id, entry] of Object.entries(store)) {
    if (entry.account && entry.account !== account) continue;  // another account's sheet
    if (entry.deleted) {
      if (entry.revision !== null) {
        const {status: code} = await api("DELETE", `/api/sheets/${id}`);
        if (code !== 200 && code !== 404) continue;
      }
      delete store[id];
    } else if (entry.dirty && !entry.refused) {
      await push(id, entry);
    }
    persist();
  }
  const {status: code, data: listed} = await api("GET", "/api/sheets");
  if (code !== 200) return;
  // A sheet saved here before but gone from the account was deleted on another device.
  const kept = new Set(listed.map((remote) => remote.id));
  for (const [id, entry] of Object.entries(store)) {
    if (entry.account !== account || entry.dirty || kept.has(id)) continue;
    delete store[id];
    if (id === currentId) { currentId = null; sheet = null; localStorage.removeItem(CURRENT); }
  }
  if (!sheet) draw(null);
  for (const remote of listed) {
    const local = store[remote.id];
    if (local && (local.deleted || local.dirty || local.revision >= remote.revision)) continue;
    const {status: got, data} = await api("GET", `/api/sheets/${remote.id}`);
    if (got !== 200) continue;
    store[remote.id] = {sheet: data.sheet, revision: data.revision, dirty: false, account,
      updated: Date.parse(data.updated_at)};
    if (remote.id === currentId) { sheet = data.sheet; await refresh(); }
  }
  persist();
  const players = await api("PUT", "/api/account/players", {names: load(PLAYERS, []).slice(0, 50)});
  if (players.status === 200) rememberPlayers(players.data);
  document.body.dataset.synced = String(Date.now());
}

async function push(id, entry) {
  const {status: code, data} = await api("PUT", `/api/sheets/${id}`,
    {...entry.sheet, base_revision: entry.revision});
  if (code === 200) {
    store[id] = {...entry, revision: data.revision, dirty: false, account};
  } else if (code === 409) {
    // Changed on another device meanwhile: that copy takes the id, ours becomes a new sheet.
    const copy = newId();
    store[copy] = {...entry, revision: null, account: null};
    store[id] = {sheet: data.current.sheet, revision: data.current.revision, dirty: false,
      account, updated: Date.parse(data.current.updated_at)};
    if (id === currentId) currentId = copy;
    await push(copy, store[copy]);
  } else if (code === 400 || code === 422) {
    store[id] = {...entry, refused: message(data)};
  }
}

// ------------------------------------------------------------------ drawing

/** A sheet kind as the form names it, in the page's language. */
function kindTitle(game) {
  return document.querySelector(`#sheet-game option[value="${CSS.escape(game)}"]`)?.textContent
    ?? game;
}

function drawList() {
  const items = Object.entries(store).filter(([, e]) => !e.deleted)
    .sort(([, a], [, b]) => b.updated - a.updated)
    .map(([id, e]) => h("li", {"data-sheet": id, class: id === currentId ? "current" : ""},
      h("button", {type: "button", class: "open-sheet", onclick: () => open(id)},
        `${kindTitle(e.sheet.game)} · ${e.sheet.players.join(", ")} · ${e.sheet.entries.length}`),
      " ", e.dirty && loggedIn ? h("span", {class: "small"}, "↻") : null,
      h("button", {type: "button", class: "delete-sheet",
        "aria-label": `${t("Delete")}: ${e.sheet.players.join(", ")}`,
        onclick: () => remove(id)}, t("Delete"))));
  document.getElementById("sheet-list").replaceChildren(...items);
  document.body.dataset.sheets = String(items.length);
}

async function open(id) {
  currentId = id;
  sheet = store[id].sheet;
  persist();
  error.textContent = "";
  drawList();
  await refresh();
}

async function remove(id) {
  store[id] = {...store[id], deleted: true};
  if (id === currentId) { currentId = null; sheet = null; localStorage.removeItem(CURRENT); }
  persist();
  drawList();
  await refresh();
  sync();
}

function draw(derived) {
  section.hidden = !sheet;
  if (!sheet) { document.body.dataset.entries = "0"; return; }
  const grid = document.getElementById("grid");
  const standings = document.getElementById("standings");
  document.body.dataset.entries = String(sheet.entries.length);
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
  document.body.dataset.finished = derived.finished ? "yes" : "no";
}

async function refresh() {
  if (!sheet) { draw(null); return; }
  try {
    draw(await derive(sheet));
    showRefused(null);
  } catch (problem) {
    // An entry written offline that the rules refuse once the server sees it: the sheet
    // stays open, drawn without it, and the entry is marked to be undone or edited.
    error.textContent = problem.message;
    const shorter = {...sheet, entries: sheet.entries.slice(0, -1)};
    draw(await derive(shorter).catch(() => null));
    showRefused(sheet.entries.at(-1) ?? null, problem.message);
  }
}

/** The refused last entry, marked, with a way to edit it (Undo removes it). */
function showRefused(entry, reason = "") {
  const box = document.getElementById("refused");
  box.hidden = entry === null;
  if (entry === null) { box.replaceChildren(); return; }
  box.replaceChildren(h("span", {}, `${t("Refused")}: `, h("code", {class: "refused-entry"}, entry),
    ` · ${reason}`), " ",
  h("button", {type: "button", id: "edit-refused", onclick: async () => {
    sheet = {...sheet, entries: sheet.entries.slice(0, -1)};
    save();
    document.getElementById("entry").value = entry;
    document.getElementById("entry").focus();
    await refresh();
  }}, t("Edit")));
}

document.getElementById("new-sheet").addEventListener("submit", async (event) => {
  event.preventDefault();
  const players = document.getElementById("sheet-players").value.split(",")
    .map((n) => n.trim()).filter(Boolean);
  sheet = {game: document.getElementById("sheet-game").value, players, entries: [], rules: {}};
  currentId = newId();
  store[currentId] = {sheet, revision: null, dirty: true, updated: Date.now()};
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

window.addEventListener("online", async () => { await refresh(); await sync(); });
showKnownPlayers();
drawList();
await refresh();
await sync();
