// The study page (/study): post a spot, follow its solve, then walk the solved tree.
// An ES module, no build step: the DOM helper, the card renderer and the API client are
// the modules every page shares.
import { $, h, put, params } from "./dom.js";
import { call as api } from "./api.js";
import { card } from "./cards.js";

const POLL_MS = 400;
const MAX_ROWS = 400; // hand rows drawn at once (a FESCA range may have thousands)
const STREETS = ["flop", "turn", "river"];
const FIELDS = ["game", "board", "oop", "ip", "pot", "stack", "bets", "raises", "iterations", "target"];
const NUMBERS = new Set(["pot", "stack", "iterations"]);

const examples = JSON.parse($("st-examples").textContent);
const state = { job: null, line: [], node: null, sort: { key: "ev", up: false }, timer: null };

export function fill(example) {
  for (const name of FIELDS) $(`st-${name}`).value = example[name] ?? "";
  for (const street of STREETS) {
    for (const kind of ["bets", "raises"]) $(`st-${street}-${kind}`).value = "";
  }
}

export function spotFromForm() {
  const spot = {};
  for (const name of FIELDS) {
    const text = $(`st-${name}`).value.trim();
    if (name === "target") spot.target = text === "" ? null : Number(text);
    else if (NUMBERS.has(name)) spot[name] = /^\d+$/.test(text) ? Number(text) : text;
    else spot[name] = text;
  }
  const streets = {};
  for (const street of STREETS) {
    for (const kind of ["bets", "raises"]) {
      const text = $(`st-${street}-${kind}`).value.trim();
      if (text) (streets[street] ||= {})[kind] = text;
    }
  }
  if (Object.keys(streets).length) spot.streets = streets;
  return spot;
}

function showError(message) {
  const el = $("st-error");
  el.textContent = message || "";
  el.hidden = !message;
}

const percent = (x, digits = 1) => (x === null || x === undefined ? "–" : `${(100 * x).toFixed(digits)}%`);
const chips = (x) => (x === null || x === undefined ? "–" : x.toFixed(2));

// --- the solve ---------------------------------------------------------------------------

async function startSolve(event) {
  event.preventDefault();
  showError("");
  let job;
  try {
    job = await api("POST", "/api/study/solves", spotFromForm());
  } catch (e) {
    showError(e.message || "the solve could not start");
    return;
  }
  state.job = job.id;
  $("st-result").hidden = true;
  $("st-solve").disabled = true;
  $("st-cancel").hidden = false;
  $("st-progress-box").hidden = false;
  follow(job);
}

function follow(job) {
  clearTimeout(state.timer);
  const bar = $("st-progress");
  const status = $("st-status");
  if (job.state === "waiting" || job.state === "running" || job.state === "cancelling") {
    const p = job.progress;
    if (p) {
      bar.max = p.total;
      bar.value = p.done;
      const measured = p.exploitability === null ? "" : `, exploitability ${p.exploitability.toFixed(3)}% of the pot`;
      status.textContent = p.state === "building" ? "building the game…" : `iteration ${p.done} of at most ${p.total}${measured}`;
    } else {
      bar.removeAttribute("value");
      status.textContent = job.state === "cancelling" ? "cancelling…" : "waiting for a worker…";
    }
    status.dataset.state = job.state;
    state.timer = setTimeout(async () => {
      try { follow(await api("GET", `/api/study/solves/${job.id}`)); } catch (e) { finish(); }
    }, POLL_MS);
    return;
  }
  status.dataset.state = job.state;
  finish();
  if (job.state === "failed") { showError(job.error); return; }
  if (!job.browsable) { status.textContent = "cancelled before it began"; return; }
  const r = job.result;
  bar.max = 1; bar.value = 1;
  status.textContent = `${job.state === "cancelled" ? "stopped" : "solved"}: ${r.iterations} iterations in ${r.seconds.toFixed(1)} s, ` +
    `exploitability ${r.exploitability === null ? "–" : r.exploitability.toFixed(3) + "%"} of the pot`;
  state.line = [];
  showNode();
}

function finish() {
  $("st-solve").disabled = false;
  $("st-cancel").hidden = true;
}

async function cancelSolve() {
  if (!state.job) return;
  try { await api("POST", `/api/study/solves/${state.job}/cancel`); } catch (e) { /* toast shown */ }
}

// --- the tree ----------------------------------------------------------------------------

async function showNode() {
  let node;
  try {
    node = await api("GET", `/api/study/solves/${state.job}/node?line=${encodeURIComponent(state.line.join(" "))}`);
  } catch (e) {
    state.line.pop();
    return;
  }
  state.node = node;
  $("st-result").hidden = false;
  const root = node.root;
  $("st-summary").textContent = `${root.game}. At the root: OOP EV ${chips(root.ev.oop)}, equity ${percent(root.equity.oop)}; ` +
    `IP EV ${chips(root.ev.ip)}, equity ${percent(root.equity.ip)}.`;
  drawCrumbs();
  put($("st-board-cards"), node.board_cards.map((c) => card(c, { small: true })));
  const who = node.kind === "decision" ? `${node.player.toUpperCase()} to act` : { chance: "a card comes", fold: "a fold: the hand is over", showdown: "the showdown" }[node.kind];
  $("st-where").textContent = `${who}; pot ${node.pot}. OOP EV ${chips(node.ev.oop)} (equity ${percent(node.equity.oop)}), IP EV ${chips(node.ev.ip)} (equity ${percent(node.equity.ip)})`;
  drawActions(node);
  drawCards(node);
  drawGrid(node);
  drawHands(node);
}

