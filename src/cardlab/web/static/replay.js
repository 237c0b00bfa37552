// The hand replayer (templates/replay.html): the server replays the hand on cardlab's
// engine and sends every step as a frame (cardlab.web.replay); this file draws them.
// An ES module: the DOM helper, the card renderer and the API client are the pages' own. Every name and card from a hand is put in the page as
// text (textContent), never as HTML.
import { $, h } from "./dom.js";
import { api } from "./api.js";
import { card as drawCard } from "./cards.js";

const MAX_FILE = 1024 * 1024;  // bytes of PHH text the server replays

const player = $("rp-player");
const apiUrl = player.dataset.api || "";
let data = null;  // the replay: {frames, streets, players, cards, result, ...}
let step = 0;
let upload = null;  // {name, text, hand} of the file being replayed

// --- loading ---------------------------------------------------------------------------

function showError(message) {
  const e = $("rp-error");
  e.textContent = message;
  e.hidden = !message;
}

async function load(url, options, wanted) {
  player.dataset.state = "loading";
  try {
    data = await api(options.method || "GET", url, options.body, { headers: options.headers });
  } catch (e) {
    data = null;
    player.hidden = true;
    player.dataset.state = "error";
    showError(e.message);
    return;
  }
  showError("");
  start(wanted);
}

function replayFile(name, text, hand) {
  upload = { name, text, hand };
  return load("/api/replay", { method: "POST", body: { phh: text, hand } }, 0);
}

async function openFile(file) {
  if (!file) return;
  if (file.size > MAX_FILE) {
    showError(`${file.name} is ${file.size.toLocaleString("en")} bytes: the replayer reads files of 1 MB at most`);
    return;
  }
  let text;
  try {
    text = await file.text();
  } catch (e) {
    showError(`cannot read ${file.name}`);
    return;
  }
  await replayFile(file.name, text, 1);
}

// --- drawing -----------------------------------------------------------------------------

function card(text, up) {
  return drawCard(text, { up, info: data.cards && data.cards[text] });
}

function amount(value) {
  return typeof value === "number" ? value.toLocaleString("en", { maximumFractionDigits: 6 }) : String(value);
}

function signed(value) {
  return value > 0 ? `+${amount(value)}` : value < 0 ? `−${amount(-value)}` : "±0";
}

function start(wanted) {
  const n = data.frames.length;
  player.hidden = false;
  const title = upload ? `${upload.name}${data.hands > 1 ? `, hand ${data.hand} of ${data.hands}` : ""}`
    : data.title || "the hand";
  $("rp-title").textContent = `Hand replayer: ${title}`;
  document.title = `Replay: ${title} · cardlab`;
  const stakes = data.stakes ? `, ${data.stakes}` : "";
  $("rp-game").textContent = `${data.game_name} (${data.variant}${stakes}), ${data.players.length} players`;
  $("rp-view").textContent = data.view ? `Shown ${data.view}.` : "";
  const slider = $("rp-slider");
  slider.max = String(n - 1);
  const streets = $("rp-streets");
  streets.replaceChildren(...data.streets.map((s) => h("option", { value: s.frame }, s.name)));
  const handLabel = $("rp-hand-label");
  handLabel.hidden = !(upload && data.hands > 1);
  if (upload && data.hands > 1) {
    const select = $("rp-hand");
    if (select.options.length !== data.hands) {
      const options = [];
      for (let k = 1; k <= data.hands; k++) options.push(h("option", { value: k }, String(k)));
      select.replaceChildren(...options);
    }
    select.value = String(data.hand);
  }
  $("rp-table-link").hidden = !data.table;
  if (data.table) $("rp-table").setAttribute("href", data.table.url);
  $("rp-links").hidden = !apiUrl;
  show(Number.isInteger(wanted) ? wanted : 0);
}

function show(k) {
  const frames = data.frames;
  step = Math.max(0, Math.min(frames.length - 1, k));
  const frame = frames[step];
  const last = step === frames.length - 1;
  player.dataset.step = String(step);
  player.dataset.frames = String(frames.length);
  player.dataset.state = "ready";
  $("rp-step").textContent = `step ${step + 1} of ${frames.length}`;
  $("rp-slider").value = String(step);
  $("rp-first").disabled = $("rp-prev").disabled = step === 0;
  $("rp-next").disabled = $("rp-last").disabled = last;
  let current = data.streets[0];
  for (const s of data.streets) if (s.frame <= step) current = s;
  $("rp-streets").value = String(current.frame);
  $("rp-street").textContent = frame.street;
  const side = frame.pots.length > 1
    ? ` (${frame.pots.map((p, i) => `${i ? `side pot ${i}` : "main pot"} ${amount(p.amount)}`).join(", ")})` : "";
  $("rp-pot").textContent = last ? "pots paid" : `pot ${amount(frame.total_pot)}${side}`;
  $("rp-board").replaceChildren(...frame.board.map((c) => card(c, false)));
  // a double-board bomb pot's second board (docs/home-games.md)
  $("rp-board2").hidden = !frame.second_board;
  $("rp-board2").replaceChildren(...(frame.second_board || []).map((c) => card(c, false)));
  // a board run more than once: the runs before this one; the exact all-in odds
  const runs = frame.runs_done || [];
  $("rp-runs").hidden = !runs.length;
  $("rp-runs").replaceChildren(...runs.map((b, k) => h("div", { class: "rp-run", "data-run": String(k + 1) }, `run ${k + 1}: `, ...b.map((c) => card(c, false)))));
  const odds = frame.odds;
  $("rp-odds").hidden = !odds;
  $("rp-odds").replaceChildren(...(odds ? odds.hands.map((x, i) => h("tr", { "data-player": String(x.player) },
    h("td", {}, data.players[x.player - 1] || `p${x.player}`), h("td", {}, x.cards),
    h("td", {}, `${(100 * x.equity).toFixed(1)}%` + (x.tie > 0 ? ` (tie ${(100 * x.tie).toFixed(1)}%)` : "")),
    // a double board: each board's share (the pot is split between the boards)
    ...(odds.boards ? [h("td", { class: "rp-odds-boards" }, odds.boards.map((b, k) => `board ${k + 1}: ${(100 * b.hands[i].equity).toFixed(1)}%`).join(" · "))] : []))) : []));
  $("rp-action").textContent = frame.text;
  $("rp-seats").replaceChildren(...frame.players.map((p, i) => seat(p, i, frame, last)));
  drawLog();
  drawResult(last);
  if (apiUrl) {
    const here = `${window.location.pathname}${window.location.search}#step=${step + 1}`;
    $("rp-link").setAttribute("href", here);
    if (window.location.hash !== `#step=${step + 1}`) history.replaceState(null, "", here);
  }
}

