// The liar's-dice sheet while offline: dice left are the start minus the sum of the cells.
// Only a stand-in until the server works the sheet out again (kastkopp.sheets.liars).

function cellsOf(entry, names, alive, counts, start) {
  const words = entry.trim().split(/\s+/);
  const cells = names.map(() => 0);
  const who = (name) => names.findIndex((n) => n.toLowerCase() === name.toLowerCase());
  if (words.length >= 2 && (words[0] === "loss" || words[0] === "exact")) {
    const seat = who(words[1]);
    if (seat < 0 || !alive[seat]) throw new Error(`'${words[1]}' is not a player in the game`);
    cells[seat] = words[0] === "loss" ? 1 : (counts[seat] >= start ? 0 : -1);
    return cells;
  }
  if (words.length === 1 && who(words[0]) >= 0) return cellsOf(`loss ${words[0]}`, names, alive, counts, start);
  const values = words.map((w) => (w === "-" ? null : Number(w.replace("−", "-"))));
  if (values.length !== names.length || values.some((v) => v !== null && !Number.isInteger(v))) {
    throw new Error(`write one cell per player (${names.join(", ")}), '-' for a player who is out`);
  }
  return values.map((v) => v ?? 0);
}

export function derive(sheet) {
  const start = Number(sheet.rules?.dice ?? 5);
  const names = sheet.players;
  const counts = names.map(() => start);
  const out = names.map(() => null);
  const header = ["Round", ...names, ...names.map((n) => `${n} dice`)];
  const rows = [];
  sheet.entries.forEach((entry, index) => {
    const alive = counts.map((c) => c > 0);
    const cells = cellsOf(entry, names, alive, counts, start);
    cells.forEach((c, s) => {
      if (!alive[s]) return;
      counts[s] = Math.min(start, counts[s] - c);
      if (counts[s] <= 0) { counts[s] = 0; out[s] = index + 1; }
    });
    rows.push([String(index + 1), ...cells.map((c, s) => (alive[s] ? String(c).replace("-", "−") : null)),
      ...counts.map((c, s) => (alive[s] || out[s] === index + 1 ? String(c) : null))]);
  });
  const order = names.map((_, s) => s).sort((a, b) =>
    (counts[b] - counts[a]) || ((out[b] ?? Infinity) - (out[a] ?? Infinity)));
  const players = names.map((name) => ({name, dice: 0, place: 0}));
  order.forEach((s, i) => { players[s] = {name: names[s], dice: counts[s], place: i + 1}; });
  const finished = counts.filter((c) => c > 0).length <= 1;
  return {game: sheet.game, count: "dice", players, table: [header, ...rows], finished,
    provisional: true};
}
