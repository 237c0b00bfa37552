// cardlab web: plain JavaScript, no build step. The server computes; this file draws.
"use strict";

// --- helpers ---------------------------------------------------------------------------

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const $ = (id) => document.getElementById(id);

// Page options from the address, e.g. /openseven?cards=9&seed=4&moves=2,left&hints=1
const params = new URLSearchParams(window.location.search);

function toast(message) {
  const t = $("toast");
  t.textContent = message;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 5000);
}

async function api(method, url, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(url, options);
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) {
    toast(data.error || `HTTP ${response.status}`);
    throw new Error(data.error);
  }
  return data;
}

// One card of a deck, as the API describes it: {text, ascii, suit, symbol, rank}.
function cardEl(card, extra) {
  const standard = "shdc".includes(card.suit);
  const cls = `card suit-${card.suit}${extra ? " " + extra : ""}`;
  if (standard) {
    const rank = card.rank === "T" ? "10" : card.rank;
    return h("span", { class: cls, title: card.text }, h("span", { class: "c-rank" }, rank),
      h("span", { class: "c-suit" }, card.symbol));
  }
  if (card.rank === "Z" && card.suit === "Y") {  // 太極, the Taikyoku
    return h("span", { class: cls, title: card.text }, h("span", { class: "c-rank" }, "太"),
      h("span", { class: "c-suit" }, "極"));
  }
  return h("span", { class: cls, title: card.text }, h("span", { class: "c-rank" }, card.rank),
    h("span", { class: "c-suit" }, card.symbol));
}

function backEl(extra) { return h("span", { class: "card back" + (extra ? " " + extra : "") }); }

function shortPercent(c) { return `${(c.value * 100).toFixed(2)}%`; }

// --- Open Seven --------------------------------------------------------------------------

