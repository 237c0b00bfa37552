// The hand replayer (templates/replay.html): the server replays the hand on cardlab's
// engine and sends every step as a frame (cardlab.web.replay); this file draws them.
// Plain ES2020, no dependencies. Every name and card from a hand is put in the page as
// text (textContent), never as HTML.
"use strict";

(function () {
  const MAX_FILE = 1024 * 1024;  // bytes of PHH text the server replays
  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v;
      else e.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

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

  async function fetchReplay(url, options) {
    let response;
    try {
      response = await fetch(url, options);
    } catch (e) {
      throw new Error("the server did not answer: is cardlab web still running?");
    }
    const body = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    if (!response.ok) throw new Error(body.error || `HTTP ${response.status}`);
    return body;
  }

  async function load(url, options, wanted) {
    player.dataset.state = "loading";
    try {
      data = await fetchReplay(url, options);
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
    return load("/api/replay", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ phh: text, hand }),
    }, 0);
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
    if (text === "??") {
      return el("span", { class: "rp-card back", role: "img", "aria-label": "face down", title: "face down" }, "??");
    }
    const info = (data.cards && data.cards[text]) || {};
    const suit = info.suit ? ` suit-${info.suit}` : "";
    return el("span", { class: `rp-card${suit}${up ? " up" : ""}`, role: "img",
      "aria-label": info.name || text, title: info.name || text }, text);
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
    streets.replaceChildren(...data.streets.map((s) => el("option", { value: s.frame }, s.name)));
    const handLabel = $("rp-hand-label");
    handLabel.hidden = !(upload && data.hands > 1);
    if (upload && data.hands > 1) {
      const select = $("rp-hand");
      if (select.options.length !== data.hands) {
        const options = [];
        for (let k = 1; k <= data.hands; k++) options.push(el("option", { value: k }, String(k)));
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
    // a board run more than once: the runs before this one; the exact all-in odds
    const runs = frame.runs_done || [];
    $("rp-runs").hidden = !runs.length;
    $("rp-runs").replaceChildren(...runs.map((b, k) => el("div", { class: "rp-run", "data-run": String(k + 1) }, `run ${k + 1}: `, ...b.map((c) => card(c, false)))));
    const odds = frame.odds;
    $("rp-odds").hidden = !odds;
    $("rp-odds").replaceChildren(...(odds ? odds.hands.map((h) => el("tr", { "data-player": String(h.player) },
      el("td", {}, data.players[h.player - 1] || `p${h.player}`), el("td", {}, h.cards),
      el("td", {}, `${(100 * h.equity).toFixed(1)}%` + (h.tie > 0 ? ` (tie ${(100 * h.tie).toFixed(1)}%)` : "")))) : []));
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
      : el("span", { class: won > 0 ? "rp-won" : won < 0 ? "rp-lost" : "" }, ` ${signed(won)}`);
    return el("li", { class: classes.join(" "), "data-stack": p.stack, "data-bet": p.bet },
      el("span", { class: "rp-name" }, p.name),
      el("span", { class: "rp-tags" }, tags.join(", ")),
      el("span", { class: "rp-chips" }, `stack ${amount(p.stack)}`, result),
      el("span", { class: "rp-bet" }, p.bet ? `bet ${amount(p.bet)}` : ""),
      el("span", { class: "rp-hole", "aria-label": `${p.name}'s cards` },
        p.cards.map((c, j) => card(c, p.up[j]))));
  }

  function drawLog() {
    const items = [];
    let street = null;
    data.frames.slice(0, step + 1).forEach((frame, k) => {
      if (frame.street !== street) {
        street = frame.street;
        items.push(el("li", { class: "rp-log-street" }, street));
      }
      for (const line of frame.lines) items.push(el("li", { class: k === step ? "rp-now" : "" }, line));
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
    $("rp-pots").replaceChildren(...result.pots.map((p) => el("li", {},
      `${p.name} ${amount(p.amount)}: ${p.winners.join(" and ")}${p.why ? ` (${p.why})` : ""}`)));
    $("rp-shown").replaceChildren(...result.hands.map((x) => el("li", {},
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
})();
