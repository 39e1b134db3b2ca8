// The score keeper: every sheet lives in this browser (it survives a closed tab) and, for
// a logged-in person, in the account too; every number comes from the server's sheets.
// Offline, a stand-in works the sheet out (from a table the server published, where the
// kind has one), and the changes reach the account once the connection returns.
import {h, t} from "./ui.js";

// Each sheet kind with its presets and house rules, and the keeper's words (server/keeper.py).
const KEEPER = JSON.parse(document.getElementById("keeper-data").textContent);
const KINDS = Object.fromEntries(KEEPER.kinds.map((k) => [k.game, k]));
const OFFLINE = "kastkopp.offline";  // url -> a kind's offline table, for checks without a network

/** A text in the page's language: the keeper's own words first, then the page's. */
function say(text, values = {}) {
  return t(KEEPER.words[text] ?? text, values);
}

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
    return standIn(candidate);
  }
}

/** The sheet worked out in the page, from what the server published for its kind (the
 *  stand-in module its registration names, the table kept for its rules); null if there is
 *  none. */
export async function standIn(candidate) {
  const module = KINDS[candidate.game]?.stand_in;
  const fallback = module ? await import(module).catch(() => null) : null;
  if (!fallback) return null;
  return fallback.derive(candidate, {table: tables[tableUrl(candidate)] ?? null,
    say, help: KINDS[candidate.game]?.help ?? ""});
}

// ------------------------------------------------------------------ offline tables

let tables = load(OFFLINE, {});  // url -> table, as kept in localStorage

/** Where the server publishes what a kind's sheet needs offline, for these rules. */
function tableUrl(candidate) {
  const query = new URLSearchParams();
  if (candidate.preset) query.set("preset", candidate.preset);
  for (const name of Object.keys(candidate.rules ?? {}).sort()) {
    query.set(name, String(candidate.rules[name]));
  }
  return `/api/sheets/offline/${candidate.game}?${query}`;
}

/** Fetch and keep the offline table of a sheet's rules (the service worker keeps it too). */
async function fetchTable(candidate) {
  if (!KINDS[candidate.game]?.offline) return;
  const url = tableUrl(candidate);
  try {
    const response = await fetch(url);
    if (!response.ok) return;
    tables[url] = await response.json();
    // Only the tables of the presets and of sheets still kept: the browser's room is small.
    const wanted = new Set([...KEEPER.kinds.filter((k) => k.offline).flatMap((k) =>
      ["", ...Object.keys(k.presets)].map((p) => tableUrl({game: k.game, preset: p, rules: {}}))),
    ...Object.values(store).map((e) => tableUrl(e.sheet)), url]);
    tables = Object.fromEntries(Object.entries(tables).filter(([key]) => wanted.has(key)));
    localStorage.setItem(OFFLINE, JSON.stringify(tables));
  } catch {
    // offline: the table already kept (if any) serves
  }
}

