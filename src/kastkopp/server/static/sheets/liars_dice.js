// The liar's-dice sheet while offline: dice (or lives) left are the start minus the sum of
// the cells. Only a stand-in until the server works the sheet out again
// (kastkopp.sheets.liars); what a player starts with, its unit and the words of an entry
// come from the table the server publishes for the sheet's rules (GET /api/sheets/offline).

const DEFAULTS = {start: 5, count: "dice", loss_words: ["loss"], exact_words: ["exact"]};

function cellsOf(entry, names, alive, counts, table, say) {
  const words = entry.trim().split(/\s+/);
  const cells = names.map(() => 0);
  const who = (name) => names.findIndex((n) => n.toLowerCase() === name.toLowerCase());
  const head = words[0].toLowerCase();
  const loss = table.loss_words.includes(head);
  if (words.length >= 2 && (loss || table.exact_words.includes(head))) {
    const seat = who(words[1]);
    if (seat < 0 || !alive[seat]) {
      throw new RangeError(say("'{name}' is not a player here (players: {names})",
        {name: words[1], names: names.filter((_, s) => alive[s]).join(", ")}));
    }
    cells[seat] = loss ? 1 : (counts[seat] >= table.start ? 0 : -1);
    return cells;
  }
  if (words.length === 1 && who(words[0]) >= 0) {
    return cellsOf(`${table.loss_words[0]} ${words[0]}`, names, alive, counts, table, say);
  }
  const values = words.map((w) => (w === "-" ? null : Number(w.replace("−", "-"))));
  if (values.length !== names.length || values.some((v) => v !== null && !Number.isInteger(v))) {
    throw new RangeError(say("{cells} cells for the {count} players in the game ({names})",
      {cells: words.length, count: names.length, names: names.join(", ")}));
  }
  return values.map((v) => v ?? 0);
}

export function derive(sheet, {table = null, say = (text) => text} = {}) {
  const rules = table ?? {...DEFAULTS, start: Number(sheet.rules?.dice ?? DEFAULTS.start)};
  const start = rules.start;
  const names = sheet.players;
  const counts = names.map(() => start);
  const out = names.map(() => null);
  const header = [say("Round"), ...names, ...names.map((n) => `${n} ${say(rules.count)}`)];
  const rows = [];
  sheet.entries.forEach((entry, index) => {
    const alive = counts.map((c) => c > 0);
    const cells = cellsOf(entry, names, alive, counts, rules, say);
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
  const players = names.map((name) => ({name, [rules.count]: 0, place: 0}));
  order.forEach((s, i) => { players[s] = {name: names[s], [rules.count]: counts[s], place: i + 1}; });
  const finished = counts.filter((c) => c > 0).length <= 1;
  return {game: sheet.game, count: rules.count, players, table: [header, ...rows], finished,
    provisional: true};
}
