// The table: one WebSocket, a frame after every change, drawn by the game's renderer.
// Only what the frame holds is ever drawn; the server sends each seat its own view.
import {h, t, seatName} from "./ui.js";
import * as chat from "./chat.js";
import * as hint from "./hint.js";
import {isSeed, matchesCommitment, newSeed} from "./seeds.js";
import {animate} from "./motion.js";

const table = JSON.parse(document.getElementById("table").textContent);
const status = document.getElementById("status");
const board = document.getElementById("board");
const controls = document.getElementById("controls");
const seating = document.getElementById("seating");
const error = document.getElementById("error");
const talk = document.getElementById("talk");
const me = document.getElementById("me-name")?.textContent ?? null;

let renderer = null;
let frame = null;
let socket = null;
let retry = 0;
let sentFor = -1;  // the seq we last acted on: one action per position
let nextId = 1;
let told = null;  // the last frame told at the table (its moves narrated)
let seriesAsked = false;  // the match's score was asked for once the game was drawn

async function loadRenderer() {
  try {
    renderer = await import(table.renderer);
  } catch {
    renderer = await import("./games/default.js");
  }
}

// The move sent and not yet answered: a socket lost before its answer (the server
// restarting, or gone) sends it again on the next one, if the table is still where it was
// (else it was made, or the game moved on). Behind a proxy the next socket may reach
// another server process: all of them read the same log.
let unanswered = null;
let resumed = false;  // the socket is new: the first frame decides about `unanswered`

function send(action) {
  if (!frame) return;
  sentFor = frame.seq;
  error.textContent = "";
  const id = nextId++;
  const message = JSON.stringify({action, seq: frame.seq, id});
  unanswered = {seq: frame.seq, id, message};
  if (socket && socket.readyState === WebSocket.OPEN && !resumed) socket.send(message);
  controls.querySelectorAll("button,select").forEach((el) => { el.disabled = true; });
  board.querySelectorAll("button[data-action]").forEach((el) => { el.disabled = true; });
}

// The move clock of the seat to move, as text (a timer: read when asked, not announced
// every second); the status line says whose turn it is.
const clockLine = document.getElementById("clock");

