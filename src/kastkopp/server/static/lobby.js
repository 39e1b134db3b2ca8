// The lobby: make a table with the house rules explained next to each switch.
import {h, t} from "./ui.js";

const games = Object.fromEntries(
  JSON.parse(document.getElementById("games").textContent).map((g) => [g.name, g]));
const form = document.getElementById("create");
const gameSelect = document.getElementById("game");
const players = document.getElementById("players");
const preset = document.getElementById("preset");
const error = document.getElementById("create-error");

function ruleControl(rule) {
  const id = `rule-${rule.name}`;
  let input;
  if (rule.type === "bool") {
    input = h("input", {id, type: "checkbox", name: rule.name, checked: rule.default});
  } else if (rule.choices) {
    input = h("select", {id, name: rule.name}, ...rule.choices.map((c) =>
      h("option", {value: c.value, selected: c.value === rule.default}, c.text)));
  } else {
    input = h("input", {id, name: rule.name, value: rule.default ?? "",
      type: rule.type === "int" ? "number" : "text", min: rule.min, max: rule.max});
  }
  input.dataset.rule = rule.type;
  input.dataset.default = String(rule.default);
  // a rule is named by what it does, in the page's language (its key is for the terminal)
  const label = h("label", {for: id}, rule.help);
  return rule.type === "bool" ? h("p", {class: "rule"}, input, " ", label)
    : h("p", {class: "rule"}, label, " ", input);
}

function seatControls() {
  const game = games[gameSelect.value];
  const box = document.getElementById("seats");
  // Choices already made survive a change of the number of players.
  const before = Object.fromEntries([...box.querySelectorAll("select.seat")]
    .map((s) => [s.id, s.value]));
  box.replaceChildren(box.firstElementChild);
  const n = Number(players.value) || game.default_players;
  for (let seat = 0; seat < n; seat++) {
    const id = `seat-${seat}`;
    const options = [h("option", {value: ""}, seat === 0 ? "—" : t("a person, invited by link"))];
    if (seat === 0) { box.append(h("p", {}, `${t("Seat")} 1: `, document.getElementById("me-name")?.textContent ?? t("you"))); continue; }
    // the bots apart from the person, each by its label; the value is the bot's name
    options.push(h("optgroup", {label: t("Bots (the computer plays)")},
      ...Object.entries(game.bots).map(([bot, {label, help}]) =>
        h("option", {value: `bot:${bot}`, title: help}, label))));
    const select = h("select", {id, class: "seat"}, ...options);
    if (before[id] && game.bots[before[id].slice(4)]) select.value = before[id];
    box.append(h("p", {}, h("label", {for: id}, `${t("Seat")} ${seat + 1}`), " ", select));
  }
}

function showGame() {
  const game = games[gameSelect.value];
  players.min = game.players[0];
  players.max = game.players[1];
  players.value = game.default_players;
  preset.replaceChildren(h("option", {value: ""}, "—"),
    ...Object.entries(game.presets).map(([p, help]) => h("option", {value: p}, help || p)));
  const rules = document.getElementById("rules");
  rules.replaceChildren(rules.firstElementChild, ...game.rules.map(ruleControl));
  seatControls();
  document.getElementById("hints-choice").hidden = !game.advice;
}

gameSelect.addEventListener("change", () => {
  document.getElementById("seats").querySelectorAll("select.seat").forEach((s) => s.remove());
  showGame();
});
players.addEventListener("change", seatControls);

// The move clock: its length asked for in seconds or in days, as the kind of clock says.
const clock = document.getElementById("clock");
function showClock() {
  document.getElementById("clock-seconds").hidden = clock.value !== "live";
  document.getElementById("clock-days").hidden = clock.value !== "correspondence";
  document.getElementById("clock-timeout").hidden = clock.value === "none";
}
clock.addEventListener("change", showClock);

function timeControl() {
  const control = {kind: clock.value, on_timeout: document.getElementById("on-timeout").value};
  if (clock.value === "live") control.seconds = Number(document.getElementById("seconds").value);
  if (clock.value === "correspondence") control.days = Number(document.getElementById("days").value);
  return control;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.textContent = "";
  const rules = {};
  for (const input of document.querySelectorAll("#rules [data-rule]")) {
    const value = input.type === "checkbox" ? input.checked
      : input.dataset.rule === "int" ? Number(input.value) : input.value;
    if (String(value) !== input.dataset.default) rules[input.name] = value;
  }
  const seats = [null, ...[...document.querySelectorAll("#seats select.seat")]
    .map((s) => s.value || null)];
  const pace = document.getElementById("pace").value;
  const body = {game: gameSelect.value, players: Number(players.value), seats, rules,
    preset: preset.value || null, time_control: timeControl(),
    pace: pace === "" ? null : Number(pace)};
  if (games[gameSelect.value].advice) body.hints = document.getElementById("hints").checked;
  const response = await fetch("/api/tables", {method: "POST",
    headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  const data = await response.json();
  if (!response.ok) {
    error.textContent = typeof data.detail === "string" ? data.detail
      : data.detail.map((d) => d.msg).join("; ");
    return;
  }
  location.href = `/play/${data.id}`;
});

showGame();
showClock();