function go(token) { state.line.push(token); showNode(); }

function drawCrumbs() {
  const items = [h("button", { type: "button", onclick: () => { state.line = []; showNode(); } }, "root")];
  state.line.forEach((token, i) => {
    items.push(h("span", { class: "sep" }, "›"));
    items.push(h("button", { type: "button", onclick: () => { state.line = state.line.slice(0, i + 1); showNode(); } }, token));
  });
  put($("st-crumbs"), items);
}

function drawActions(node) {
  const box = $("st-actions");
  if (node.kind !== "decision") { put(box); return; }
  put(box, node.actions.map((a, i) => h("button", { type: "button", class: "st-action", "data-action": a.action, onclick: () => go(a.action) },
    h("span", {}, h("span", { class: "st-swatch", style: `background:${node.colours[i]}` }), a.name),
    h("span", { class: "st-freq" }, percent(a.frequency)),
    h("span", { class: "st-bar" }, h("span", { style: `width:${(100 * a.frequency).toFixed(1)}%;background:${node.colours[i]}` })))));
}

function drawCards(node) {
  const box = $("st-cards");
  box.hidden = node.kind !== "chance";
  if (box.hidden) { put(box); return; }
  put(box, node.cards.map((c) => {
    const button = card(c, { tag: "button", extra: "clickable", title: `deal ${c.text}`, label: `deal ${c.name}` });
    button.type = "button";
    button.addEventListener("click", () => go(c.ascii));
    return button;
  }));
}

// A class's cell: its actions' frequencies side by side, as draw_grid paints them.
function cellBackground(strategy, colours) {
  let left = 0;
  const stops = strategy.map((f, i) => {
    const from = left; left += 100 * f;
    return `${colours[i]} ${from.toFixed(2)}% ${left.toFixed(2)}%`;
  });
  return `linear-gradient(to right, ${stops.join(", ")})`;
}

function drawGrid(node) {
  const grid = $("st-grid");
  const legend = $("st-legend");
  const apart = $("st-apart");
  grid.parentElement.hidden = node.kind !== "decision";
  if (node.kind !== "decision") { put(legend); put(apart); return; }
  const n = node.grid.size;
  grid.style.gridTemplateColumns = `repeat(${n}, minmax(0, 1fr))`;
  grid.style.gridTemplateRows = `repeat(${n}, minmax(0, 1fr))`;
  const cell = (c) => {
    const el = h("div", { class: "st-cell" + (c.strategy ? " played" : ""), title: c.strategy ?
      `${c.name}: ${node.actions.map((a, i) => `${a.name} ${percent(c.strategy[i])}`).join(", ")}` : c.name }, c.name);
    if (c.strategy) el.style.background = cellBackground(c.strategy, node.colours);
    if (c.row !== null) { el.style.gridRow = c.row + 1; el.style.gridColumn = c.col + 1; }
    return el;
  };
  put(grid, node.grid.cells.filter((c) => c.row !== null).map(cell));
  put(apart, node.grid.cells.filter((c) => c.row === null).map(cell));
  put(legend, node.actions.map((a, i) => h("span", {}, h("span", { class: "st-swatch", style: `background:${node.colours[i]}` }), a.name)));
}

function drawHands(node) {
  const table = $("st-hands");
  const actions = node.kind === "decision" ? node.actions : [];
  const columns = [["hand", "hand"], ["weight", "weight"], ...actions.map((a) => [`a:${a.action}`, a.action]), ["ev", "EV"], ["equity", "equity"]];
  const value = (row, key) => (key.startsWith("a:") ? (row.strategy || {})[key.slice(2)] : row[key]);
  const { key, up } = state.sort;
  const rows = [...node.hands].sort((a, b) => {
    const x = value(a, key), y = value(b, key);
    if (typeof x === "string") return up ? x.localeCompare(y) : y.localeCompare(x);
    return ((x ?? -Infinity) - (y ?? -Infinity)) * (up ? 1 : -1);
  });
  put(table.tHead, h("tr", {}, columns.map(([k, label]) => h("th", {
    scope: "col", class: `sortable${k === key ? " sorted" : ""}${k === key && up ? " up" : ""}`,
    onclick: () => { state.sort = { key: k, up: k === key ? !up : k === "hand" }; drawHands(node); },
  }, label))));
  put(table.tBodies[0], rows.slice(0, MAX_ROWS).map((r) => h("tr", {},
    h("td", { class: "name" }, r.hand), h("td", {}, r.weight.toFixed(3)),
    actions.map((a) => h("td", {}, percent((r.strategy || {})[a.action]))),
    h("td", {}, chips(r.ev)), h("td", {}, percent(r.equity, 2)))));
  const player = node.player || "oop";
  $("st-hands-note").textContent = `${player.toUpperCase()}'s ${node.hands.length} hands reaching here` +
    (rows.length > MAX_ROWS ? ` (the first ${MAX_ROWS} shown)` : "") + "; click a heading to sort.";
}

// --- start -------------------------------------------------------------------------------

for (const button of document.querySelectorAll("[data-example]")) {
  button.addEventListener("click", () => fill(examples[button.dataset.example]));
}
$("st-form").addEventListener("submit", startSolve);
$("st-cancel").addEventListener("click", cancelSolve);
fill(examples[params.get("example") === "fesca78" ? "fesca78" : "standard"]);
