// The page of one poker table (/tables/ID): the live table over a WebSocket. An ES
// module: the DOM helper, the card renderer and the API client are shared (dom.js,
// cards.js, api.js); the chat panel is chat.js, the fair-dealing check fair.js.
import { $, h, put, showError } from "./dom.js";
import { api, text as fetchText, socket } from "./api.js";
import { card as drawCard } from "./cards.js";
import { verifyText, parsePhhs } from "./fair.js";
import { chat } from "./chat.js";
import { lastHand, ledger, standings } from "./table_draw.js";
import { extras } from "./extras.js";

// a card on the felt: a big one shows its suit's pip as well
const card = (c, opts) => drawCard(c, { pip: true, ...opts });

// a preference of this browser (sounds, the four-colour deck), kept in localStorage
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
      const seeds = mySeeds();
      results.forEach((r, i) => {
        let detail = r.detail;
        const fields = hands[i] ? hands[i].fields : {};
        const mine = seeds[r.deal];
        // dealt in: the viewer's own hole cards are written out (others' are ??)
        const dealtIn = Array.isArray(fields.actions) && fields.actions.some((a) => /^d dh p\d+ /.test(a) && !a.includes("?"));
        if (mine && dealtIn && Array.isArray(fields._client_seeds)) {
          detail += fields._client_seeds.includes(mine) ? " · your client seed is in it" : " · YOUR CLIENT SEED IS MISSING";
        }
        rows.append(h("tr", { "data-status": r.status, "data-deal": r.deal === null ? "" : String(r.deal) }, h("td", {}, String(fields.hand ?? r.hand)), h("td", {}, r.status), h("td", {}, detail)));
      });
      if (!results.length) rows.append(h("tr", {}, h("td", { colspan: "3" }, "No finished hands yet.")));
      box.dataset.state = "done";
    } catch (e) {
      box.dataset.state = "error";
      rows.append(h("tr", {}, h("td", { colspan: "3" }, e.message)));
    }
  }

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
      const hs = $("pt-host-seats");
      hs.textContent = "";
      for (const p of s.seats) {
        const cells = [h("td", {}, `${p.seat}. ${p.name}`)];
        if (p.kind === "open") {
          const sel = h("select", { "aria-label": `bot for seat ${p.seat}` }, ...$("pt").dataset.bots.split(" ").filter(Boolean).map((b) => h("option", { value: b }, b + " bot")));
          if (sel.querySelector('option[value="station"]')) sel.value = "station";  // the usual opponent, chosen first
          cells.push(h("td", {}, sel, h("button", { type: "button", onclick: () => host({ op: "add_bot", seat: p.seat, bot: sel.value }) }, "Seat a bot")));
        } else {
          const sure = (question, body) => () => { if (window.confirm(question)) host(body); };
          const buttons = [h("button", { type: "button", "data-remove": p.seat, onclick: sure(`Remove ${p.name} from seat ${p.seat}? Their chips go to the ledger.`, { op: "remove", seat: p.seat }) }, "Remove")];
          if (p.kind === "human" && !p.you) buttons.push(h("button", { type: "button", "data-transfer": p.seat, onclick: sure(`Make ${p.name} the host? You lose the host's controls.`, { op: "transfer", seat: p.seat }) }, "Make host"));
          cells.push(h("td", {}, ...buttons));
        }
        hs.append(h("tr", {}, ...cells));
      }
      const requests = s.seat_requests || [];
      const list = $("pt-requests");
      list.textContent = "";
      for (const q of requests) {
        list.append(h("li", { "data-request": q.request }, h("span", {}, q.name + (q.seat ? ` (seat ${q.seat})` : "") + " "),
          h("button", { type: "button", class: "primary", onclick: () => host({ op: "approve", request: q.request }) }, "Approve"),
          h("button", { type: "button", onclick: () => host({ op: "refuse", request: q.request }) }, "Refuse")));
      }
      $("pt-requests-box").hidden = !requests.length;
      $("pt-approve").textContent = s.table.config.approve_seats ? "Seat people without approval" : "Approve each new seat";
      if (document.activeElement !== $("pt-new-players")) $("pt-new-players").value = s.table.config.new_players || "wait";
      if (document.activeElement !== $("pt-run-it")) $("pt-run-it").value = String(s.table.config.run_it || 1);
    }
    if (ledgerHand !== s.table.hand_number + (s.hand && s.hand.over ? 0.5 : 0)) { ledgerHand = s.table.hand_number + (s.hand && s.hand.over ? 0.5 : 0); loadLedger(); }
    $("pt-close").hidden = !s.host || s.table.closed;
    $("pt-reveal").hidden = !s.you || s.table.closed || s.fair.reveal_requested;
    $("pt-commitment").textContent = s.fair.commitment || "none: the table is closed";
    const revealed = $("pt-revealed");
    revealed.textContent = "";
    for (const r of s.fair.revealed) revealed.append(h("li", {}, "revealed: ", h("code", { class: "pt-hex" }, r.server_seed), " (commitment ", h("code", { class: "pt-hex" }, r.commitment.slice(0, 16) + "…"), ")"));
    const notices = $("pt-notices");
    notices.textContent = "";
    for (const n of s.notices) notices.append(h("li", {}, n));
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
    logBox.textContent = "";
    s.log.forEach((line) => logBox.append(h("li", {}, line)));
    logBox.scrollTop = logBox.scrollHeight;
    remember();
  }

  // --- the felt: seats around an oval, each bet in front of its seat, the middle -----
  const stud = () => state.table.base === "stud";  // razz and stud8 too
  const handKey = (s) => (s.hand ? String(s.table.hand_number) : null);  // the same once over
  const calm = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  let prev = null;  // what the last state showed: what is new in this one is animated
  const seen = new Set();  // the cards already dealt on screen, this hand
  let seenHand = null;

  function betweenHands(s) { return !s.hand || s.hand.over; }
  function winners(s) {
    // name -> chips won, of the last hand, while it is still the one on the table
    const out = new Map();
    if (!s.last || !betweenHands(s)) return out;
    for (const p of s.last.pots) {
      const share = p.winners.length ? Math.floor(p.amount / p.winners.length) : 0;
      for (const w of p.winners) out.set(w, (out.get(w) || 0) + share);
    }
    return out;
  }

  // the home-game rules: a line under the stakes, the straddle choice, the host's form
  function renderHouse() {
    const s = state;
    const r = s.table.house || {};
    const words = [];
    if (r.straddle && r.straddle !== "off") words.push({ utg: "UTG straddle", button: "button straddle", mississippi: "Mississippi straddle" }[r.straddle]);
    if (r.bomb_pot_every) words.push(`bomb pot every ${r.bomb_pot_every} hands` + (r.bomb_pot_boards === 2 ? " (two boards)" : ""));
    else if (r.bomb_pot_boards === 2) words.push("bomb pots on two boards");
    if (r.seven_deuce) words.push(`seven-deuce ${r.seven_deuce} (${(r.seven_deuce_ranks || ["7", "2"]).join("-")})`);
    if (r.dead_button) words.push("dead button");
    const now = [];
    if (s.hand && !s.hand.over && s.hand.bomb_pot) now.push("this hand is a bomb pot");
    else if (r.bomb_next) now.push("the next hand is a bomb pot");
    if (s.hand && !s.hand.over && s.hand.straddle_seat) now.push(`seat ${s.hand.straddle_seat} straddles`);
    const line = [...words, ...now].join(" · ");
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

  function renderFelt() {
    const s = state;
    const key = handKey(s);
    if (key !== seenHand) { seen.clear(); seenHand = key; }
    const n = s.seats.length;
    const base = s.you ? s.you.seat - 1 : 0;  // the viewer sits at the bottom centre
    const won = winners(s);
    const seats = $("pt-seats");
    const bets = $("pt-bets");
    seats.textContent = "";
    bets.textContent = "";
    for (const p of s.seats) {
      const i = p.seat - 1;
      const angle = Math.PI / 2 + (((i - base + n) % n) * 2 * Math.PI) / n;
      const folded = s.hand && p.cards.length && !p.in_hand;
      const winner = won.has(p.name);
      const cls = ["pt-seat"];
      if (p.actor) cls.push("actor");
      if (p.you) cls.push("you");
      if (folded || p.kind === "open" || p.sitting_out) cls.push("out");
      if (p.kind === "open") cls.push("open");
      if (winner) cls.push("winner");
      const badges = [];
      if (p.actor) badges.push(h("span", { class: "badge act" }, "to act"));
      if (winner) badges.push(h("span", { class: "badge win" }, `wins ${won.get(p.name)}`));
      if (p.all_in) badges.push(h("span", { class: "badge" }, "all-in"));
      if (folded && !s.hand.over) badges.push(h("span", { class: "badge" }, "folded"));
      if (p.sitting_out) badges.push(h("span", { class: "badge" }, "sitting out"));
      else if (p.waiting) badges.push(h("span", { class: "badge" }, s.table.config.new_players === "post" ? "posts to come in" : "waits for the big blind"));
      if (p.leaving) badges.push(h("span", { class: "badge" }, "leaving"));
      if (s.hand && !s.hand.over && s.hand.straddle_seat === p.seat) badges.push(h("span", { class: "badge straddle" }, "straddle"));
      if (p.owes && p.owes.length && (p.sitting_out || p.waiting)) badges.push(h("span", { class: "badge" }, `missed ${p.owes.join(" and ")} blind`));
      if (p.kind === "bot") badges.push(h("span", { class: "badge bot" }, "bot"));
      if (p.kind === "human" && !p.connected && !p.you) badges.push(h("span", { class: "badge" }, "away"));
      const shown = folded && !p.you ? [] : p.cards;  // the others' folded cards are mucked
      const row = h("div", { class: "pt-cards" });
      row.style.setProperty("--n", String(shown.length));
      row.style.setProperty("--n1", String(Math.max(1, shown.length - 1)));
      shown.forEach((c, k) => {
        const id = `${p.seat}:${k}:${c}`;
        const dealt = !seen.has(id);
        seen.add(id);
        const showUp = stud() && c !== "??";
        row.append(card(c, { small: true, up: showUp && p.up[k], down: showUp && !p.up[k], dealt }));
      });
      const meta = p.kind === "open"
        ? h("div", { class: "meta" }, "open seat")
        : h("div", { class: "meta" }, h("span", { class: "lbl" }, "stack "), h("span", { class: "stk" }, String(p.stack)));
      const plate = h("div", { class: "pt-plate" }, h("div", { class: "nm", title: p.name }, h("span", { class: "no" }, `${p.seat}. `), p.name), meta, h("div", { class: "pt-badges" }, ...badges));
      if (s.clock && s.clock.seat === p.seat) plate.append(h("div", { class: "pt-seat-clock", role: "timer" }, h("i")));
      const seat = h("div", { class: cls.join(" "), "data-seat": p.seat, "data-angle": angle.toFixed(5) }, row, plate);
      seats.append(seat);
      if (p.bet > 0) {
        const grew = prev && prev.hand === key && (prev.bets[p.seat] || 0) < p.bet;
        bets.append(h("div", { class: "pt-bet" + (grew ? " moved" : ""), "data-seat": p.seat, "data-amount": p.bet, "aria-label": `${p.name} bets ${p.bet}` }, h("span", { class: "pt-chip", "aria-hidden": "true" }), h("span", {}, String(p.bet))));
      }
      if (p.button && !stud()) bets.append(h("div", { class: "pt-dealer", "data-seat": p.seat, title: "dealer button" }, "D"));
    }
    // board and pots
    const board = $("pt-board");
    board.textContent = "";
    const pots = $("pt-pots");
    pots.textContent = "";
    const result = $("pt-result");
    result.textContent = "";
    const board2 = $("pt-board2");
    board2.textContent = "";
    board2.hidden = !(s.hand && s.hand.boards);
    if (s.hand) {
      s.hand.board.forEach((c, k) => {
        const id = `b:${k}:${c}`;
        board.append(card(c, { dealt: !seen.has(id) }));
        seen.add(id);
      });
      if (s.hand.boards) {  // a double-board bomb pot: the second board below the first
        s.hand.boards[1].forEach((c, k) => {
          const id = `b2:${k}:${c}`;
          board2.append(card(c, { dealt: !seen.has(id) }));
          seen.add(id);
        });
      }
      if (!s.hand.over) {
        s.hand.pots.forEach((p, i) => {
          if (p.amount > 0 || i === 0) pots.append(h("span", { class: "pt-pot" }, h("span", { class: "pt-chip", "aria-hidden": "true" }), h("span", {}, `${i ? "side pot " + i : "pot"} ${p.amount}`)));
        });
        const inPots = s.hand.pots.reduce((a, p) => a + p.amount, 0);
        if (s.hand.total_pot !== inPots) pots.append(h("span", { class: "pt-total" }, `total pot ${s.hand.total_pot}`));
      }
    }
    if (s.last && betweenHands(s)) {
      for (const p of s.last.pots) {
        const who = p.winners.length > 1 ? `${p.winners.join(" and ")} split` : `${p.winners[0] || "nobody"} wins`;
        result.append(h("div", {}, `${who} ${p.amount}` + (s.last.pots.length > 1 ? ` (${p.name})` : "")));
      }
    }
    if (s.tournament && s.tournament.over && s.tournament.winner) result.append(h("div", { class: "pt-champion" }, `${s.tournament.winner} wins the tournament`));
    hooks.decorate.forEach((f) => f(s));
    layout();
    animate();
    tickClock();
  }

  // places the seats on the oval, and each bet and the button between its seat and
  // the middle, clear of the board and of the other seats (px: the felt's own size)
  const spots = new Map();  // seat -> {seat: [x, y], bet: [x, y]} of the last layout
  function layout() {
    const felt = $("pt-felt");
    const W = felt.clientWidth;
    const H = felt.clientHeight;
    const seatEls = [...$("pt-seats").children];
    if (!seatEls.length || !W) return;
    let sw = 0;
    let sh = 0;
    for (const e of seatEls) { sw = Math.max(sw, e.offsetWidth); sh = Math.max(sh, e.offsetHeight); }
    felt.style.setProperty("--oval-x", `${sw / 2}px`);
    felt.style.setProperty("--oval-y", `${sh / 2}px`);
    const rx = W / 2 - sw / 2;
    const ry = H / 2 - sh / 2;
    const boxes = [];
    spots.clear();
    for (const e of seatEls) {
      const a = Number(e.dataset.angle);
      const x = W / 2 + rx * Math.cos(a);
      const y = H / 2 + ry * Math.sin(a);
      e.style.left = `${x - e.offsetWidth / 2}px`;
      e.style.top = `${y - e.offsetHeight / 2}px`;
      e.style.setProperty("--from-x", `${W / 2 - x}px`);  // dealt cards come from the middle
      e.style.setProperty("--from-y", `${H / 2 - y}px`);
      boxes.push(box(x, y, e.offsetWidth, e.offsetHeight, 2));
      spots.set(e.dataset.seat, { seat: [x, y] });
    }
    const mid = $("pt-middle");
    boxes.push(box(W / 2, H / 2, mid.offsetWidth, mid.offsetHeight, 6));
    const place = (e, avoid, reach) => {
      const home = spots.get(e.dataset.seat);
      const [sx, sy] = home.seat;
      const w = e.offsetWidth;
      const h = e.offsetHeight;
      const dx = sx - W / 2;
      const dy = sy - H / 2;
      const len = Math.hypot(dx, dy) || 1;
      const [px, py] = [-dy / len, dx / len];  // across the line to the seat
      let best = null;
      for (const side of [0, 1, -1, 2, -2]) {
        for (const f of reach) {
          const x = W / 2 + dx * f + px * side * (h + 4);
          const y = H / 2 + dy * f + py * side * (h + 4);
          const b = box(x, y, w, h, 0);
          if (b.l < 0 || b.t < 0 || b.r > W || b.b > H) continue;
          if (!boxes.some((o) => overlap(b, o)) && !avoid.some((o) => overlap(b, o))) { best = [x, y]; break; }
        }
        if (best) break;
      }
      if (!best) best = [W / 2 + dx * reach[0], H / 2 + dy * reach[0]];
      e.style.left = `${best[0] - w / 2}px`;
      e.style.top = `${best[1] - h / 2}px`;
      e.style.setProperty("--from-x", `${sx - best[0]}px`);  // a bet comes from its seat
      e.style.setProperty("--from-y", `${sy - best[1]}px`);
      return best;
    };
    const placed = [];
    for (const e of $("pt-bets").querySelectorAll(".pt-bet[data-seat]")) {
      const [x, y] = place(e, placed, [0.58, 0.5, 0.66, 0.44, 0.74, 0.38, 0.8]);
      spots.get(e.dataset.seat).bet = [x, y];
      placed.push(box(x, y, e.offsetWidth, e.offsetHeight, 2));
    }
    for (const e of $("pt-bets").querySelectorAll(".pt-dealer")) {
      const [x, y] = place(e, placed, [0.7, 0.64, 0.76, 0.58, 0.5, 0.82]);
      placed.push(box(x, y, e.offsetWidth, e.offsetHeight, 2));
    }
  }
  function box(x, y, w, h, margin) {
    return { l: x - w / 2 - margin, r: x + w / 2 + margin, t: y - h / 2 - margin, b: y + h / 2 + margin };
  }
  function overlap(a, b) { return a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b; }
  if (window.ResizeObserver) new ResizeObserver(() => { if (state) layout(); }).observe($("pt-felt"));

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
      for (const [seat, at] of Object.entries(prev.betAt)) ghost(at, [W / 2, H / 2], prev.bets[seat]);
    }
    if (s.last && s.last.hand !== prev.lastHand && betweenHands(s)) {
      const won = winners(s);
      for (const p of s.seats) {
        const at = spots.get(String(p.seat));
        if (won.has(p.name) && at) ghost([W / 2, H / 2], at.seat, won.get(p.name));
      }
    }
  }
  function ghost(from, to, amount) {
    const g = h("div", { class: "pt-bet pt-ghost" }, h("span", { class: "pt-chip" }), h("span", {}, String(amount || "")));
    $("pt-felt").append(g);  // not among the bets: a new state does not cut it short
    g.style.left = `${from[0] - g.offsetWidth / 2}px`;
    g.style.top = `${from[1] - g.offsetHeight / 2}px`;
    g.style.setProperty("--to-x", `${to[0] - from[0]}px`);
    g.style.setProperty("--to-y", `${to[1] - from[1]}px`);
    const gone = () => g.remove();
    g.addEventListener("animationend", gone);
    setTimeout(gone, 1200);
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

  function renderActions() {
    const s = state;
    const legal = s.legal;
    const panel = $("pt-actions");
    const me = s.you ? s.seats[s.you.seat - 1] : null;
    const live = !!(me && s.hand && !s.hand.over && me.cards.length);
    const canShow = !!(me && s.can_show && betweenHands(s));
    panel.hidden = !live && !canShow;
    const hole = $("pt-hole");
    hole.textContent = "";
    const buttons = $("pt-buttons");
    buttons.textContent = "";
    $("pt-raise").hidden = true;
    if (panel.hidden) return;
    // your cards, big; in Stud the face-down ones look different from the face-up ones
    const mine = (c, k) => card(c, { up: stud() && me.up[k], down: stud() && !me.up[k] });
    if (!live) {
      me.cards.forEach((c, k) => hole.append(mine(c, k)));
      buttons.append(h("button", { type: "button", id: "pt-act-show-cards", class: "primary", onclick: () => send({ type: "show" }) }, "Show my cards"));
    } else if (!legal) {
      me.cards.forEach((c, k) => hole.append(mine(c, k)));
      buttons.append(h("span", { class: "note" }, "Waiting for the others…"));
    } else if (legal.phase === "draw") {
      for (const c of legal.hole) {
        const b = card(c, { tag: "button", label: `discard ${c}` });
        b.type = "button";
        b.setAttribute("aria-pressed", selected.has(c) ? "true" : "false");
        b.addEventListener("click", () => { if (selected.has(c)) selected.delete(c); else selected.add(c); b.setAttribute("aria-pressed", selected.has(c) ? "true" : "false"); update(); });
        hole.append(b);
      }
      const draw = h("button", { type: "button", id: "pt-act-discard", class: "primary" });
      const update = () => { draw.textContent = selected.size ? `Discard ${selected.size}` : "Stand pat"; };
      update();
      draw.addEventListener("click", () => { const cards = [...selected].join(" "); selected.clear(); act(cards ? "d " + cards : "d"); });
      buttons.append(draw);
    } else if (legal.phase === "runs") {
      // everyone left is all in: run the rest of the board more than once if all agree
      me.cards.forEach((c, k) => hole.append(mine(c, k)));
      const times = ["once", "twice", "three times"];
      for (let n = 1; n <= legal.runs; n++) buttons.append(h("button", { type: "button", id: `pt-act-runs-${n}`, class: n === 2 ? "primary" : "", onclick: () => act(`runs ${n}`) }, `Run it ${times[n - 1] || n + " times"}`));
      buttons.append(h("button", { type: "button", id: "pt-act-runs-any", onclick: () => act("runs") }, "No preference"));
    } else if (legal.phase === "showdown") {
      me.cards.forEach((c, k) => hole.append(mine(c, k)));
      buttons.append(h("button", { type: "button", id: "pt-act-show", class: "primary", onclick: () => act("s") }, "Show"));
      if (legal.muck !== false) buttons.append(h("button", { type: "button", id: "pt-act-muck", onclick: () => act("m") }, "Muck"));
    } else {
      me.cards.forEach((c, k) => hole.append(mine(c, k)));
      if (legal.fold) buttons.append(h("button", { type: "button", id: "pt-act-fold", onclick: () => act("f") }, "Fold"));
      if (legal.call !== null) buttons.append(h("button", { type: "button", id: "pt-act-call", class: legal.check ? "primary" : "", onclick: () => act("c") }, legal.check ? "Check" : `Call ${legal.call}`));
      if (legal.bring_in !== null) buttons.append(h("button", { type: "button", id: "pt-act-bring-in", onclick: () => act("b") }, `Bring in ${legal.bring_in}`));
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
          presets.append(h("button", { type: "button", "data-amount": p.amount, "aria-label": `${p.label}: ${p.amount}`, onclick: () => { range.value = num.value = p.amount; label(); } }, `${p.label} ${p.amount}`));
        }
      }
    }
  }

  function renderLast() {
    const box = $("pt-last");
    box.hidden = !state.last;
    // the rabbit: anyone may ask for it between hands (a hand won before its last street)
    const rabbit = betweenHands(state) ? () => send({ type: "rabbit" }) : null;
    put(box, state.last ? lastHand(state.last, rabbit) : []);
  }

  // the exact all-in odds (everyone's, street by street and run by run) and your hint
  let hintsAsked = null;
  function renderOdds() {
    const s = state;
    const box = $("pt-odds");
    box.textContent = "";
    const pct = (x) => `${(100 * x).toFixed(1)}%`;
    if (s.odds && s.odds.length) {
      const several = s.odds.some((x) => x.run > 1);
      const two = s.odds.some((x) => x.on > 1);  // a double board: each board's own odds
      const rows = s.odds.map((o) => h("tr", { "data-run": o.run, "data-on": o.on, "data-board": o.board },
        h("td", {}, (several ? `run ${o.run}: ` : "") + (two ? `board ${o.on}: ` : "") + (o.board || "before the flop")),
        h("td", {}, o.hands.map((x) => `${x.cards} ${pct(x.equity)}` + (x.tie > 0 ? ` (tie ${pct(x.tie)})` : "")).join(" · "))));
      box.append(h("h2", {}, "All-in odds (exact)"),
        h("table", { id: "pt-odds-table" }, h("thead", {}, h("tr", {}, h("th", {}, "Board"), h("th", {}, "Each hand's share"))), h("tbody", {}, ...rows)));
    }
    if (s.hints_on && s.hint) {
      const x = s.hint;
      const words = x.hand ? `You have ${x.hand}. ` : "";
      const eq = x.equity == null ? "too many deals to count exactly now" : `${pct(x.equity)} against a random hand (exact)`;
      box.append(h("p", { id: "pt-hint", class: "pt-hint" }, `${words}Your equity: ${eq}.`));
    }
    box.hidden = !box.childNodes.length;
    const want = pref("cardlab-hints");
    if (s.you && !!s.hints_on !== want && hintsAsked !== want) { hintsAsked = want; send({ type: "hints", on: want }); }
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
    const panel = $("pt-tournament");
    const body = $("pt-tournament-body");
    clearInterval(levelTimer);
    panel.hidden = !t;
    body.textContent = "";
    if (!t) return;
    if (t.over) body.append(h("p", { id: "pt-tournament-winner", class: "pt-tournament-winner" }, `${t.winner} wins`));
    const facts = h("dl", { class: "pt-tournament-facts" });
    const fact = (name, ...value) => facts.append(h("div", {}, h("dt", {}, name), h("dd", {}, ...value)));
    if (t.level != null) fact("Level", t.levels != null ? `${t.level} of ${t.levels}` : String(t.level));
    if (t.stakes) fact("Stakes", String(t.stakes));
    if (t.next && !t.over) {
      const when = h("span", { id: "pt-tournament-next-in" });
      fact("Next level", `${t.next} `, when);
      const next = t.next_in || {};
      if (next.hands != null) when.textContent = `in ${next.hands} hand${next.hands === 1 ? "" : "s"}`;
      else if (next.seconds != null) {
        const end = performance.now() + next.seconds * 1000;
        const draw = () => {
          const left = Math.max(0, Math.round((end - performance.now()) / 1000));
          when.textContent = `in ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
        };
        draw();
        levelTimer = setInterval(draw, 1000);
      }
    }
    if (t.players_left != null) fact("Players left", `${t.players_left} of ${t.entrants}`);
    if (t.prizes && t.prizes.some((x) => x > 0)) fact("Prizes", t.prizes.join(" · "));
    if (t.started === false) body.append(h("p", { class: "note" }, "Not started yet: the levels count from the first hand."));
    if (t.mtt) followMtt(t.mtt, facts);
    body.append(facts);
    body.append(standings(t.standings || []));
  }

  // this browser's preferences
  const four = $("pt-four-colour");
  four.checked = pref("cardlab-four-colour");
  root.classList.toggle("four-colour", four.checked);
  four.addEventListener("change", () => { pref("cardlab-four-colour", four.checked); root.classList.toggle("four-colour", four.checked); });
  const hints = $("pt-hints");
  hints.checked = pref("cardlab-hints");
  hints.addEventListener("change", () => { pref("cardlab-hints", hints.checked); hintsAsked = null; if (state) renderOdds(); });
  const loud = $("pt-sound");
  loud.checked = sound.on = pref("cardlab-sound");
  loud.addEventListener("change", () => { sound.on = pref("cardlab-sound", loud.checked); if (sound.on) sound.click(); });
  connect();
  if ($("chat")) chat(root, hooks);
  if ($("px-bar")) extras(root, hooks);
}

const root = $("pt");
if (root) table(root);