function seat(p, i, frame, last) {
  const tags = [];
  if (p.folded) tags.push("folded");
  if (p.mucked) tags.push("mucked");
  if (p.all_in && !last) tags.push("all-in");
  const classes = ["rp-seat"];
  if (p.folded) classes.push("folded");
  if (p.mucked) classes.push("mucked");
  if (frame.actor === p.name) classes.push("acted");
  if (data.you === p.name) classes.push("you");
  const won = last && data.winnings ? data.winnings[i] : null;
  const result = won === null || won === undefined ? null
    : h("span", { class: won > 0 ? "rp-won" : won < 0 ? "rp-lost" : "" }, ` ${signed(won)}`);
  return h("li", { class: classes.join(" "), "data-stack": p.stack, "data-bet": p.bet },
    h("span", { class: "rp-name" }, p.name),
    h("span", { class: "rp-tags" }, tags.join(", ")),
    h("span", { class: "rp-chips" }, `stack ${amount(p.stack)}`, result),
    h("span", { class: "rp-bet" }, p.bet ? `bet ${amount(p.bet)}` : ""),
    h("span", { class: "rp-hole", "aria-label": `${p.name}'s cards` },
      p.cards.map((c, j) => card(c, p.up[j]))));
}

function drawLog() {
  const items = [];
  let street = null;
  data.frames.slice(0, step + 1).forEach((frame, k) => {
    if (frame.street !== street) {
      street = frame.street;
      items.push(h("li", { class: "rp-log-street" }, street));
    }
    for (const line of frame.lines) items.push(h("li", { class: k === step ? "rp-now" : "" }, line));
  });
  const log = $("rp-log");
  log.replaceChildren(...items);
  log.scrollTop = log.scrollHeight;
}

function drawResult(last) {
  const box = $("rp-result");
  box.hidden = !last || !data.result;
  if (box.hidden) return;
  const result = data.result;
  $("rp-pots").replaceChildren(...result.pots.map((p) => h("li", {},
    `${p.name} ${amount(p.amount)}: ${p.winners.join(" and ")}${p.why ? ` (${p.why})` : ""}`)));
  $("rp-shown").replaceChildren(...result.hands.map((x) => h("li", {},
    `${x.name} shows ${x.cards}${x.description ? `: ${x.description}` : ""}`)));
  $("rp-rabbit").hidden = !data.rabbit;
  $("rp-rabbit").textContent = data.rabbit ? `The rabbit (the cards that would have come, not part of the hand): ${data.rabbit.join(" ")}` : "";
}

// --- controls ----------------------------------------------------------------------------

function streetStep(direction) {
  const starts = data.streets.map((s) => s.frame);
  if (direction > 0) {
    const next = starts.find((f) => f > step);
    show(next === undefined ? data.frames.length - 1 : next);
  } else {
    const before = starts.filter((f) => f < step);
    show(before.length ? before[before.length - 1] : 0);
  }
}

$("rp-first").addEventListener("click", () => show(0));
$("rp-prev").addEventListener("click", () => show(step - 1));
$("rp-next").addEventListener("click", () => show(step + 1));
$("rp-last").addEventListener("click", () => show(data.frames.length - 1));
$("rp-slider").addEventListener("input", (e) => show(Number(e.target.value)));
$("rp-streets").addEventListener("change", (e) => show(Number(e.target.value)));
$("rp-hand").addEventListener("change", (e) => {
  if (upload) replayFile(upload.name, upload.text, Number(e.target.value));
});
document.addEventListener("keydown", (e) => {
  if (!data || player.hidden || e.altKey || e.ctrlKey || e.metaKey) return;
  const tag = (e.target && e.target.tagName) || "";
  if (["INPUT", "SELECT", "TEXTAREA"].includes(tag)) return;  // they have their own keys
  const moves = {
    ArrowLeft: () => show(step - 1),
    ArrowRight: () => show(step + 1),
    Home: () => show(0),
    End: () => show(data.frames.length - 1),
    PageUp: () => streetStep(-1),
    PageDown: () => streetStep(1),
  };
  if (moves[e.key]) {
    e.preventDefault();
    moves[e.key]();
  }
});

const drop = $("rp-drop");
drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", (e) => {
  e.preventDefault();
  drop.classList.remove("over");
  openFile(e.dataTransfer && e.dataTransfer.files[0]);
});
$("rp-file").addEventListener("change", (e) => openFile(e.target.files[0]));

if (apiUrl) {
  const match = /^#step=(\d+)$/.exec(window.location.hash);
  load(apiUrl, { headers: { Accept: "application/json" } }, match ? Number(match[1]) - 1 : 0);
}