function timeLeft(seconds) {
  if (seconds >= 86400) {
    return t("{d} d {h} h", {d: Math.floor(seconds / 86400), h: Math.floor(seconds / 3600) % 24});
  }
  if (seconds >= 3600) {
    return t("{h} h {m} min", {h: Math.floor(seconds / 3600), m: Math.floor(seconds / 60) % 60});
  }
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function drawClock() {
  const running = frame?.deadline && frame.status === "playing"
    && document.body.dataset.connected === "yes" && frame.to_move !== null;
  clockLine.hidden = !running;
  if (!running) return;
  const left = Math.max(0, Math.round(frame.deadline - Date.now() / 1000));
  const who = frame.to_move === frame.seat ? t("You have {time} for this move")
    : t("{name} has {time} for this move", {name: seatName(frame, frame.to_move)});
  clockLine.textContent = who.replace("{time}", timeLeft(left));
  clockLine.classList.toggle("low", left <= 10);
  clockLine.dataset.left = String(left);
}

setInterval(drawClock, 1000);

function statusLine() {
  if (!frame) return "";
  if (frame.status === "over") return t("Game over");
  if (frame.status === "open") return t("Waiting for players");
  if (frame.to_move === null || frame.to_move === undefined) return "";
  if (frame.seat !== null && frame.to_move === frame.seat) return t("Your turn");
  return t("Waiting for {name}", {name: seatName(frame, frame.to_move)});
}

/** A seat as the seating lists it: the person, or "Bot 2 (Strong)" by the bot's label. */
function seated(s, i) {
  if (s.name) return s.name;
  return s.bot ? `${t("Bot {n}", {n: i + 1})} (${table.bot_labels?.[s.bot] ?? s.bot})` : "—";
}

function drawSeating(summary) {
  const items = summary.seats.map((s, i) => h("li", {class: i === frame?.to_move ? "to-move" : ""},
    seated(s, i)));
  const parts = [h("ol", {class: "seats"}, ...items)];
  if (summary.status === "open") {
    const mine = summary.seats.some((s) => s.name === me);
    if (!me && summary.seats.some((s) => !s.name && !s.bot)) {
      // a visitor from an invitation: a name first (at the top), then the Join button
      parts.push(h("p", {id: "sit-first", class: "sit-first"},
        t("You are invited to play: write your name at the top and press “Sit down”, then “Join this table”."),
        " ", h("button", {type: "button", id: "to-name",
          onclick: () => document.getElementById("nickname")?.focus()}, t("Write your name"))));
    }
    if (me && !mine && summary.seats.some((s) => !s.name && !s.bot)) {
      // the seed is made here, after the page has shown the server's commitment
      parts.push(h("button", {type: "button", id: "join",
        onclick: () => tableAction("join", {seed: newSeed()})}, t("Join this table")));
    }
    if (me && mine && summary.seats[0].name === me) {
      const waiting = (summary.seeds_missing ?? []).length > 0;  // enabled once all came
      parts.push(h("button", {type: "button", id: "start", disabled: waiting,
        onclick: () => tableAction("start")}, t("Start the game")));
      const bots = summary.seats.some((s) => !s.name && !s.bot);
      if (bots) {
        parts.push(h("button", {type: "button", id: "start-fill", disabled: waiting,
          onclick: () => tableAction("start", {fill: "random"})}, t("Fill empty seats with a bot")));
      }
    }
  }
  seating.replaceChildren(...parts);
  drawSeeds(summary);
}

// -- the seeds of the dice: the server's commitment first, then each person's seed ----
// The list is redrawn as seeds come; the form is made once, so a seed being typed stays.
const seedsBox = document.getElementById("seeds");
const seedList = h("ul", {id: "contributions", class: "seeds"});
const seedInput = h("input", {id: "seed-input", maxlength: "64", autocomplete: "off",
  spellcheck: "false"});
const seedForm = h("form", {id: "seed-form", hidden: true, onsubmit: (event) => {
  event.preventDefault();
  if (isSeed(seedInput.value)) contribute(seedInput.value);
  else error.textContent = t("A seed is 1 to 64 letters, digits or punctuation marks");
}}, h("label", {for: "seed-input"}, t("Your seed")), seedInput,
h("button", {type: "submit", id: "seed-send"}, t("Use this seed")));
let contributing = false;

function mySeat(summary) {
  const seat = summary.seats.findIndex((s) => me && s.name === me && s.account !== null);
  return seat < 0 ? null : seat;
}

function drawSeeds(summary) {
  if (!seedsBox || !summary.contributions) return;
  if (!seedsBox.contains(seedList)) {
    seedsBox.replaceChildren(h("p", {}, t("Each person's seed, added after the commitment:")),
      seedList, seedForm);
  }
  const given = new Map(summary.contributions.map((c) => [c.seat, c.seed]));
  const missing = new Set(summary.seeds_missing ?? []);
  seedList.replaceChildren(...summary.seats.map((s, i) => {
    const who = `${t("Seat")} ${i + 1} · ${seated(s, i)}: `;
    if (given.has(i)) {
      return h("li", {"data-seat": i}, who, h("code", {class: "contribution"}, given.get(i)));
    }
    if (s.bot) return h("li", {"data-seat": i, class: "small"}, who, t("a bot adds no seed"));
    return h("li", {"data-seat": i, class: missing.has(i) ? "waiting" : "small"}, who,
      t("waiting for a seed"));
  }));
  const seat = mySeat(summary);
  const mine = summary.status === "open" && seat !== null;
  seedForm.hidden = !mine;
  if (!mine) return;
  if (!given.has(seat)) contribute(newSeed());  // the commitment is on the page already
  if (document.activeElement !== seedInput) seedInput.value = given.get(seat) ?? "";
  seedsBox.closest("details").open = true;
}

async function contribute(seed) {
  if (contributing) return;
  contributing = true;
  try {
    await tableAction("seed", {seed});
  } finally {
    contributing = false;
  }
}

async function tableAction(what, body = {}) {
  const response = await fetch(`/api/tables/${table.id}/${what}`, {method: "POST",
    headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  const data = await response.json();
  if (!response.ok) { error.textContent = data.detail; return; }
  error.textContent = "";
  Object.assign(table, data);
  drawSeating(table);
  if (what === "join") connect(true);
}

async function showRevealedSeed() {
  const seed = document.getElementById("seed");
  if (seed.dataset.shown === frame.server_seed) return;
  seed.dataset.shown = frame.server_seed;
  const ok = crypto.subtle ? await matchesCommitment(frame.server_seed, frame.seed_sha256)
    : null;
  seed.replaceChildren(`${t("Revealed server seed")}: `, h("code", {}, frame.server_seed), " ",
    ok === null ? "" : h("span", {id: "seed-check", class: ok ? "ok" : "error"},
      ok ? `✓ ${t("its SHA-256 is the commitment")}`
        : `✗ ${t("The dice seed does not match its commitment")}`));
}

function draw() {
  status.textContent = statusLine();
  drawClock();
  document.body.dataset.status = frame.status;
  document.body.dataset.seq = frame.seq;
  document.body.dataset.toMove = frame.to_move ?? "";
  document.body.dataset.seat = frame.seat ?? "";
  if (frame.status !== "open") {
    table.status = frame.status;
    drawSeating({...table, seats: frame.seats.map((label) => label.startsWith("bot:")
      ? {bot: label.slice(4)} : {name: label})});
  }
  document.body.dataset.mine = "no";
  if (!frame.view) { board.replaceChildren(); controls.replaceChildren(); return; }
  const mine = frame.seat !== null && frame.to_move === frame.seat && frame.seq > sentFor;
  document.body.dataset.mine = mine ? "yes" : "no";
  hint.update(frame, mine);
  const focused = focusKey(document.activeElement);
  const drawn = renderer.render(frame, {send, mine});
  board.replaceChildren(drawn.board);
  controls.replaceChildren(mine && drawn.controls ? drawn.controls : "");
  animate(board, controls);
  // A renderer may dock its controls at the bottom of the screen, where a phone shows them.
  controls.classList.toggle("dock", Boolean(mine && drawn.controls && drawn.dock));
  document.body.style.setProperty("--dock", controls.classList.contains("dock")
    ? `${controls.offsetHeight}px` : "0px");
  // A redraw keeps the keyboard where it was; else a docked turn starts on its first control.
  const again = focused && (controls.querySelector(focused) ?? board.querySelector(focused));
  if (again) again.focus({preventScroll: true});
  else if (controls.classList.contains("dock")
           && (!document.activeElement || document.activeElement === document.body)) {
    controls.querySelector("button:enabled, select:enabled")?.focus({preventScroll: true});
  }
  if (frame.status === "over") board.prepend(endPanel(board));
  if (frame.status === "over" && frame.server_seed) showRevealedSeed();
}

/** The end of the game first on the board: places, Play again with the same seats and
 * rules, and the replay once the dice seed is revealed. */
function endPanel(drawn) {
  const seated = me && frame.seats.includes(me);
  return h("section", {class: "end-panel", id: "end", "aria-label": t("Game over")},
    drawn.querySelector("#ranking"), drawn.querySelector("#result"),
    h("p", {class: "actions"},
      seated ? h("button", {type: "button", id: "play-again", class: "primary",
        onclick: playAgain}, t("Play again")) : null,
      frame.server_seed ? h("a", {href: `/replay/${table.id}`, id: "replay-link"}, t("Replay"))
        : null));
}

async function playAgain() {
  // the same game, preset, rules and bots; the other people are invited to the new table
  const others = table.seats.filter((s) => s.name !== me);
  const body = {game: table.game, preset: table.preset, players: table.players,
    rules: table.rules, seats: [null, ...others.map((s) => (s.bot ? `bot:${s.bot}` : null))],
    time_control: timeControl(), pace: table.pace ?? null};
  const response = await fetch("/api/tables", {method: "POST",
    headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  const data = await response.json();
  if (!response.ok) { error.textContent = data.detail; return; }
  location.href = `/play/${data.id}`;
}

/** The table's move clock, as the lobby asks for it. */
function timeControl() {
  const seconds = table.seconds_per_move;
  if (table.clock === "live") return {kind: "live", seconds, on_timeout: table.on_timeout};
  if (table.clock === "correspondence") {
    return {kind: "correspondence", hours: Math.max(1, Math.round(seconds / 3600)),
      on_timeout: table.on_timeout};
  }
  return {kind: "none"};
}

/** A selector that finds the same control again after a redraw (null: none). */
function focusKey(el) {
  if (!el || !(controls.contains(el) || board.contains(el))) return null;
  if (el.id) return `#${CSS.escape(el.id)}`;
  for (const name of ["action", "verb", "index"]) {
    const value = el.dataset?.[name];
    if (value !== undefined) return `${el.localName}[data-${name}="${CSS.escape(value)}"]`;
  }
  return null;
}

/** What happened since the last frame, in words, into the polite live region. */
function tell(next) {
  if (!talk || !renderer.narrate || !next.view) return;
  const lines = renderer.narrate(told?.view ? told : null, next);
  told = next;
  if (!lines.length) return;
  talk.hidden = false;
  for (const line of lines) talk.append(h("li", {}, line));
  while (talk.children.length > 60) talk.firstElementChild.remove();
  talk.scrollTop = talk.scrollHeight;
}

/** The match this table is a game of: its score, its winner, the next game's table. */
async function drawSeries(tries = 0) {
  const line = document.getElementById("series");
  if (!table.series || !line) return;
  const response = await fetch(`/api/series/${table.series}`).catch(() => null);
  if (!response?.ok) return;
  const series = await response.json();
  if (series.format !== "match") return;
  const name = (label) => {
    const seat = frame?.seats?.indexOf(label) ?? -1;
    return seat >= 0 ? seatName(frame, seat) : label;
  };
  const [a, b] = series.state.players;
  const [x, y] = series.score.split("-");
  const here = series.tables.findIndex((tb) => tb.id === table.id);
  const next = series.tables.slice(here + 1).find((tb) => tb.status !== "over");
  line.hidden = false;
  line.replaceChildren(`${t("Match, best of {n}", {n: series.best_of})}: `,
    h("strong", {id: "match-score"}, `${name(a)} ${x} – ${y} ${name(b)}`),
    series.winner ? ` · ${t("{name} wins the match", {name: name(series.winner)})}` : "",
    ...(next && frame?.status === "over" ? [" · ", h("a", {href: `/play/${next.id}`,
      id: "next-game"}, t("Next game"))] : []));
  document.body.dataset.series = series.status;
  // The next game is made once this one is recorded: ask again until it is there.
  if (frame?.status === "over" && !next && series.status !== "over" && tries < 20) {
    setTimeout(() => drawSeries(tries + 1), 500);
  }
}

function connect(again = false) {
  if (again && socket) { socket.onclose = null; socket.close(); }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const lang = encodeURIComponent(document.documentElement.lang || "en");  // errors in it
  socket = new WebSocket(`${scheme}://${location.host}/api/tables/${table.id}/ws?lang=${lang}`);
  resumed = true;
  socket.onopen = () => {
    retry = 0;
    document.body.dataset.connected = "yes";
    chat.catchUp();
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state" && frame && message.seq < frame.seq) {
      return;  // a process that has not caught up with the log yet: the newer frame follows
    }
    if (message.type === "state" && resumed) {
      resumed = false;
      if (unanswered && unanswered.seq === message.seq && message.to_move === message.seat) {
        socket.send(unanswered.message);  // it was not made: make it now
      } else if (unanswered && unanswered.seq < message.seq) {
        unanswered = null;
      }
    }
    if (message.type === "ack" && unanswered?.id === message.id) {
      unanswered = null;
    } else if (message.type === "state") {
      const ended = message.status === "over" && frame?.status !== "over";
      frame = message;
      tell(frame);
      draw();
      if (ended || !seriesAsked) { seriesAsked = true; drawSeries(); }
    } else if (message.type === "chat") {
      chat.add(message);
    } else if (message.type === "error") {
      if (unanswered?.id === message.id) unanswered = null;
      error.textContent = message.error;
      sentFor = -1;
      if (frame) draw();
    }
  };
  socket.onclose = (event) => {
    document.body.dataset.connected = "no";
    document.body.dataset.mine = "no";  // until the server says again what is ours to do
    status.textContent = t("Connection lost: reconnecting…");
    // A stop (close code 1012) or a process that died: at once, through the proxy to
    // another process; after a failed try a wait that doubles up to 2 s. Each wait is a
    // random part of that, so the players of a process do not all come back in step.
    const most = Math.min(2000, 100 * 2 ** retry);
    retry = Math.min(retry + 1, 5);
    setTimeout(connect, most * Math.random());
  };
}

document.addEventListener("redraw", () => { if (frame) draw(); });
document.getElementById("copy-invite")?.addEventListener("click", (event) => {
  navigator.clipboard?.writeText(event.currentTarget.dataset.url);
});
await loadRenderer();
chat.start(table.id);
hint.start(table.id);
drawSeating(table);
if (table.status === "open") {
  // Show who sits down until the game starts; the socket brings the game itself.
  status.textContent = t("Waiting for players");
  const poll = setInterval(async () => {
    if (table.status !== "open") { clearInterval(poll); return; }
    const response = await fetch(`/api/tables/${table.id}`);
    if (!response.ok) return;
    const data = await response.json();
    if (data.status === "open") { Object.assign(table, data); drawSeating(table); }
  }, 700);
}
connect();