function openSeven() {
  let game = null;

  async function newGame(seed) {
    const body = { cards: Number($("os-cards").value) };
    if (Number.isInteger(seed)) body.seed = seed;
    game = await api("POST", "/api/openseven/games", body);
    draw();
  }

  async function fromAddress() {
    if (params.get("cards")) $("os-cards").value = params.get("cards");
    if (params.get("hints") === "1") $("os-hints").checked = true;
    await loadOdds();
    const seed = params.get("seed");
    await newGame(seed === null ? undefined : Number(seed));
    for (const move of (params.get("moves") || "").split(",").filter(Boolean)) await play(move);
  }

  async function play(move) {
    if (!game) return;
    game = await api("POST", `/api/openseven/games/${game.id}/moves`, { move: String(move) });
    draw();
  }

  function hintFor(move) {
    return game.hints.find((x) => x.move === String(move));
  }

  function draw() {
    const showHints = $("os-hints").checked;
    const over = game.status !== "playing";
    const started = game.turned.length > 0;
    const row = $("os-row");
    row.replaceChildren();
    const values = over ? game.reveal.arrangement : game.faces;
    for (let p = 1; p <= game.cards; p++) {
      const face = game.faces[p - 1];
      const order = game.turned.indexOf(p);
      const named = !over && started && game.named.includes(p);
      const clickable = !over && (!started || named);
      let el;
      if (face !== null || over) {
        const extra = ["os", face === null ? "revealed" : "", game.turned[game.turned.length - 1] === p && !over ? "last" : ""]
          .filter(Boolean).join(" ");
        el = h("span", { class: "card " + extra }, h("span", { class: "c-rank" }, values[p - 1]));
        if (order >= 0) el.append(h("span", { class: "order", title: "turned in this order" }, order + 1));
      } else {
        el = backEl((clickable ? "clickable" : "") + (named ? " named" : ""));
      }
      if (clickable) {
        const move = started ? (game.targets.left === p ? "left" : "right") : p;
        el.addEventListener("click", () => play(move));
        el.title = started ? `turn position ${p} (${move})` : `start with position ${p}`;
      }
      let note = "";
      if (showHints && clickable) {
        const move = started ? (game.targets.left === p ? "left" : "right") : p;
        const hint = hintFor(move);
        if (hint) note = `${hint.fraction}\n${shortPercent(hint)}`;
      }
      if (over && game.reveal.solutions > 0) {
        const s = game.reveal.per_start[p - 1];
        note = `${s.solutions} sol.`;
      }
      const chance = h("span", { class: "chance" });
      chance.innerText = note;
      row.append(h("div", { class: "slot" }, el, h("span", { class: "pos" }, `#${p}`), chance));
    }

    const status = $("os-status");
    status.className = "status " + game.status;
    if (game.status === "won") status.textContent = "You win: every card is face up.";
    else if (game.status === "lost") status.textContent = `You lose: both cards named by ${game.last} are already face up.`;
    else if (!started) status.textContent = "Click any face-down card to start.";
    else {
      const left = game.last, right = game.cards + 1 - game.last;
      const where = left === right ? `the middle card, #${left}` : `#${left} from the left and #${right} from the right`;
      status.textContent = `You turned ${game.last}: it names ${where}.`;
    }

    const calls = $("os-calls");
    calls.hidden = over || !started;
    for (const side of ["left", "right"]) {
      const button = $(`os-${side}`);
      const pos = game.targets[side];
      const label = side === "left" ? "◀ Left" : "Right ▶";
      button.replaceChildren(label);
      button.disabled = pos === undefined;
      const sub = pos === undefined ? "face up" : `position ${pos}`;
      const hint = showHints && pos !== undefined ? hintFor(side) : null;
      button.append(h("small", {}, sub + (hint ? ` · win ${hint.fraction} (${shortPercent(hint)})` : "")));
    }

    const reveal = $("os-reveal");
    reveal.hidden = !over;
    if (over) {
      const r = game.reveal;
      reveal.replaceChildren(
        h("div", {}, h("strong", {}, "The arrangement: "), r.arrangement.join(" "),
          game.turned.length < game.cards ? " (the pale cards were still face down)" : ""),
        h("div", {}, `It has ${r.solutions} solution${r.solutions === 1 ? "" : "s"} (winning call strings) and ${r.lines} winning line${r.lines === 1 ? "" : "s"} (card orders)` +
          (r.solutions ? "; the number under each card counts the solutions starting there." : ": no start wins it.")),
        h("div", { class: "input-row" }, h("button", { class: "primary", onclick: () => newGame() }, "Play again")));
    }
  }

  async function loadOdds() {
    const n = Number($("os-cards").value);
    $("os-odds-n").textContent = n;
    const data = await api("GET", `/api/openseven/odds?cards=${n}`);
    const head = h("tr", {}, h("th", {}, "Start"), data.models.map((m) => h("th", {}, m.name)));
    const rows = data.starts.map((s) => h("tr", {}, h("td", {}, `position ${s.position}`),
      data.models.map((m) => cell(s.chances[m.id]))));
    const overall = h("tr", { class: "overall" }, h("td", {}, "overall"),
      data.models.map((m) => cell(data.overall[m.id])));
    $("os-odds").replaceChildren(h("table", {}, h("thead", {}, head), h("tbody", {}, rows, overall)));
  }

  function cell(c) {
    return h("td", { title: String(c.value) }, h("span", { class: "frac" }, c.fraction), c.percent);
  }

  $("os-new").addEventListener("click", () => newGame());
  $("os-left").addEventListener("click", () => play("left"));
  $("os-right").addEventListener("click", () => play("right"));
  $("os-hints").addEventListener("change", () => { if (game) draw(); });
  $("os-cards").addEventListener("change", () => { loadOdds(); newGame(); });
  fromAddress();
}

// --- Mixwell hands ---------------------------------------------------------------------

function handBox(value, opts) {
  const o = opts || {};
  const sec = value.secondary
    ? h("div", { class: "sec" }, "Secondary: ", value.secondary.en, h("span", { class: "ja" }, " " + value.secondary.ja))
    : h("div", { class: "sec" }, "No secondary hand");
  return h("div", { class: "hand-box" + (o.winner ? " winner" : "") },
    o.label ? h("div", { class: "note" }, o.label) : null,
    h("div", { class: "cat" }, value.category.en, h("span", { class: "ja" }, value.category.ja),
      o.winner ? h("span", { class: "badge" }, "wins") : null),
    sec,
    h("div", { class: "row-cards", style: "margin:.4rem 0" }, value.cards.map((c) => cardEl(c, "small"))),
    h("div", { class: "desc" }, value.description),
    h("div", { class: "desc" }, value.description_ja));
}

