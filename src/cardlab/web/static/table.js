/* the poker tables: the lobby's form and list, the live table over a WebSocket */
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    }
    for (const kid of kids) if (kid != null) e.append(kid);
    return e;
  };
  const SUITS = { "木": "wood", "火": "fire", "土": "earth", "金": "metal", "水": "water", "陰": "yinyang", "太": "yinyang", "♥": "red", "♦": "red" };
  function card(text, small) {
    const hidden = text === "??";
    const cls = "pt-card" + (small ? " sm" : "") + (hidden ? " back" : "");
    const suit = hidden ? "" : (SUITS[text[0]] || SUITS[text[text.length - 1]] || "");
    return el("span", { class: cls + (suit ? " " + suit : ""), text: hidden ? "?" : text, "aria-label": hidden ? "hidden card" : text });
  }
  function showError(id, message) {
    const box = $(id);
    box.textContent = message;
    box.hidden = !message;
  }
  async function api(method, url, body) {
    const r = await fetch(url, { method, headers: { "content-type": "application/json" }, body: body ? JSON.stringify(body) : undefined, credentials: "same-origin" });
    const data = await r.json().catch(() => ({ error: "the server answered " + r.status }));
    if (!r.ok) throw new Error(data.error || "the server answered " + r.status);
    return data;
  }

  // --- the lobby ---------------------------------------------------------------
  async function lobby() {
    const opts = await api("GET", "/api/tables/options");
    const game = $("t-game");
    for (const g of opts.games) game.append(el("option", { value: g.key, text: `${g.name} (${g.stakes})` }));
    game.value = opts.defaults.game;
    const seatsInput = $("t-seats");
    function botSeats() {
      const box = $("t-bot-seats");
      const old = [...box.querySelectorAll("select")].map((s) => s.value);
      box.textContent = "";
      const n = Math.max(2, Math.min(10, Number(seatsInput.value) || 2));
      for (let i = 0; i < n; i++) {
        const sel = el("select", { id: `t-bot-${i + 1}` }, el("option", { value: "", text: "person" }), ...opts.bots.map((b) => el("option", { value: b, text: b + " bot" })));
        sel.value = old[i] !== undefined ? old[i] : (i === 0 ? "" : opts.bots[0]);
        box.append(el("label", { text: `Seat ${i + 1} ` }, sel));
      }
    }
    seatsInput.addEventListener("input", botSeats);
    botSeats();
    $("t-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const body = { game: game.value, seats: Number(seatsInput.value), stack: Number($("t-stack").value), clock: Number($("t-clock").value), bots: {}, public: $("t-public").checked };
      if ($("t-betting").value) body.betting = $("t-betting").value;
      if ($("t-blinds").value.trim()) body.blinds = $("t-blinds").value.split(/[\/ ,]+/).filter(Boolean).map(Number);
      if ($("t-ante").value !== "") body.ante = Number($("t-ante").value);
      if ($("t-name").value.trim()) body.name = $("t-name").value.trim();
      if ($("t-bring-in").value !== "") body.bring_in = Number($("t-bring-in").value);
      const bets = $("t-bets").value.split(/[\/ ,]+/).filter(Boolean).map(Number);
      if (bets.length === 2) { body.small_bet = bets[0]; body.big_bet = bets[1]; }
      if ($("t-pause").value !== "") body.pause = Number($("t-pause").value);
      if ($("t-bot-delay").value !== "") body.bot_delay = Number($("t-bot-delay").value);
      if ($("t-cap").value !== "") body.max_buy_in = Number($("t-cap").value);
      $("t-bot-seats").querySelectorAll("select").forEach((s, i) => { if (s.value) body.bots[i + 1] = s.value; });
      try {
        const t = await api("POST", "/api/tables", body);
        location.href = t.url;
      } catch (e) { showError("t-error", e.message); }
    });
    const list = await api("GET", "/api/tables");
    const box = $("t-list");
    box.textContent = "";
    if (!list.tables.length) { box.textContent = "No public tables: create one below (a table is private unless you list it)."; return; }
    const rows = list.tables.map((t) => el("tr", {}, el("td", {}, el("a", { href: t.url, text: t.name || t.game_name })), el("td", { text: t.stakes }), el("td", { text: `${t.open_seats} of ${t.seats} seats free` }), el("td", { text: t.status })));
    box.append(el("table", {}, el("thead", {}, el("tr", {}, ...["Table", "Stakes", "Seats", "Status"].map((h) => el("th", { text: h })))), el("tbody", {}, ...rows)));
  }

  // --- a table -----------------------------------------------------------------
  function table(root) {
    const id = root.dataset.table;
    let state = null;
    let ws = null;
    let clockTimer = null;
    const selected = new Set();
    $("pt-link").value = location.origin + "/tables/" + id;
    $("pt-link").addEventListener("focus", (e) => e.target.select());
    $("pt-download").href = `/api/tables/${id}/hands.phhs`;

    function send(message) {
      if (ws && ws.readyState === 1) ws.send(JSON.stringify(message));
    }
    function act(action) {
      showError("pt-error", "");
      send({ type: "action", action, turn: state ? state.turn : undefined });
    }
    function connect() {
      const proto = location.protocol === "https:" ? "wss" : "ws";
      ws = new WebSocket(`${proto}://${location.host}/api/tables/${id}/ws`);
      ws.onmessage = (m) => {
        const msg = JSON.parse(m.data);
        if (msg.type === "error") showError("pt-error", msg.message);
        else if (msg.type === "state") { state = msg; render(); }
      };
      ws.onopen = () => { $("pt").classList.remove("offline"); };
      ws.onclose = () => {
        $("pt-status").textContent = "Reconnecting…";
        $("pt").classList.add("offline");  // controls are disabled, not silently dropped
        document.querySelectorAll("#pt-actions button, #pt-actions input").forEach((b) => { b.disabled = true; });
        setTimeout(connect, 1000);
      };
    }
    $("pt-join-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await api("POST", `/api/tables/${id}/join`, { name: $("pt-name").value, client_seeds: true });
        showError("pt-error", "");
        if (ws) { ws.onclose = null; ws.close(); }
        connect();  // the new cookie makes this connection the seat's
      } catch (e) { showError("pt-error", e.message); }
    });
    $("pt-start").addEventListener("click", () => send({ type: "start" }));
    $("pt-leave").addEventListener("click", async () => {
      if (!confirm("Leave your seat? Your stack goes to the ledger.")) return;
      try { await api("POST", `/api/tables/${id}/leave`, {}); } catch (e) { showError("pt-error", e.message); }
    });
    $("pt-close").addEventListener("click", async () => {
      if (!confirm("Close the table for everyone? (A hand in play finishes first.)")) return;
      try { await api("POST", `/api/tables/${id}/close`, {}); } catch (e) { showError("pt-error", e.message); }
    });
    $("pt-reveal").addEventListener("click", () => send({ type: "reveal" }));
    $("pt-sit").addEventListener("click", () => send({ type: state && state.you && state.seats[state.you.seat - 1].sitting_out ? "sit_in" : "sit_out" }));
    $("pt-ledger-csv").href = `/api/tables/${id}/ledger?format=csv`;
    $("pt-chips").addEventListener("submit", async (event) => {
      event.preventDefault();
      const n = Number($("pt-chips-n").value);
      if (!Number.isInteger(n) || n <= 0) { $("pt-chips-note").textContent = "a whole number of chips"; return; }
      try { await api("POST", `/api/tables/${id}/chips`, { amount: n }); $("pt-chips-note").textContent = ""; $("pt-chips-n").value = ""; loadLedger(); }
      catch (e) { $("pt-chips-note").textContent = e.message; }
    });
    async function host(body) {
      try { await api("POST", `/api/tables/${id}/host`, body); showError("pt-error", ""); }
      catch (e) { showError("pt-error", e.message); }
    }
    $("pt-pause").addEventListener("click", () => host({ op: state && state.table.paused ? "resume" : "pause" }));
    $("pt-settings").addEventListener("submit", (event) => {
      event.preventDefault();
      const settings = {};
      const blinds = $("pt-set-blinds").value.trim();
      if (blinds) settings.blinds = blinds.split(/[\/ ,]+/).filter(Boolean).map(Number);
      if ($("pt-set-ante").value !== "") settings.ante = Number($("pt-set-ante").value);
      if ($("pt-set-clock").value !== "") settings.clock = Number($("pt-set-clock").value);
      if ($("pt-set-botdelay").value !== "") settings.bot_delay = Number($("pt-set-botdelay").value);
      if ($("pt-set-cap").value !== "") settings.max_buy_in = Number($("pt-set-cap").value);
      host({ op: "settings", settings });
    });
    let ledgerHand = null;
    async function loadLedger() {
      try {
        const l = await api("GET", `/api/tables/${id}/ledger`);
        const rows = $("pt-ledger-rows");
        rows.textContent = "";
        for (const p of l.players) rows.append(el("tr", {}, el("td", { text: p.player }), el("td", { text: String(p.bought) }), el("td", { text: String(p.cashed) }), el("td", { text: String(p.on_table) }), el("td", { text: (p.net > 0 ? "+" : "") + p.net })));
        $("pt-ledger-check").textContent = `${l.chips_brought} chips brought, ${l.chips_taken} taken away, ${l.chips_on_table} on the table` + (l.balanced ? ": it balances." : ": it does not balance!");
      } catch (e) { $("pt-ledger-check").textContent = e.message; }
    }
    $("pt-verify").addEventListener("click", verifyHands);

    // the client seed of each deal: random in this browser, remembered to check later
    const seedKey = `cardlab-seeds-${id}`;
    function mySeeds() {
      try { return JSON.parse(localStorage.getItem(seedKey) || "{}"); } catch (e) { return {}; }
    }
    function sendSeed() {
      const s = state;
      if (!s || !s.you || !s.fair) return;
      const deal = s.fair.next_deal;
      const seeds = mySeeds();
      if (!seeds[deal]) {
        const bytes = new Uint8Array(16);
        crypto.getRandomValues(bytes);
        seeds[deal] = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
        const keys = Object.keys(seeds).map(Number).sort((a, b) => a - b);
        for (const k of keys.slice(0, Math.max(0, keys.length - 500))) delete seeds[k];
        try { localStorage.setItem(seedKey, JSON.stringify(seeds)); } catch (e) { /* private mode */ }
      }
      if (sentFor !== deal) { send({ type: "client_seed", deal, seed: seeds[deal] }); sentFor = deal; }
    }
    let sentFor = null;

    async function verifyHands() {
      const rows = $("pt-verify-rows");
      const box = $("pt-verify-results");
      rows.textContent = "";
      box.hidden = false;
      box.dataset.state = "running";
      try {
        const text = await (await fetch(`/api/tables/${id}/hands.phhs`, { credentials: "same-origin" })).text();
        const results = text.trim() ? await window.cardlabFair.verifyText(text) : [];
        const hands = text.trim() ? window.cardlabFair.parsePhhs(text) : [];
        const seeds = mySeeds();
        results.forEach((r, i) => {
          let detail = r.detail;
          const fields = hands[i] ? hands[i].fields : {};
          const mine = seeds[r.deal];
          if (mine && Array.isArray(fields._client_seeds)) {
            detail += fields._client_seeds.includes(mine) ? " · your client seed is in it" : " · YOUR CLIENT SEED IS MISSING";
          }
          rows.append(el("tr", { "data-status": r.status, "data-deal": r.deal === null ? "" : String(r.deal) }, el("td", { text: String(fields.hand ?? r.hand) }), el("td", { text: r.status }), el("td", { text: detail })));
        });
        if (!results.length) rows.append(el("tr", {}, el("td", { colspan: "3", text: "No finished hands yet." })));
        box.dataset.state = "done";
      } catch (e) {
        box.dataset.state = "error";
        rows.append(el("tr", {}, el("td", { colspan: "3", text: e.message })));
      }
    }

    function render() {
      const s = state;
      $("pt-title").textContent = s.table.name || s.table.game_name;
      $("pt-stakes").textContent = `${s.table.game_name} · ${s.table.stakes} · hand ${s.table.hand_number}`;
      $("pt-status").textContent = s.table.status + (s.you ? ` · you are ${s.you.name} (seat ${s.you.seat})` : " · watching");
      $("pt-join").hidden = !!s.you || s.table.open_seats === 0;
      $("pt-start").hidden = !s.you || s.table.started || s.table.closed;
      $("pt-leave").hidden = !s.you || s.table.closed;
      const mine = s.you ? s.seats[s.you.seat - 1] : null;
      $("pt-sit").hidden = !s.you || s.table.closed;
      $("pt-sit").textContent = mine && mine.sitting_out ? "Sit back in" : "Sit out from the next hand";
      const inHand = mine && s.hand && !s.hand.over && mine.cards.length > 0;
      $("pt-chips").hidden = !s.you || s.table.closed || inHand || mine.stack >= s.table.buy_in_cap;
      $("pt-chips-n").max = mine ? Math.max(1, s.table.buy_in_cap - mine.stack) : 1;
      $("pt-host").hidden = !s.host || s.table.closed;
      $("pt-pause").textContent = s.table.paused ? "Resume dealing" : "Pause after this hand";
      if (s.host) {
        const hs = $("pt-host-seats");
        hs.textContent = "";
        for (const p of s.seats) {
          const cells = [el("td", { text: `${p.seat}. ${p.name}` })];
          if (p.kind === "open") {
            const sel = el("select", { "aria-label": `bot for seat ${p.seat}` }, ...["station", "random", "equity"].map((b) => el("option", { value: b, text: b + " bot" })));
            cells.push(el("td", {}, sel, el("button", { type: "button", text: "Seat a bot", onclick: () => host({ op: "add_bot", seat: p.seat, bot: sel.value }) })));
          } else {
            const buttons = [el("button", { type: "button", "data-remove": p.seat, text: "Remove", onclick: () => host({ op: "remove", seat: p.seat }) })];
            if (p.kind === "human" && !p.you) buttons.push(el("button", { type: "button", text: "Make host", onclick: () => host({ op: "transfer", seat: p.seat }) }));
            cells.push(el("td", {}, ...buttons));
          }
          hs.append(el("tr", {}, ...cells));
        }
      }
      if (ledgerHand !== s.table.hand_number + (s.hand && s.hand.over ? 0.5 : 0)) { ledgerHand = s.table.hand_number + (s.hand && s.hand.over ? 0.5 : 0); loadLedger(); }
      $("pt-close").hidden = !s.host || s.table.closed;
      $("pt-reveal").hidden = !s.you || s.table.closed || s.fair.reveal_requested;
      $("pt-commitment").textContent = s.fair.commitment;
      const revealed = $("pt-revealed");
      revealed.textContent = "";
      for (const r of s.fair.revealed) revealed.append(el("li", {}, "revealed: ", el("code", { class: "pt-hex", text: r.server_seed }), " (commitment ", el("code", { class: "pt-hex", text: r.commitment.slice(0, 16) + "…" }), ")"));
      const notices = $("pt-notices");
      notices.textContent = "";
      for (const n of s.notices) notices.append(el("li", { text: n }));
      if (s.hand && s.you) {
        const mine = mySeeds()[s.hand.deal_number];
        $("pt-my-seed").textContent = mine ? (s.hand.client_seeds.includes(mine) ? `This deal used your browser's seed ${mine.slice(0, 8)}…` : "This deal did not get your browser's seed in time (it counts as empty).") : "";
      }
      sendSeed();
      // seats
      const seats = $("pt-seats");
      seats.textContent = "";
      for (const p of s.seats) {
        const badges = [];
        if (p.button && !/stud/.test(s.table.game)) badges.push(el("span", { class: "badge", text: "D", title: "button" }));
        if (p.sitting_out) badges.push(el("span", { class: "badge", text: "sitting out" }));
        if (p.leaving) badges.push(el("span", { class: "badge", text: "leaving" }));
        if (p.actor) badges.push(el("span", { class: "badge", text: "to act" }));
        if (p.all_in) badges.push(el("span", { class: "badge", text: "all-in" }));
        if (p.kind === "bot") badges.push(el("span", { class: "badge", text: "bot" }));
        const folded = s.hand && p.cards.length && !p.in_hand;
        const cls = "pt-seat" + (p.actor ? " actor" : "") + (p.you ? " you" : "") + (folded || p.kind === "open" ? " out" : "");
        const meta = p.kind === "open" ? "open seat" : `stack ${p.stack}` + (p.bet ? ` · bet ${p.bet}` : "") + (folded ? " · folded" : "");
        seats.append(el("div", { class: cls, "data-seat": p.seat }, el("div", { class: "nm", text: `${p.seat}. ${p.name}` }), el("div", {}, ...badges), el("div", { class: "meta", text: meta }), el("div", { class: "pt-cards" }, ...p.cards.map((c) => card(c, true)))));
      }
      // board and pots
      const board = $("pt-board");
      board.textContent = "";
      const pots = $("pt-pots");
      pots.textContent = "";
      if (s.hand) {
        s.hand.board.forEach((c) => board.append(card(c)));
        const texts = s.hand.pots.map((p, i) => `${i ? "side pot " + i : "pot"} ${p.amount}`);
        pots.textContent = s.hand.over ? "" : (texts.length ? texts.join(" · ") + " · " : "") + `total ${s.hand.total_pot}`;
      }
      renderActions();
      renderLast();
      const logBox = $("pt-log");
      logBox.textContent = "";
      s.log.forEach((line) => logBox.append(el("li", { text: line })));
      logBox.scrollTop = logBox.scrollHeight;
    }

    function renderActions() {
      const s = state;
      const legal = s.legal;
      const panel = $("pt-actions");
      const me = s.you ? s.seats[s.you.seat - 1] : null;
      panel.hidden = !me || !s.hand || s.hand.over || !me.cards.length;
      const hole = $("pt-hole");
      hole.textContent = "";
      const buttons = $("pt-buttons");
      buttons.textContent = "";
      $("pt-raise").hidden = true;
      if (panel.hidden) return;
      if (!legal) {
        me.cards.forEach((c) => hole.append(card(c)));
        buttons.append(el("span", { class: "note", text: "Waiting for the others…" }));
      } else if (legal.phase === "draw") {
        for (const c of legal.hole) {
          const b = el("button", { type: "button", class: "pt-card", "aria-pressed": selected.has(c) ? "true" : "false", "aria-label": `discard ${c}`, text: c });
          b.addEventListener("click", () => { if (selected.has(c)) selected.delete(c); else selected.add(c); b.setAttribute("aria-pressed", selected.has(c) ? "true" : "false"); update(); });
          hole.append(b);
        }
        const draw = el("button", { type: "button", id: "pt-act-discard", class: "primary" });
        const update = () => { draw.textContent = selected.size ? `Discard ${selected.size}` : "Stand pat"; };
        update();
        draw.addEventListener("click", () => { const cards = [...selected].join(" "); selected.clear(); act(cards ? "d " + cards : "d"); });
        buttons.append(draw);
      } else if (legal.phase === "showdown") {
        me.cards.forEach((c) => hole.append(card(c)));
        buttons.append(el("button", { type: "button", id: "pt-act-show", class: "primary", text: "Show", onclick: () => act("s") }));
        buttons.append(el("button", { type: "button", id: "pt-act-muck", text: "Muck", onclick: () => act("m") }));
      } else {
        me.cards.forEach((c) => hole.append(card(c)));
        if (legal.fold) buttons.append(el("button", { type: "button", id: "pt-act-fold", text: "Fold", onclick: () => act("f") }));
        if (legal.call !== null) buttons.append(el("button", { type: "button", id: "pt-act-call", class: legal.check ? "primary" : "", text: legal.check ? "Check" : `Call ${legal.call}`, onclick: () => act("c") }));
        if (legal.bring_in !== null) buttons.append(el("button", { type: "button", id: "pt-act-bring-in", text: `Bring in ${legal.bring_in}`, onclick: () => act("b") }));
        if (legal.raise_min !== null) {
          const word = legal.complete ? "Complete to" : legal.bet ? "Bet" : "Raise to";
          $("pt-raise").hidden = false;
          $("pt-amount-label").textContent = word;
          const range = $("pt-amount");
          const num = $("pt-amount-n");
          for (const input of [range, num]) { input.min = legal.raise_min; input.max = legal.raise_max; input.step = 1; }
          const keep = Number(num.value);
          const start = keep >= legal.raise_min && keep <= legal.raise_max && num.dataset.turn === String(state.turn) ? keep : legal.raise_min;
          range.value = num.value = start;
          num.dataset.turn = String(state.turn);
          const btn = $("pt-raise-btn");
          const label = () => { btn.textContent = `${word} ${num.value}`; };
          const valid = () => /^\d+$/.test(num.value) && Number(num.value) >= legal.raise_min && Number(num.value) <= legal.raise_max;
          const check = () => {
            btn.disabled = !valid();
            num.setAttribute("aria-invalid", valid() ? "false" : "true");
            if (!valid()) btn.textContent = `${word} ${legal.raise_min}–${legal.raise_max}`;
          };
          range.oninput = () => { num.value = range.value; label(); check(); };
          num.oninput = () => { if (valid()) range.value = num.value; label(); check(); };
          label();
          check();
          btn.onclick = () => { if (valid()) act("r " + num.value); };
          const presets = $("pt-presets");
          presets.textContent = "";
          for (const p of legal.presets) {
            presets.append(el("button", { type: "button", "data-amount": p.amount, "aria-label": `${p.label}: ${p.amount}`, text: `${p.label} ${p.amount}`, onclick: () => { range.value = num.value = p.amount; label(); } }));
          }
        }
      }
      // the clock
      clearInterval(clockTimer);
      const bar = $("pt-clock");
      if (s.clock && legal) {
        const end = performance.now() + s.clock.remaining * 1000;
        const tick = () => {
          const left = Math.max(0, end - performance.now()) / 1000;
          bar.style.width = `${(100 * left) / s.clock.total}%`;
          bar.setAttribute("aria-label", `${Math.ceil(left)} seconds left (then: ${legal.default === "f" ? "fold" : legal.default === "c" ? "check" : "default action"})`);
        };
        tick();
        clockTimer = setInterval(tick, 250);
      } else { bar.style.width = "0"; }
    }

    function renderLast() {
      const last = state.last;
      const box = $("pt-last");
      box.hidden = !last;
      if (!last) return;
      box.textContent = "";
      box.append(el("h2", { text: `Hand ${last.hand}` + (last.board ? `: board ${last.board}` : "") }));
      const potRows = last.pots.map((p) => el("tr", {}, el("td", { text: `${p.name} ${p.amount}` }), el("td", { text: p.winners.join(", ") }), el("td", { title: `decided by: ${p.decided_by}`, "data-decided-by": p.decided_by }, p.why || p.decided_by, p.decided_by === "suits" ? el("a", { href: "/rules", text: " (rules)" }) : null)));
      box.append(el("table", { id: "pt-last-pots" }, el("thead", {}, el("tr", {}, el("th", { text: "Pot" }), el("th", { text: "Won by" }), el("th", { text: "Why" }))), el("tbody", {}, ...potRows)));
      if (last.hands.length) {
        const handRows = last.hands.map((h) => el("tr", {}, el("td", { text: h.name }), el("td", { text: h.cards }), el("td", { text: h.description })));
        box.append(el("table", { id: "pt-last-hands" }, el("thead", {}, el("tr", {}, el("th", { text: "Player" }), el("th", { text: "Cards" }), el("th", { text: "Best five" }))), el("tbody", {}, ...handRows)));
      }
      box.append(el("p", { class: "note", text: last.results.map((r) => `${r.name} ${r.won > 0 ? "+" : ""}${r.won}`).join(" · ") }));
    }
    connect();
  }

  document.addEventListener("DOMContentLoaded", () => {
    const root = $("pt");
    if (root) table(root);
    else if ($("t-form")) lobby().catch((e) => showError("t-error", e.message));
  });
})();