async function fetchTables() {
  const sheets = KEEPER.kinds.filter((k) => k.offline).flatMap((k) =>
    ["", ...Object.keys(k.presets)].map((preset) => ({game: k.game, preset, rules: {}})));
  for (const candidate of [...sheets, ...Object.values(store).map((e) => e.sheet)]) {
    await fetchTable(candidate);
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
  return KINDS[game]?.title ?? game;
}

// ------------------------------------------------------------------ house rules

/** The rules a preset starts from: the defaults with the preset's own values. */
function baseRules(kind, preset) {
  return {...Object.fromEntries(kind.rules.map((r) => [r.name, r.default])),
    ...(kind.preset_rules[preset] ?? {})};
}

function ruleControl(rule, value) {
  const id = `sheet-rule-${rule.name}`;
  let input;
  if (rule.type === "bool") {
    input = h("input", {id, type: "checkbox", checked: Boolean(value)});
  } else if (rule.choices) {
    input = h("select", {id}, ...rule.choices.map((c) =>
      h("option", {value: String(c.value), selected: String(c.value) === String(value)}, c.text)));
  } else {
    input = h("input", {id, value: value ?? "", type: rule.type === "int" ? "number" : "text",
      min: rule.min, max: rule.max, inputmode: rule.type === "int" ? "numeric" : null});
  }
  input.dataset.rule = rule.name;
  input.dataset.type = rule.type;
  const control = h("p", {class: "rule"});
  if (rule.type === "bool") control.append(input, " ", h("label", {for: id}, rule.help));
  else control.append(h("label", {for: id}, rule.help), " ", input);
  return control;
}

/** The preset and house-rule controls of the chosen kind, set to the preset's values. */
function showRules(keepPreset = false) {
  const kind = KINDS[document.getElementById("sheet-game").value];
  const preset = document.getElementById("sheet-preset");
  if (!keepPreset) {
    preset.replaceChildren(h("option", {value: ""}, say("the game's own rules")),
      ...Object.entries(kind.presets).map(([name, help]) => h("option", {value: name}, help)));
  }
  const base = baseRules(kind, preset.value);
  document.getElementById("sheet-rules").replaceChildren(
    ...kind.rules.map((rule) => ruleControl(rule, base[rule.name])));
}

/** The house rules chosen that differ from the preset's. */
function chosenRules(kind, preset) {
  const base = baseRules(kind, preset);
  const rules = {};
  for (const input of document.querySelectorAll("#sheet-rules [data-rule]")) {
    const value = input.type === "checkbox" ? input.checked
      : input.dataset.type === "int" && /^-?\d+$/.test(input.value.trim())
        ? Number(input.value) : input.value.trim();
    if (String(value) !== String(base[input.dataset.rule])) rules[input.dataset.rule] = value;
  }
  return rules;
}

/** A rule's value in words: on/off, a choice as the form shows it, else as typed. */
function ruleValue(rule, value) {
  if (rule.type === "bool") return say(value === true || value === "true" ? "on" : "off");
  const choice = rule.choices?.find((c) => String(c.value) === String(value));
  return choice ? choice.text : String(value);
}

/** The sheet's rules as a line: the preset, then each rule changed from it. */
function rulesLine(candidate) {
  const kind = KINDS[candidate.game];
  if (!kind) return "";
  const parts = [candidate.preset ? kind.presets[candidate.preset] ?? candidate.preset
    : say("the game's own rules")];
  for (const [name, value] of Object.entries(candidate.rules ?? {})) {
    const rule = kind.rules.find((r) => r.name === name);
    parts.push(rule ? `${rule.help}: ${ruleValue(rule, value)}` : `${name}: ${value}`);
  }
  return say("Rules: {rules}", {rules: parts.join(" · ")});
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
  document.getElementById("sheet-title").textContent =
    `${kindTitle(sheet.game)} · ${sheet.players.join(", ")}`;
  document.getElementById("sheet-rules-line").textContent = rulesLine(sheet);
  document.getElementById("entry-help").textContent = KINDS[sheet.game]?.help ?? "";
  document.body.dataset.kind = sheet.game;
  if (!derived) {
    grid.replaceChildren(h("ol", {}, ...sheet.entries.map((e) => h("li", {}, e))));
    standings.replaceChildren();
    return;
  }
  const [header, ...rows] = derived.table;
  grid.replaceChildren(h("table", {class: header.length > 5 ? "sheet wide" : "sheet",
    id: "sheet-table"},
    h("thead", {}, h("tr", {}, ...header.map((c) => h("th", {scope: "col"}, c)))),
    h("tbody", {}, ...rows.map((row) => h("tr", {}, ...row.map((c) => h("td", {}, c ?? "")))))));
  const places = [...derived.players].sort((a, b) => a.place - b.place);
  standings.replaceChildren(...places.map((p) => h("li", {"data-player": p.name,
    "data-place": p.place}, `${p.place}. ${p.name} · ${p[derived.count] ?? ""}`)));
  if (derived.partial) {
    standings.replaceChildren(h("li", {class: "small"},
      say("Sums and places are worked out when the network returns")));
  }
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

document.getElementById("sheet-game").addEventListener("change", () => showRules());
document.getElementById("sheet-preset").addEventListener("change", () => showRules(true));

document.getElementById("new-sheet").addEventListener("submit", async (event) => {
  event.preventDefault();
  const players = document.getElementById("sheet-players").value.split(",")
    .map((n) => n.trim()).filter(Boolean);
  const game = document.getElementById("sheet-game").value;
  const preset = document.getElementById("sheet-preset").value || null;
  const candidate = {game, preset, players, entries: [], rules: chosenRules(KINDS[game], preset)};
  const refusal = document.getElementById("new-sheet-error");
  refusal.textContent = "";
  try {
    await derive(candidate);  // the server checks the rules and the players first
  } catch (problem) {
    refusal.textContent = problem.message;
    return;
  }
  sheet = candidate;
  await fetchTable(sheet);
  document.getElementById("house-rules").open = false;  // the sheet comes next, not the form
  currentId = newId();
  store[currentId] = {sheet, revision: null, dirty: true, updated: Date.now()};
  rememberPlayers(players);
  save();
  error.textContent = "";
  await refresh();
  document.getElementById("entry").focus();  // the first entry is next, in view
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
showRules();
showKnownPlayers();
drawList();
await refresh();
await sync();
await fetchTables();
document.body.dataset.tables = "ready";