function hands() {
  let decks = [];
  const deckSel = $("h-deck");
  const input = $("h-cards");

  function currentDeck() { return decks.find((d) => d.name === deckSel.value); }

  function chosen() { return input.value.split(/[\s,]+/).filter(Boolean); }

  function drawPicker() {
    const deck = currentDeck();
    if (!deck) return;
    $("h-deck-info").textContent = `${deck.size} cards — ${deck.description}`;
    const picked = new Set(chosen());
    const cols = Math.max(...deck.rows.map((row) => row.cards.length));
    const rows = deck.rows.map((row) => h("div", { class: "prow", style: `--cols:${cols}` },
      h("span", { class: `plabel suit-${row.suit}`, title: row.name }, row.symbol),
      row.cards.map((c) => {
        if (!c) return h("span", { class: "pcard none" }, "·");
        const on = picked.has(c.text) || picked.has(c.ascii);
        return h("span", {
          class: `pcard suit-${c.suit}${on ? " chosen" : ""}`, title: `${c.text} (${c.ascii})`,
          onclick: () => toggle(c),
        }, c.text === "太極" ? c.text : c.rank === "T" ? "10" : c.rank);
      })));
    $("h-picker").replaceChildren(...rows);
  }

  function toggle(card) {
    let cards = chosen();
    if (cards.includes(card.text) || cards.includes(card.ascii)) {
      cards = cards.filter((x) => x !== card.text && x !== card.ascii);
    } else {
      if (cards.length >= 5) { toast("a hand is five cards: remove one first"); return; }
      cards.push(card.text);
    }
    input.value = cards.join(" ");
    drawPicker();
    if (cards.length === 5) evaluate();
  }

  async function evaluate() {
    const value = await api("POST", "/api/hands/evaluate", { deck: deckSel.value, cards: input.value });
    $("h-result").replaceChildren(handBox(value));
  }

  async function compare() {
    const lines = $("h-compare-input").value.split("\n").map((x) => x.trim()).filter(Boolean);
    const data = await api("POST", "/api/hands/compare", { deck: deckSel.value, hands: lines });
    const who = data.winners.map((w, i) => `${i ? "hand" : "Hand"} ${w}`).join(" and ");
    const verdict = data.decided_by === "tie"
      ? `${who} tie and split the pot.`
      : `${who} wins, decided by ${data.decided_by_text}.`;
    $("h-compare-result").replaceChildren(h("div", { class: "verdict" }, verdict),
      ...data.hands.map((v, i) => handBox(v, { label: `Hand ${i + 1}`, winner: data.winners.includes(i + 1) })));
  }

  async function loadTable() {
    $("h-table-deck").textContent = deckSel.value;
    $("h-table").replaceChildren(h("p", { class: "spinner" }, "counting…"));
    const data = await api("GET", `/api/hands/table?deck=${encodeURIComponent(deckSel.value)}`);
    const head = h("tr", {}, ["Order", "Hand", "Count", "Probability", "%", "Rarity"].map((x) => h("th", { class: x === "Hand" ? "name" : null }, x)));
    const rows = data.rows.map((r) => h("tr", {},
      h("td", {}, r.order), h("td", { class: "name" }, r.en, h("span", { class: "ja" }, r.ja)),
      h("td", {}, r.count.toLocaleString("en")), h("td", {}, r.fraction), h("td", {}, r.percent),
      h("td", {}, r.rarity.toFixed(4))));
    const total = h("tr", { class: "overall" }, h("td", {}), h("td", { class: "name" }, "all five-card hands"),
      h("td", {}, data.combinations.toLocaleString("en")), h("td", {}, "1"), h("td", {}, "100%"), h("td", {}));
    $("h-table").replaceChildren(h("p", { class: "note" }, data.rules),
      h("table", {}, h("thead", {}, head), h("tbody", {}, rows, total)));
  }

  const examples = {
    FESCA78: ["木7 火7 土7 金2 水9", "木8 火8 土8 金2 水9", "木1 木3 木5 木9 木11"],
    standard52: ["As Ah Kd Kc 2s", "Qs Qh Qd 3c 4s", "Ts Js Qs Ks As"],
  };

  function loadExamples() {
    const ex = examples[deckSel.value];
    if (ex) {
      input.value = ex[0];
      $("h-compare-input").value = ex.join("\n");
    } else {
      input.value = "";
      $("h-compare-input").value = "";
    }
  }

  deckSel.addEventListener("change", () => {
    loadExamples(); drawPicker(); loadTable();
    $("h-result").replaceChildren(); $("h-compare-result").replaceChildren();
    if (input.value) { evaluate(); compare(); }
  });
  input.addEventListener("input", drawPicker);
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") evaluate(); });
  $("h-eval").addEventListener("click", evaluate);
  $("h-clear").addEventListener("click", () => { input.value = ""; drawPicker(); $("h-result").replaceChildren(); });
  $("h-add").addEventListener("click", () => {
    const box = $("h-compare-input");
    box.value = (box.value.trim() ? box.value.trim() + "\n" : "") + input.value.trim();
  });
  $("h-compare").addEventListener("click", compare);

  api("GET", "/api/decks").then((data) => {
    decks = data.decks;
    const wanted = decks.find((d) => d.name.toLowerCase() === (params.get("deck") || "").toLowerCase());
    if (wanted) deckSel.value = wanted.name;
    loadExamples(); drawPicker(); loadTable();
    if (input.value) { evaluate(); compare(); }
  });
}

