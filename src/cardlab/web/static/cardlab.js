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

// Replace an element's children; null/false children are left out (replaceChildren
// would print them as the text "null").
function put(el, ...children) {
  el.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

// Japanese text, marked so that the browser picks a Japanese font for it.
function ja(text, cls) { return h("span", { class: cls || "ja", lang: "ja" }, text); }

// Requests in flight (the browser tests wait for 0).
window.cardlabBusy = 0;

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
  window.cardlabBusy += 1;
  try {
    let response;
    try {
      response = await fetch(url, options);
    } catch (e) {
      toast("the server did not answer: is cardlab web still running?");
      throw e;
    }
    const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    if (!response.ok) {
      toast(data.error || `HTTP ${response.status}`);
      throw new Error(data.error);
    }
    return data;
  } finally {
    window.cardlabBusy -= 1;
  }
}

// One card of a deck, as the API describes it: {text, name, ascii, suit, symbol, rank}.
// An image to a screen reader, named by the card in words.
function cardEl(card, extra) {
  const standard = "shdc".includes(card.suit);
  const attrs = { class: `card suit-${card.suit}${extra ? " " + extra : ""}`, title: card.text,
    role: "img", "aria-label": card.name || card.text };
  if (standard) {
    const rank = card.rank === "T" ? "10" : card.rank;
    return h("span", attrs, h("span", { class: "c-rank" }, rank), h("span", { class: "c-suit" }, card.symbol));
  }
  if (card.rank === "Z" && card.suit === "Y") {  // 太極, the Taikyoku
    return h("span", attrs, ja("太", "c-rank"), ja("極", "c-suit"));
  }
  return h("span", attrs, h("span", { class: "c-rank" }, card.rank), ja(card.symbol, "c-suit"));
}

function backEl(extra, label) {
  return h("span", { class: "card back" + (extra ? " " + extra : ""), role: "img", "aria-label": label || "face down" });
}

function shortPercent(c) { return `${(c.value * 100).toFixed(2)}%`; }

// --- Open Seven --------------------------------------------------------------------------

