// The page of one poker table (/tables/ID): the live table over a WebSocket. An ES
// module: the DOM helper, the card renderer and the API client are shared (dom.js,
// cards.js, api.js); the chat panel is chat.js, the fair-dealing check fair.js.
import { $, h, put, showError } from "./dom.js";
import { api, text as fetchText, socket } from "./api.js";
import { verifyText, parsePhhs } from "./fair.js";
import { chat } from "./chat.js";
import { countdown, hostSeats, houseLine, lastHand, ledger, odds, rangeExample, revealed, seatRequests, standings, tournament, verifyRows } from "./table_draw.js";
import { betweenHands, felt, handKey, winners } from "./table_felt.js";
import { layout, ghost } from "./table_layout.js";
import { choices, fitRaise, panel } from "./table_panel.js";
import { extras } from "./extras.js";

// a preference of this browser (sounds, the four-colour deck), kept in localStorage
// The range this browser's hints count against, kept like its other preferences, one
// per deck (each deck writes ranges its own way: "QQ+,AKs", "Z-Z"); empty: a random
// hand. hintsAgainst: the text the server will say it holds (spaces collapsed).
function rangePref(deck, value) {
  const key = `cardlab-hints-against-${deck}`;
  try {
    if (value === undefined) return localStorage.getItem(key) || "";
    localStorage.setItem(key, value.trim());
  } catch (e) { /* private mode: for this page only */ }
  return value;
}
function hintsAgainst() {
  const text = ($("pt-hints-against") || {}).value || "";
  const words = text.trim().split(/\s+/).join(" ");
  return !words || !words.replace(/\?/g, "").trim() ? "random" : words;
}

