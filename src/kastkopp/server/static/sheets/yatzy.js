// The Yatzy-family sheet while offline. Nothing here scores: every number is looked up in
// the table the server publishes for the sheet's rules (GET /api/sheets/offline/yatzy,
// kastkopp.sheets.yatzy.scores_table), so the page and the server cannot disagree. The
// entry is read as kastkopp.sheets.yatzy reads it and refused for the same reasons; the
// sums (bonus, total, result) wait for the server.

class Refusal extends Error {}

/** Words as the sheet splits them: spaces part them, quotes keep a name whole. */
function split(text) {
  return [...text.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

const normal = (text) => text.trim().toLowerCase().replace(/[-_.:]/g, " ")
  .split(/\s+/).filter(Boolean).join(" ");

/** One entry read into {player, row, dice | points | scratch, first}. */
function read(text, sheet, table, say, help) {
  const words = split(text);
  const refuse = (template, values) => { throw new Refusal(say(template, values)); };
  if (words.length < 3) refuse("cannot read '{text}': {help}", {text: words.join(" "), help});
  const player = sheet.players.findIndex((n) => n.toLowerCase() === words[0].toLowerCase());
  if (player < 0) {
    refuse("'{name}' is not a player here (players: {names})",
      {name: words[0], names: sheet.players.join(", ")});
  }
  let rest = words.slice(1);
  const first = table.first_words.includes(rest.at(-1).toLowerCase());
  if (first) rest = rest.slice(0, -1);
  const isValue = (w) => table.scratch.includes(w) || /^\d+$/.test(w);
  const at = rest.findIndex((w, i) => i > 0 && isValue(w));
  if (at < 0) refuse("no dice or points for {row}: {help}", {row: rest.join(" "), help});
  const said = rest.slice(0, at).join(" ");
  const row = table.names[normal(said)];
  if (!row) {
    refuse("'{text}' is not a row (rows: {rows})",
      {text: said, rows: table.rows.map((r) => label(table, r, say)).join(", ")});
  }
  const values = rest.slice(at);
  const entry = {player, row, first};
  if (values.length === 1 && table.scratch.includes(values[0]) && !first) {
    return values[0] === "0" ? {...entry, points: 0} : {...entry, scratch: true};
  }
  if (values.length === 1 && !(values[0].length === table.dice && /^\d+$/.test(values[0]))) {
    if (first) refuse("'first' goes with the dice of the first throw, not points");
    return {...entry, points: Number(values[0])};
  }
  const digits = values.join(" ").replace(/[\s,;+-]/g, "");
  if (!/^\d+$/.test(digits)) {
    refuse("'{text}' are not dice: write them like 3 3 5", {text: values.join(" ")});
  }
  const dice = [...digits].map(Number).sort((a, b) => a - b);
  const wrong = dice.find((f) => f < 1 || f > 6);
  if (wrong !== undefined) refuse("a die shows 1 to 6, not {face}", {face: wrong});
  if (dice.length !== table.dice) {
    refuse("this sheet is played with {dice} dice, not {count} ({shown})",
      {dice: table.dice, count: dice.length, shown: dice.join(" ")});
  }
  return {...entry, dice};
}

function label(table, row, say) {
  const key = `row:${table.sheet}:${row}`;
  const shown = say(key);
  return shown === key ? row : shown;
}

/** The open rows an entry may take, as the rules' order and the joker allow
 *  (kastkopp.games.yatzy.playable_rows). */
function playable(table, cells, dice, joker) {
  let rows = table.rows.filter((r) => !cells[r]);
  if (table.order === "top-down") {
    rows = rows.slice(0, 1);
  } else if (table.order === "parts") {
    const upper = rows.filter((r) => table.upper.includes(r));
    if (upper.length) rows = upper;
  }
  if (joker && !table.joker_choice) {
    const own = table.upper[dice[0] - 1];
    const lower = rows.filter((r) => !table.upper.includes(r));
    rows = rows.includes(own) ? [own] : (lower.length ? lower : rows);
  }
  return rows;
}

/** What the entry writes in its row: the table's number, or a refusal. */
export function cell(entry, cells, table, say, name, number) {
  const {row} = entry;
  const here = label(table, row, say);
  const refuse = (template, values) => { throw new Refusal(say(template, values)); };
  if (!table.rows.includes(row)) {
    refuse("this sheet has no {row} row (rows: {rows})",
      {row: here, rows: table.rows.join(", ")});
  }
  if (cells[row] !== null && cells[row] !== undefined) {
    refuse("{name} has already written {cell} in {row} (entry {entry}); a row takes one entry",
      {name, cell: cells[row].text, row: here, entry: cells[row].entry});
  }
  const joker = Boolean(entry.dice) && "joker" in table.scores
    && new Set(entry.dice).size === 1 && Boolean(cells.yatzy)
    && (!table.joker_choice || Boolean(cells[table.upper[entry.dice[0] - 1]]));
  const allowed = playable(table, cells, entry.dice, joker);
  if (!allowed.includes(row)) {
    const why = joker ? "a Yahtzee goes in its upper row if open, else a lower row"
      : table.order === "top-down" ? "the rows are filled top to bottom"
        : "the upper part is filled first";
    refuse("{name} cannot write in {row} yet: {why} (open now: {open})",
      {name, row: here, why: say(why), open: allowed.join(", ")});
  }
  if (entry.dice) {
    const faces = entry.dice.join("");
    const way = [entry.first && "first" in table.scores && "first", joker && "joker"]
      .filter(Boolean).join(" ") || "plain";
    const points = table.scores[way][row][table.throws.indexOf(faces)];
    if (points === null) {
      refuse("{dice} is not {row}: to cross the row out write '{entry}'",
        {dice: entry.dice.join(" "), row: here, entry: `${name} ${row} ${table.cross}`});
    }
    return String(points);
  }
  const possible = table.possible[row];
  if (entry.scratch || (entry.points === 0 && !possible.includes(0))) {
    if (!table.miss.includes(row)) {
      refuse("{row} is always made ({possible}): it cannot be crossed out",
        {row: here, possible: table.possible_text[row]});
    }
    return table.crossed;
  }
  if (!possible.includes(entry.points)) {
    refuse("{points} is not a possible score in {row} ({possible})",
      {points: entry.points, row: here, possible: table.possible_text[row]});
  }
  return String(entry.points);
}

/** The sheet as far as the table tells it: every row's cells, the sums left to the server.
 *  Without a table (rules never seen online) the entries are kept as written. */
export function derive(sheet, {table, say, help}) {
  if (!table) return null;
  const columns = sheet.players.map(() => ({}));
  sheet.entries.forEach((text, index) => {
    try {
      const entry = read(text, sheet, table, say, help);
      const name = sheet.players[entry.player];
      const written = cell(entry, columns[entry.player], table, say, name, index + 1);
      columns[entry.player][entry.row] = {text: written, entry: index + 1};
    } catch (problem) {
      if (problem instanceof Refusal) {
        throw new RangeError(say("entry {number} ({entry}): {reason}",
          {number: index + 1, entry: text, reason: problem.message}));
      }
      throw problem;
    }
  });
  const grid = [["", ...sheet.players],
    ...table.rows.map((row) => [label(table, row, say),
      ...columns.map((c) => c[row]?.text ?? null)])];
  return {game: sheet.game, table: grid, players: [], count: "total", finished: false,
    partial: true};
}