// --- showdown ----------------------------------------------------------------------------

function showdownPage() {
  let games = [];
  let deal = null;
  const gameSel = $("s-game");
  const oppSel = $("s-opponents");

  function fillOpponents() {
    const g = games.find((x) => x.key === gameSel.value);
    const keep = Number(oppSel.value) || 1;
    oppSel.replaceChildren(...Array.from({ length: g.max_opponents }, (_, i) =>
      h("option", { value: i + 1, selected: i + 1 === Math.min(keep, g.max_opponents) }, i + 1)));
  }

  async function newDeal() {
    const body = { game: gameSel.value, opponents: Number(oppSel.value) };
    const seed = $("s-seed").value.trim();
    if (seed !== "") body.seed = Number(seed);
    busy("dealing and sampling your equity…");
    try { deal = await api("POST", "/api/showdown/deals", body); } finally { busy(null); }
    $("s-seed").value = "";
    draw();
  }

  async function more() {
    busy("sampling more deals…");
    try { deal = await api("POST", `/api/showdown/deals/${deal.id}/samples`); } finally { busy(null); }
    draw();
  }

  async function next() {
    busy("sampling your equity…");
    try { deal = await api("POST", `/api/showdown/deals/${deal.id}/next`); } finally { busy(null); }
    draw();
  }

  function busy(text) {
    $("s-next").disabled = Boolean(text);
    $("s-new").disabled = Boolean(text);
    if (text) $("s-info").textContent = text;
  }

  function draw() {
    const over = deal.street === "showdown";
    $("s-info").textContent = `${deal.game_name} · seed ${deal.seed} · ${deal.street}`;
    const winners = over ? deal.showdown.winners : [];
    const opps = [];
    for (let i = 1; i <= deal.opponents; i++) {
      const player = over ? deal.showdown.players[i] : null;
      const cards = player ? player.hole.map((c) => cardEl(c, "small")) : Array.from({ length: deal.hole.length }, () => backEl("small"));
      opps.push(h("div", { class: "opp" }, h("div", { class: "label" }, `Opponent ${i}`, winners.includes(i + 1) ? h("span", { class: "badge" }, "wins") : null),
        h("div", { class: "row-cards" }, cards)));
    }
    $("s-opps").replaceChildren(...opps);
    const board = deal.board.map((c) => cardEl(c));
    while (board.length < 5) board.push(h("span", { class: "card empty" }));
    $("s-board").replaceChildren(...board);
    $("s-hole").replaceChildren(...deal.hole.map((c) => cardEl(c)));
    if (winners.includes(1)) $("s-hole").append(h("span", { class: "badge", style: "align-self:center" }, "you win"));
    $("s-current").textContent = deal.current
      ? `Your best five${over ? "" : " so far"}: ${deal.current.description}` : "";

    const nextButton = $("s-next");
    nextButton.hidden = over;
    if (!over) nextButton.textContent = deal.next === "showdown" ? "Show down" : `Deal the ${deal.next}`;

    const eqPanel = $("s-equity-panel");
    eqPanel.hidden = over;
    if (!over) {
      const e = deal.equity;
      const n = deal.opponents;
      $("s-equity").replaceChildren(
        h("div", { class: "equity-big" }, e.text),
        h("div", { class: "meter" }, h("div", { style: `width:${(e.equity * 100).toFixed(1)}%` })),
        h("p", { class: "note" },
          `Against ${n} random hand${n === 1 ? "" : "s"} (the opponents' cards are hidden): ` +
          `win ${(e.win * 100).toFixed(1)}%, tie ${(e.tie * 100).toFixed(1)}%, ` +
          `Monte Carlo over ${e.samples} deals of the unseen cards; ± is one standard error.`),
        deal.more_samples ? h("button", { onclick: more }, "More samples") : null,
        deal.equity_by_street.length > 1
          ? h("table", { class: "streets" }, h("thead", {}, h("tr", {}, h("th", {}, "Street"), h("th", {}, "Equity"), h("th", {}, "Win"), h("th", {}, "Tie"))),
            h("tbody", {}, deal.equity_by_street.map((x) => h("tr", { class: x.street === deal.street ? "highlight" : null },
              h("td", {}, x.street), h("td", {}, x.text), h("td", {}, `${(x.win * 100).toFixed(1)}%`), h("td", {}, `${(x.tie * 100).toFixed(1)}%`)))))
          : null);
    }

    const sdPanel = $("s-showdown-panel");
    sdPanel.hidden = !over;
    if (over) {
      const sd = deal.showdown;
      const who = sd.winners.map((w) => (w === 1 ? "you" : `opponent ${w - 1}`)).join(" and ");
      const steps = { category: "the hand category", secondary: "the secondary hand", ranks: "the ranks", suits: "the suits" };
      const verdict = sd.split ? `Split pot between ${who}.` : `Winner: ${who}, decided by ${steps[sd.decided_by]}.`;
      $("s-showdown").replaceChildren(h("div", { class: "verdict" }, verdict),
        h("div", { class: "players" }, sd.players.map((p) => h("div", { class: "hand-box" + (p.share.value > 0 ? " winner" : "") },
          h("div", { class: "note" }, p.you ? "You" : `Opponent ${p.seat - 1}`, " · hole ",
            p.hole.map((c) => c.text).join(" "), p.share.value > 0 ? ` · share ${p.share.fraction}` : ""),
          h("div", { class: "cat" }, p.value.category.en, h("span", { class: "ja" }, p.value.category.ja),
            p.share.value > 0 ? h("span", { class: "badge" }, "wins") : null),
          h("div", { class: "row-cards", style: "margin:.4rem 0" }, p.best_five.map((c) => cardEl(c, "small"))),
          h("div", { class: "desc" }, p.value.description)))),
        h("div", { class: "input-row" }, h("button", { class: "primary", onclick: newDeal }, "New deal")));
    }
  }

  $("s-new").addEventListener("click", newDeal);
  $("s-next").addEventListener("click", next);
  gameSel.addEventListener("change", fillOpponents);
  api("GET", "/api/games").then((data) => {
    games = data.games;
    gameSel.replaceChildren(...games.map((g) => h("option", { value: g.key, selected: g.key === "fesca78-holdem" }, `${g.name} (${g.key})`)));
    const wanted = params.get("game");
    if (wanted && games.some((g) => g.key === wanted)) gameSel.value = wanted;
    fillOpponents();
    if (params.get("opponents")) oppSel.value = params.get("opponents");
    if (params.get("seed") !== null) {
      $("s-seed").value = params.get("seed");
      replay(Number(params.get("streets") || 0));
    }
  });

  async function replay(streets) {
    await newDeal();
    for (let i = 0; i < streets && deal.street !== "showdown"; i++) await next();
  }
}

// --- start -------------------------------------------------------------------------------

const pages = { openseven: openSeven, hands, showdown: showdownPage };
const start = pages[document.body.dataset.page];
if (start) start();