function pref(key, value) {
  try {
    if (value === undefined) return localStorage.getItem(key) === "1";
    localStorage.setItem(key, value ? "1" : "0");
  } catch (e) { /* private mode: for this page only */ }
  return !!value;
}
// short tones made on the spot (WebAudio), off unless the player turns them on
const sound = {
  on: false,
  ctx: null,
  tone(freq, seconds, gain, type) {
    if (!this.on) return;
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    try {
      this.ctx = this.ctx || new Ctx();
      if (this.ctx.state === "suspended") this.ctx.resume();
      const t = this.ctx.currentTime;
      const osc = this.ctx.createOscillator();
      const amp = this.ctx.createGain();
      osc.type = type;
      osc.frequency.value = freq;
      amp.gain.setValueAtTime(gain, t);
      amp.gain.exponentialRampToValueAtTime(0.0001, t + seconds);
      osc.connect(amp);
      amp.connect(this.ctx.destination);
      osc.start(t);
      osc.stop(t + seconds + 0.02);
    } catch (e) { /* no sound is no harm */ }
  },
  tick() { this.tone(1320, 0.08, 0.15, "sine"); },  // your turn
  click() { this.tone(2200, 0.03, 0.06, "triangle"); },  // chips go in
};
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
    if (ws) ws.send(message);
  }
  // the one hook for other panels (chat.js, extras.js): each message first, true =
  // handled there; decorate: each draws on the seats before they are laid out
  const hooks = { send, listeners: [], decorate: [] };
  function act(action) {
    showError("pt-error", "");
    send({ type: "action", action, turn: state ? state.turn : undefined });
  }
  function connect() {
    ws = socket(`/api/tables/${id}/ws`, {
      onmessage(msg) {
        if (hooks.listeners.map((f) => f(msg)).includes(true)) return;
        if (msg.type === "error") showError("pt-error", msg.message);
        else if (msg.type === "state") { state = msg; render(); }
      },
      // a new socket (the server may have restarted): this deal's seed is sent again
      onopen() { $("pt").classList.remove("offline"); sentFor = null; },
      retry: () => !(state && state.table.closed),  // a closed table sends no more states
      onclose() {
        $("pt-status").textContent = "Reconnecting…";
        $("pt").classList.add("offline");  // controls are disabled, not silently dropped
        document.querySelectorAll("#pt-actions button, #pt-actions input").forEach((b) => { b.disabled = true; });
      },
    });
  }
  $("pt-join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const joined = await api("POST", `/api/tables/${id}/join`, { name: $("pt-name").value, client_seeds: true });
      showError("pt-error", "");
      if (joined.pending) { askedForSeat(); return; }
      ws.reopen();  // the new cookie makes this connection the seat's
    } catch (e) { showError("pt-error", e.message); }
  });
  // a seat the host approves (approve_seats): a spectator's state is everybody's, so
  // the page asks for news of its request until it is answered
  let requestTimer = null;
  function pendingNote(text) {
    $("pt-join-form").hidden = !!text;
    $("pt-pending").hidden = !text;
    $("pt-pending-text").textContent = text || "";
  }
  function askedForSeat() {
    pendingNote("Waiting for the host to approve your request for a seat…");
    clearTimeout(requestTimer);
    requestTimer = setTimeout(pollRequest, 2000);
  }
  async function pollRequest() {
    let answer;
    try { answer = await api("GET", `/api/tables/${id}/request`); } catch (e) { requestTimer = setTimeout(pollRequest, 5000); return; }
    if (answer.status === "pending") { askedForSeat(); return; }
    pendingNote("");
    if (answer.status === "seated") ws.reopen();
    else if (answer.status === "refused") showError("pt-error", `The host refused your request for a seat (you may ask again in ${Math.ceil(answer.retry_after)} s).`);
    else if (answer.status === "expired") showError("pt-error", "Your request for a seat expired: ask again.");
  }
  $("pt-pending-cancel").addEventListener("click", async () => {
    clearTimeout(requestTimer);
    try { await api("POST", `/api/tables/${id}/leave`, {}); pendingNote(""); } catch (e) { showError("pt-error", e.message); }
  });
  pollRequest();  // a request made before this page was (re)loaded
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
  // the home-game rules (docs/home-games.md)
  $("pt-bomb").addEventListener("click", () => host({ op: "bomb_pot" }));
  $("pt-straddle").addEventListener("change", (e) => send({ type: e.target.checked ? "straddle_on" : "straddle_off" }));
  $("pt-house-settings").addEventListener("submit", (event) => {
    event.preventDefault();
    const settings = {
      straddle: $("pt-set-straddle").value,
      bomb_pot_every: Number($("pt-set-bomb-every").value || 0),
      bomb_pot_boards: Number($("pt-set-bomb-boards").value),
      seven_deuce: Number($("pt-set-seven-deuce").value || 0),
      dead_button: $("pt-set-dead-button").checked,
    };
    if ($("pt-set-bomb-ante").value !== "") settings.bomb_pot_ante = Number($("pt-set-bomb-ante").value);
    host({ op: "settings", settings });
  });
  $("pt-approve").addEventListener("click", () => host({ op: "settings", settings: { approve_seats: !(state && state.table.config.approve_seats) } }));
  $("pt-new-players").addEventListener("change", (e) => host({ op: "settings", settings: { new_players: e.target.value } }));
  $("pt-run-it").addEventListener("change", (e) => host({ op: "settings", settings: { run_it: Number(e.target.value) } }));
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
      const drawn = ledger(l);
      $("pt-ledger").querySelectorAll("thead th").forEach((th, k) => { th.textContent = drawn.head[k]; });
      put($("pt-ledger-rows"), drawn.rows);
      $("pt-ledger-check").textContent = drawn.check;
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
    if (!s || !s.you || !s.fair || s.fair.next_deal == null) return;
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
      const text = await fetchText(`/api/tables/${id}/hands.phhs`);
      const results = text.trim() ? await verifyText(text) : [];
      const hands = text.trim() ? parsePhhs(text) : [];
      put(rows, verifyRows(results, hands, mySeeds()));
      box.dataset.state = "done";
    } catch (e) {
      box.dataset.state = "error";
      rows.append(h("tr", {}, h("td", { colspan: "3" }, e.message)));
    }
  }

  // --- drawing: each panel is drawn from the state by table_felt.js, table_panel.js and
  // table_draw.js; here they are put in place
  function render() {
    const s = state;
    $("pt-title").textContent = s.table.name || s.table.game_name;
    $("pt-stakes").textContent = `${s.table.game_name} · ${s.table.stakes} · hand ${s.table.hand_number}`;
    renderHouse();
    $("pt-status").textContent = s.table.status + (s.you ? ` · you are ${s.you.name} (seat ${s.you.seat})` : " · watching");
    $("pt-join").hidden = !!s.you || s.table.open_seats === 0;
    $("pt-start").hidden = !s.you || s.table.started || s.table.closed;
    $("pt-leave").hidden = !s.you || s.table.closed;
    const mine = s.you ? s.seats[s.you.seat - 1] : null;
    $("pt-sit").hidden = !s.you || s.table.closed;
    $("pt-sit").textContent = mine && mine.sitting_out ? "Sit back in" : "Sit out from the next hand";
    const inHand = mine && s.hand && !s.hand.over && mine.cards.length > 0;
    $("pt-chips").hidden = !s.you || s.table.closed || s.table.tournament || inHand || mine.stack >= s.table.buy_in_cap;
    // a sit-and-go's stakes follow its schedule and it has no rebuys: not offered
    for (const f of ["pt-set-blinds", "pt-set-ante", "pt-set-cap"]) $(f).closest("label").hidden = !!s.table.tournament;
    $("pt-chips-n").max = mine ? Math.max(1, s.table.buy_in_cap - mine.stack) : 1;
    $("pt-host").hidden = !s.host || s.table.closed;
    $("pt-pause").textContent = s.table.paused ? "Resume dealing" : "Pause after this hand";
    if (s.host) {
      put($("pt-host-seats"), hostSeats(s.seats, $("pt").dataset.bots.split(" ").filter(Boolean), host));
      const requests = s.seat_requests || [];
      put($("pt-requests"), seatRequests(requests, host));
      $("pt-requests-box").hidden = !requests.length;
      $("pt-approve").textContent = s.table.config.approve_seats ? "Seat people without approval" : "Approve each new seat";
      if (document.activeElement !== $("pt-new-players")) $("pt-new-players").value = s.table.config.new_players || "wait";
      if (document.activeElement !== $("pt-run-it")) $("pt-run-it").value = String(s.table.config.run_it || 1);
    }
    if (ledgerHand !== s.table.hand_number + (s.hand && s.hand.over ? 0.5 : 0)) { ledgerHand = s.table.hand_number + (s.hand && s.hand.over ? 0.5 : 0); loadLedger(); }
    $("pt-close").hidden = !s.host || s.table.closed;
    $("pt-reveal").hidden = !s.you || s.table.closed || s.fair.reveal_requested;
    $("pt-commitment").textContent = s.fair.commitment || "none: the table is closed";
    put($("pt-revealed"), revealed(s.fair.revealed));
    put($("pt-notices"), s.notices.map((n) => h("li", {}, n)));
    $("pt-my-seed").textContent = "";
    if (s.hand && s.you && s.hand.dealt_in) {
      const mine = mySeeds()[s.hand.deal_number];
      $("pt-my-seed").textContent = mine ? (s.hand.client_seeds.includes(mine) ? `This deal used your browser's seed ${mine.slice(0, 8)}…` : "This deal did not get your browser's seed in time (it counts as empty).") : "";
    }
    sendSeed();
    renderFelt();
    renderActions();
    renderLast();
    renderOdds();
    renderTournament();
    const logBox = $("pt-log");
    put(logBox, s.log.map((line) => h("li", {}, line)));
    logBox.scrollTop = logBox.scrollHeight;
    remember();
  }

  // the home-game rules: a line under the stakes, the straddle choice, the host's form
  function renderHouse() {
    const s = state;
    const r = s.table.house || {};
    const line = houseLine(s);
    $("pt-house").textContent = line;
    $("pt-house").hidden = !line;
    $("pt-house").dataset.bombPot = s.hand && !s.hand.over && s.hand.bomb_pot ? "yes" : "no";
    const mine = s.you ? s.seats[s.you.seat - 1] : null;
    $("pt-straddle-box").hidden = !mine || !r.straddle || r.straddle === "off" || s.table.closed;
    if (mine && document.activeElement !== $("pt-straddle")) $("pt-straddle").checked = !!mine.straddles;
    $("pt-bomb").hidden = !!s.table.tournament;
    $("pt-house-settings").hidden = !!s.table.tournament;
    if (s.host) {
      const c = s.table.config;
      const set = (id, v) => { if (document.activeElement !== $(id)) $(id).value = v; };
      set("pt-set-straddle", c.straddle || "off");
      set("pt-set-bomb-every", String(c.bomb_pot_every || 0));
      set("pt-set-bomb-ante", c.bomb_pot_ante == null ? "" : String(c.bomb_pot_ante));
      set("pt-set-bomb-boards", String(c.bomb_pot_boards || 1));
      set("pt-set-seven-deuce", String(c.seven_deuce || 0));
      if (document.activeElement !== $("pt-set-dead-button")) $("pt-set-dead-button").checked = !!c.dead_button;
    }
  }

  // --- the felt: seats around an oval, each bet in front of its seat, the middle -----
  const calm = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  let prev = null;  // what the last state showed: what is new in this one is animated
  const seen = new Set();  // the cards already dealt on screen, this hand
  let seenHand = null;
  // a card new on screen this hand is dealt in (moves from the middle)
  const fresh = (id) => { const dealt = !seen.has(id); seen.add(id); return dealt; };

  function renderFelt() {
    const s = state;
    const key = handKey(s);
    if (key !== seenHand) { seen.clear(); seenHand = key; }
    const drawn = felt(s, { prev, fresh });
    put($("pt-seats"), drawn.seats);
    put($("pt-bets"), drawn.bets);
    put($("pt-board"), drawn.board);
    put($("pt-board2"), drawn.board2);
    $("pt-board2").hidden = !(s.hand && s.hand.boards);
    put($("pt-pots"), drawn.pots);
    put($("pt-result"), drawn.result);
    hooks.decorate.forEach((f) => f(s));
    placeAll();
    animate();
    tickClock();
  }
  let spots = new Map();  // seat -> {seat: [x, y], bet: [x, y]} of the last layout
  const placeAll = () => { spots = layout($("pt-felt"), $("pt-seats"), $("pt-bets"), $("pt-middle")); };
  if (window.ResizeObserver) new ResizeObserver(() => { if (state) placeAll(); }).observe($("pt-felt"));

  // the chips gathered into the pot at the end of a street, the pot pushed to the
  // winners at the end of the hand; a tick when it is your turn, a click on bets
  function animate() {
    const s = state;
    const key = handKey(s);
    if (!prev) return;
    const W = $("pt-felt").clientWidth;
    const H = $("pt-felt").clientHeight;
    const raised = s.seats.some((p) => prev.hand === key && p.bet > (prev.bets[p.seat] || 0));
    if (raised) sound.click();
    if (s.legal && s.turn !== prev.turn) sound.tick();
    if (calm()) return;
    const collected = prev.hand === key && !prev.over && Object.values(prev.bets).some((b) => b > 0) && s.seats.every((p) => !p.bet);
    if (collected) {
      for (const [seat, at] of Object.entries(prev.betAt)) ghost($("pt-felt"), at, [W / 2, H / 2], prev.bets[seat]);
    }
    if (s.last && s.last.hand !== prev.lastHand && betweenHands(s)) {
      const won = winners(s);
      for (const p of s.seats) {
        const at = spots.get(String(p.seat));
        if (won.has(p.name) && at) ghost($("pt-felt"), [W / 2, H / 2], at.seat, won.get(p.name));
      }
    }
  }
  function remember() {
    const s = state;
    const betAt = {};
    for (const [seat, at] of spots) if (at.bet) betAt[seat] = at.bet;
    prev = {
      hand: handKey(s),
      over: !s.hand || s.hand.over,
      bets: Object.fromEntries(s.seats.map((p) => [p.seat, p.bet])),
      betAt,
      turn: s.legal ? s.turn : prev && prev.turn,
      lastHand: s.last ? s.last.hand : null,
    };
  }

  // the clock of the seat to act, on its seat and (your own) above your buttons
  let clockEnd = null;
  function tickClock() {
    const s = state;
    clockEnd = s.clock ? performance.now() + s.clock.remaining * 1000 : null;
    clearInterval(clockTimer);
    const draw = () => {
      const bar = document.querySelector(".pt-seat-clock i");
      const mine = $("pt-clock");
      if (clockEnd === null) { mine.style.width = "0"; return; }
      const left = Math.max(0, clockEnd - performance.now()) / 1000;
      const share = `${(100 * left) / (state.clock.total || 1)}%`;
      if (bar) { bar.style.width = share; bar.parentElement.setAttribute("aria-label", `${Math.ceil(left)} seconds left`); }
      if (state.legal) {
        const legal = state.legal;
        mine.style.width = share;
        mine.setAttribute("aria-label", `${Math.ceil(left)} seconds left (then: ${legal.default === "f" ? "fold" : legal.default === "c" ? "check" : "default action"})`);
      } else mine.style.width = "0";
    };
    draw();
    if (clockEnd !== null) clockTimer = setInterval(draw, 250);
  }

  // your cards and your choices (table_panel.js); the bet form stays on the page
  const raiseForm = { box: $("pt-raise"), label: $("pt-amount-label"), range: $("pt-amount"), num: $("pt-amount-n"), button: $("pt-raise-btn"), presets: $("pt-presets") };
  function renderActions() {
    const choice = choices(state);
    $("pt-actions").hidden = !choice;
    const drawn = panel(choice, { act, send, selected });
    put($("pt-hole"), drawn.hole);
    put($("pt-buttons"), drawn.buttons);
    fitRaise(raiseForm, choice && choice.raise, state.turn, act);
  }

  function renderLast() {
    const box = $("pt-last");
    box.hidden = !state.last;
    // the rabbit: anyone may ask for it between hands (a hand won before its last street)
    const rabbit = betweenHands(state) ? () => send({ type: "rabbit" }) : null;
    put(box, state.last ? lastHand(state.last, rabbit) : []);
  }

  // the exact all-in odds and your hint; the hints follow this browser's preference,
  // against a random hand or the range it keeps (sent once per change: a range the
  // server refuses is one error, not a message sent again and again)
  let hintsAsked = null;
  function renderOdds() {
    const s = state;
    const box = put($("pt-odds"), odds(s));
    box.hidden = !box.childNodes.length;
    const field = $("pt-hints-against");
    const game = (s.table && s.table.game) || "";
    const example = rangeExample(game);
    const deck = game.split("-")[0];
    if (field.dataset.deck !== deck) { field.dataset.deck = deck; field.value = rangePref(deck); }
    field.placeholder = example || "random";
    field.disabled = !example;  // ranges are two-card Hold'em hands
    const want = pref("cardlab-hints");
    const against = example ? hintsAgainst() : "random";
    const ask = `${want} ${against}`;
    const differs = !!s.hints_on !== want || (want && (s.hints_against || "random") !== against);
    if (s.you && differs && hintsAsked !== ask) { hintsAsked = ask; send({ type: "hints", on: want, against }); }
  }

  // a multi-table tournament's table (web/mtt.py): its number, the lobby, and a player
  // moved to another table follows there (the lobby knows where this browser sits)
  let wasSeated = false;
  let following = false;
  function followMtt(m, facts) {
    facts.append(h("div", {}, h("dt", {}, "Table"), h("dd", { id: "pt-mtt-table" },
      m.final_table ? "the final table" : `${m.table} (${m.tables} tables left) `,
      h("a", { id: "pt-mtt-lobby", href: m.lobby }, "lobby"))));
    if (state.you) { wasSeated = true; return; }
    if (!wasSeated || following) return;
    following = true;
    api("GET", `/api/mtts/${m.id}`).then((lobby) => {
      const url = lobby.you && lobby.you.table_url;
      if (url && url !== location.pathname) location.assign(url);
      else following = false;
    }).catch(() => { following = false; });
  }

  // a sit-and-go: the level, the stakes and the next ones, who is left, the standings
  let levelTimer = null;
  function renderTournament() {
    const t = state.tournament;
    clearInterval(levelTimer);
    $("pt-tournament").hidden = !t;
    if (!t) { put($("pt-tournament-body")); return; }
    const drawn = tournament(t);
    if (drawn.seconds != null) {
      const start = performance.now();
      const draw = () => { drawn.when.textContent = countdown(start, drawn.seconds, performance.now()); };
      draw();
      levelTimer = setInterval(draw, 1000);
    }
    if (t.mtt) followMtt(t.mtt, drawn.facts);
    put($("pt-tournament-body"), drawn.nodes, drawn.facts, standings(t.standings || []));
  }

  // this browser's preferences
  const four = $("pt-four-colour");
  four.checked = pref("cardlab-four-colour");
  root.classList.toggle("four-colour", four.checked);
  four.addEventListener("change", () => { pref("cardlab-four-colour", four.checked); root.classList.toggle("four-colour", four.checked); });
  const hints = $("pt-hints");
  hints.checked = pref("cardlab-hints");
  hints.addEventListener("change", () => { pref("cardlab-hints", hints.checked); hintsAsked = null; if (state) renderOdds(); });
  const against = $("pt-hints-against");
  against.addEventListener("change", () => {
    if (against.dataset.deck) rangePref(against.dataset.deck, against.value);
    hintsAsked = null;
    if (state) renderOdds();
  });
  const loud = $("pt-sound");
  loud.checked = sound.on = pref("cardlab-sound");
  loud.addEventListener("change", () => { sound.on = pref("cardlab-sound", loud.checked); if (sound.on) sound.click(); });
  connect();
  if ($("chat")) chat(root, hooks);
  if ($("px-bar")) extras(root, hooks);
}

const root = $("pt");
if (root) table(root);