function openSeven() {
  let game = null;
  let inFlight = false;  // one request at a time: a double click must not play two moves

  // Run one request with every control of the game disabled; clicks meanwhile are ignored.
  async function exclusive(work) {
    if (inFlight) return;
    inFlight = true;
    setControls(false);
    try { await work(); } catch (e) { /* the toast says why */ } finally {
      inFlight = false;
      setControls(true);
    }
  }

  function setControls(enabled) {
    $("os-new").disabled = !enabled;
    $("os-cards").disabled = !enabled;
    $("os-row").setAttribute("aria-busy", enabled ? "false" : "true");
    for (const b of document.querySelectorAll("#os-row button, #os-calls button, #os-reveal button")) {
      b.disabled = !enabled || b.dataset.off === "1";
    }
  }

  function newGame(seed) {
    return exclusive(async () => {
      const body = { cards: Number($("os-cards").value) };
      if (Number.isInteger(seed)) body.seed = seed;
      game = await api("POST", "/api/openseven/games", body);
      draw();
    });
  }

  async function fromAddress() {
    if (params.get("cards")) $("os-cards").value = params.get("cards");
    if (params.get("hints") === "1") $("os-hints").checked = true;
    await loadOdds();
    const seed = params.get("seed");
    await newGame(seed === null ? undefined : Number(seed));
    for (const move of (params.get("moves") || "").split(",").filter(Boolean)) await play(move);
  }

  function play(move) {
    if (!game) return Promise.resolve();
    return exclusive(async () => {
      game = await api("POST", `/api/openseven/games/${game.id}/moves`, { move: String(move) });
      draw();
    });
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
    row.style.setProperty("--n", game.cards);
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
        const said = face === null ? `position ${p}: ${values[p - 1]}, was face down`
          : `position ${p}: ${values[p - 1]}, turned ${order + 1}${["st", "nd", "rd"][order] || "th"}`;
        el = h("span", { class: "card " + extra, role: "img", "aria-label": said }, h("span", { class: "c-rank" }, values[p - 1]));
        if (order >= 0) el.append(h("span", { class: "order", title: "turned in this order", "aria-hidden": "true" }, order + 1));
      } else if (clickable) {
        const move = started ? (game.targets.left === p ? "left" : "right") : p;
        const said = started ? `turn position ${p} (${move})` : `start with position ${p}`;
        el = h("button", { type: "button", class: "card back clickable" + (named ? " named" : ""), title: said, "aria-label": said });
        el.addEventListener("click", () => play(move));
      } else {
        el = backEl("", `position ${p}, face down`);
      }
      const chance = h("span", { class: "chance" });
      if (showHints && clickable) {
        const move = started ? (game.targets.left === p ? "left" : "right") : p;
        const hint = hintFor(move);
        if (hint) chance.append(h("span", {}, hint.fraction), h("span", { class: "pct" }, shortPercent(hint)));
      }
      if (over && game.reveal.solutions > 0) {
        const s = game.reveal.per_start[p - 1];
        chance.append(h("span", { title: "solutions starting here" }, `${s.solutions}`), h("span", { class: "pct" }, "sol."));
      }
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
      button.dataset.off = pos === undefined ? "1" : "0";
      button.disabled = pos === undefined || inFlight;
      const sub = pos === undefined ? "face up" : `position ${pos}`;
      const hint = showHints && pos !== undefined ? hintFor(side) : null;
      button.append(h("small", {}, sub + (hint ? ` · win ${hint.fraction} (${shortPercent(hint)})` : "")));
    }

    const reveal = $("os-reveal");
    reveal.hidden = !over;
    if (over) {
      const r = game.reveal;
      put(reveal,
        h("div", {}, h("strong", {}, "The arrangement: "), r.arrangement.join(" "),
          game.turned.length < game.cards ? " (the pale cards were still face down)" : ""),
        h("div", {}, `It has ${r.solutions} solution${r.solutions === 1 ? "" : "s"} (winning call strings) and ${r.lines} winning line${r.lines === 1 ? "" : "s"} (card orders)` +
          (r.solutions ? "; the number under each card counts the solutions starting there." : ": no start wins it.")),
        h("div", { class: "input-row" }, h("button", { class: "primary", disabled: inFlight, onclick: () => newGame() }, "Play again")));
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
    put($("os-odds"), h("table", {}, h("thead", {}, head), h("tbody", {}, rows, overall)));
  }

  function cell(c) {
    return h("td", { title: String(c.value) }, h("span", { class: "frac" }, c.fraction), c.percent);
  }

  $("os-new").addEventListener("click", () => newGame());
  $("os-left").addEventListener("click", () => play("left"));
  $("os-right").addEventListener("click", () => play("right"));
  $("os-hints").addEventListener("change", () => { if (game) draw(); });
  $("os-cards").addEventListener("change", () => { loadOdds().catch(() => {}); newGame(); });
  fromAddress().catch(() => {});
}

// --- Mixwell hands ---------------------------------------------------------------------

function handBox(value, opts) {
  const o = opts || {};
  const sec = value.secondary
    ? h("div", { class: "sec" }, "Secondary: ", value.secondary.en, " ", ja(value.secondary.ja))
    : h("div", { class: "sec" }, "No secondary hand");
  return h("div", { class: "hand-box" + (o.winner ? " winner" : "") },
    o.label ? h("div", { class: "note" }, o.label) : null,
    h("div", { class: "cat" }, value.category.en, ja(value.category.ja),
      o.winner ? h("span", { class: "badge" }, "wins") : null),
    sec,
    h("div", { class: "row-cards", style: "margin:.4rem 0" }, value.cards.map((c) => cardEl(c, "small"))),
    h("div", { class: "desc" }, value.description),
    h("div", { class: "desc", lang: "ja" }, value.description_ja));
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
    const rows = deck.rows.map((row) => h("div", { class: "prow", style: `--cols:${cols}`, role: "group", "aria-label": row.name },
      h("span", { class: `plabel suit-${row.suit}`, title: row.name, lang: "ja" }, row.symbol),
      row.cards.map((c) => {
        if (!c) return h("span", { class: "pcard none", "aria-hidden": "true" }, "·");
        const on = picked.has(c.text) || picked.has(c.ascii);
        return h("button", {
          type: "button", class: `pcard suit-${c.suit}${on ? " chosen" : ""}`, title: `${c.text} (${c.ascii})`,
          "aria-label": c.name || c.text, "aria-pressed": on ? "true" : "false",
          onclick: () => toggle(c),
        }, c.text === "太極" ? ja(c.text, "") : c.rank === "T" ? "10" : c.rank);
      })));
    const focused = document.activeElement && document.activeElement.classList.contains("pcard")
      ? document.activeElement.getAttribute("aria-label") : null;
    put($("h-picker"), rows);
    if (focused) {  // redrawing must not lose the keyboard's place
      const again = [...document.querySelectorAll("#h-picker .pcard")].find((b) => b.getAttribute("aria-label") === focused);
      if (again) again.focus();
    }
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

  // A failed request leaves no stale result behind: the message takes its place.
  function failed(where, e) { put($(where), h("p", { class: "error", role: "alert" }, e.message || "failed")); }

  async function evaluate() {
    put($("h-result"), h("p", { class: "spinner" }, "evaluating…"));
    let value;
    try {
      value = await api("POST", "/api/hands/evaluate", { deck: deckSel.value, cards: input.value });
    } catch (e) { failed("h-result", e); return; }
    put($("h-result"), handBox(value));
  }

  async function compare() {
    const lines = $("h-compare-input").value.split("\n").map((x) => x.trim()).filter(Boolean);
    put($("h-compare-result"), h("p", { class: "spinner" }, "comparing…"));
    let data;
    try {
      data = await api("POST", "/api/hands/compare", { deck: deckSel.value, hands: lines });
    } catch (e) { failed("h-compare-result", e); return; }
    const who = data.winners.map((w, i) => `${i ? "hand" : "Hand"} ${w}`).join(" and ");
    const verdict = data.decided_by === "tie"
      ? `${who} tie and split the pot.`
      : `${who} wins, decided by ${data.decided_by_text}.`;
    put($("h-compare-result"), h("div", { class: "verdict" }, verdict),
      ...data.hands.map((v, i) => handBox(v, { label: `Hand ${i + 1}`, winner: data.winners.includes(i + 1) })));
  }

  async function loadTable() {
    $("h-table-deck").textContent = deckSel.value;
    put($("h-table"), h("p", { class: "spinner" }, "counting…"));
    let data;
    try {
      data = await api("GET", `/api/hands/table?deck=${encodeURIComponent(deckSel.value)}`);
    } catch (e) { failed("h-table", e); return; }
    const head = h("tr", {}, ["Order", "Hand", "Count", "Probability", "%", "Rarity"].map((x) => h("th", { class: x === "Hand" ? "name" : null }, x)));
    const rows = data.rows.map((r) => h("tr", {},
      h("td", {}, r.order), h("td", { class: "name" }, r.en, ja(r.ja)),
      h("td", {}, r.count.toLocaleString("en")), h("td", {}, r.fraction), h("td", {}, r.percent),
      h("td", {}, r.rarity.toFixed(4))));
    const total = h("tr", { class: "overall" }, h("td", {}), h("td", { class: "name" }, "all five-card hands"),
      h("td", {}, data.combinations.toLocaleString("en")), h("td", {}, "1"), h("td", {}, "100%"), h("td", {}));
    put($("h-table"), h("p", { class: "note" }, data.rules),
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
  input.addEventListener("input", () => { drawPicker(); $("h-result").replaceChildren(); });
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
    put(oppSel, Array.from({ length: g.max_opponents }, (_, i) =>
      h("option", { value: i + 1, selected: i + 1 === Math.min(keep, g.max_opponents) }, i + 1)));
  }

  // One request at a time; the status line says what is happening, and after a failure
  // it goes back to what it said (the toast gives the reason).
  let inFlight = false;
  async function request(text, url, body) {
    if (inFlight) return false;
    inFlight = true;
    const before = $("s-info").textContent;
    $("s-info").textContent = text;
    for (const b of document.querySelectorAll("#s-new, #s-next, #s-equity button, #s-showdown button")) b.disabled = true;
    try {
      deal = await api("POST", url, body);
      return true;
    } catch (e) {
      $("s-info").textContent = before;
      return false;
    } finally {
      inFlight = false;
      for (const b of document.querySelectorAll("#s-new, #s-next, #s-equity button, #s-showdown button")) b.disabled = false;
    }
  }

  async function newDeal() {
    const body = { game: gameSel.value, opponents: Number(oppSel.value) };
    const seed = $("s-seed").value.trim();
    if (seed !== "") body.seed = seed;
    if (!await request("dealing and sampling your equity…", "/api/showdown/deals", body)) return false;
    $("s-seed").value = "";
    draw();
    return true;
  }

  async function more() {
    if (await request("sampling more deals…", `/api/showdown/deals/${deal.id}/samples`)) draw();
  }

  async function next() {
    if (await request("sampling your equity…", `/api/showdown/deals/${deal.id}/next`)) draw();
  }

  function draw() {
    const over = deal.street === "showdown";
    // the seed gives every hidden card away: the server sends it once the deal is over
    const seed = deal.seed !== undefined && deal.seed !== null ? ` · seed ${deal.seed}` : "";
    $("s-info").textContent = `${deal.game_name} · ${deal.street}${seed}`;
    const winners = over ? deal.showdown.winners : [];
    const opps = [];
    for (let i = 1; i <= deal.opponents; i++) {
      const player = over ? deal.showdown.players[i] : null;
      const cards = player ? player.hole.map((c) => cardEl(c, "small"))
        : Array.from({ length: deal.hole.length }, () => backEl("small", `opponent ${i}: a face-down card`));
      opps.push(h("div", { class: "opp" }, h("div", { class: "label" }, `Opponent ${i}`, winners.includes(i + 1) ? h("span", { class: "badge" }, "wins") : null),
        h("div", { class: "row-cards" }, cards)));
    }
    put($("s-opps"), opps);
    const board = deal.board.map((c) => cardEl(c));
    while (board.length < 5) board.push(h("span", { class: "card empty", role: "img", "aria-label": "not dealt yet" }));
    put($("s-board"), board);
    put($("s-hole"), deal.hole.map((c) => cardEl(c)));
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
      put($("s-equity"),
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
      put($("s-showdown"), h("div", { class: "verdict" }, verdict),
        h("div", { class: "players" }, sd.players.map((p) => h("div", { class: "hand-box" + (p.share.value > 0 ? " winner" : "") },
          h("div", { class: "note" }, p.you ? "You" : `Opponent ${p.seat - 1}`, " · hole ",
            p.hole.map((c) => c.text).join(" "), p.share.value > 0 ? ` · share ${p.share.fraction}` : ""),
          h("div", { class: "cat" }, p.value.category.en, ja(p.value.category.ja),
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
    put(gameSel, games.map((g) => h("option", { value: g.key, selected: g.key === "fesca78-holdem" }, `${g.name} (${g.key})`)));
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
    if (!await newDeal()) return;
    for (let i = 0; i < streets && deal.street !== "showdown"; i++) await next();
  }
}

// --- rules -------------------------------------------------------------------------------

function rulesPage() {
  const deckSel = $("r-deck");
  const cards = (list) => h("div", { class: "row-cards" }, list.map((c) => cardEl(c, "small")));

  async function load() {
    let data;
    put($("r-hands"), h("p", { class: "spinner" }, "counting…"));
    try {
      data = await api("GET", `/api/rules?deck=${encodeURIComponent(deckSel.value)}`);
    } catch (e) {
      put($("r-hands"), h("p", { class: "error", role: "alert" }, e.message || "failed"));
      return;
    }
    const url = new URL(window.location.href);
    url.searchParams.set("deck", data.deck);
    window.history.replaceState(null, "", url);
    $("r-deck-info").textContent = `${data.size} cards — ${data.description}`;

    put($("r-suits"), h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, "Suit"), h("th", {}, "Name"), h("th", {}, "ASCII"), h("th", {}, "Role"), h("th", {}, "Cards"))),
      h("tbody", {}, data.suits.map((x) => h("tr", {},
        h("td", { class: `suit-${x.key}` }, ja(x.symbol, "")), h("td", {}, x.name), h("td", {}, x.key),
        h("td", {}, x.role), h("td", {}, x.cards)))),
      h("caption", { class: "note" }, `ranks: ${data.ranks.join(" ")}`)));

    $("r-wrap").textContent = `${data.deck}: ${data.straights.length} straights; its ranks are ${data.wrap_text}.`;
    put($("r-straights"), data.straights.map((x, i) => h("div", { class: "straight" },
      h("span", { class: "note" }, `${i + 1}.`), cards(x.cards), h("span", { class: "desc" }, x.description))));

    $("r-mixwell-suits").textContent = data.mixwell_suits.length ? data.mixwell_suits.join(" ") : "none in this deck";
    const head = h("tr", {}, ["#", "Hand", "Example from the deck", "Count", "Probability", "Rarity"].map((x) =>
      h("th", { class: x === "Hand" || x.startsWith("Example") ? "name" : null }, x)));
    const rows = data.hands.map((x) => h("tr", {},
      h("td", {}, x.order),
      h("td", { class: "name" }, x.en, h("br", {}), ja(x.ja, "ja")),
      h("td", { class: "name" }, cards(x.example.cards), h("div", { class: "desc" }, x.example.description)),
      h("td", {}, x.count.toLocaleString("en")),
      h("td", {}, h("span", { class: "frac" }, x.fraction), x.percent),
      h("td", {}, x.rarity.toFixed(4))));
    const total = h("tr", { class: "overall" }, h("td", {}), h("td", { class: "name" }, "all five-card hands"), h("td", {}),
      h("td", {}, data.combinations.toLocaleString("en")), h("td", {}, "1"), h("td", {}));
    put($("r-hands"), h("p", { class: "note" }, data.rules), h("table", { class: "hands" }, h("thead", {}, head), h("tbody", {}, rows, total)));

    put($("r-compounds"), data.compounds.length
      ? h("ul", { class: "compounds" }, data.compounds.map((x) => h("li", {},
        h("strong", {}, `Mixwell + ${x.with}`), ` (${x.count.toLocaleString("en")} hands) counts as `,
        h("strong", {}, x.primary), `: ${x.primary === "Mixwell" ? "Mixwell" : x.with} is rarer here (Mixwell ` +
          `${x.mixwell_count.toLocaleString("en")}, ${x.with} ${x.base_count.toLocaleString("en")} hands).`,
        x.example ? h("div", { class: "example" }, cards(x.example.cards), h("span", { class: "desc" }, x.example.description)) : null)))
      : h("p", { class: "note" }, `${data.deck} has no Mixwell: five different element suits cannot be drawn.`));

    $("r-suit-order").textContent = data.suit_order.length
      ? data.suit_order.join(" > ") : "not used with this deck: equal ranks split the pot";

    put($("r-ties"), data.tie_breaks.map((t) => h("div", { class: "hand-box" },
      h("div", { class: "cat" }, `Decided by ${t.text}`),
      t.hands.map((v, i) => h("div", { class: "tie-hand" + (t.winner === i + 1 ? " winner" : "") },
        cards(v.cards), h("div", { class: "desc" }, v.description, t.winner === i + 1 ? h("span", { class: "badge" }, "wins") : null))),
      t.winner === null ? h("div", { class: "note" }, "The hands tie and split the pot.") : null)));
  }

  const wanted = (params.get("deck") || "").toLowerCase();
  const match = [...deckSel.options].find((o) => o.value.toLowerCase() === wanted);
  if (match) deckSel.value = match.value;
  deckSel.addEventListener("change", load);
  load();
}

// --- start -------------------------------------------------------------------------------

const pages = { openseven: openSeven, hands, showdown: showdownPage, rules: rulesPage };
const start = pages[document.body.dataset.page];
if (start) start();
