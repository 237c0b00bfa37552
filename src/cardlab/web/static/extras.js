/* the home game's parts of a table page (see web/table_extras.py): the time bank, the
   timed blinds' clock, avatars, emoji reactions, the HUD, player notes and the coach.
   table.js owns the WebSocket and hands each message to the listeners of its hooks
   first; this module draws on the seats table.js has just drawn. Every text a person
   wrote (a note, a name) is shown with textContent, never as markup. */
import { $, h, showError } from "./dom.js";
import { api } from "./api.js";

const AVATARS = ["initials", "fox", "owl", "cat", "bear", "frog", "panda", "octopus", "penguin", "lion", "whale"];
const REACTIONS = ["👍", "👏", "😂", "😮", "😢", "😡", "🔥", "🤔", "🍀", "🎉"];

// a preference of this browser, kept in localStorage ("1"/"0"; missing: fallback)
function pref(key, value, fallback) {
  try {
    if (value === undefined) {
      const v = localStorage.getItem(key);
      return v === null ? fallback : v === "1";
    }
    localStorage.setItem(key, value ? "1" : "0");
  } catch (e) { /* private mode: for this page only */ }
  return !!value;
}
function stored(key, value) {
  try {
    if (value === undefined) return localStorage.getItem(key);
    localStorage.setItem(key, value);
  } catch (e) { /* private mode */ }
  return value;
}

// a name's key as the server makes it (NFKC, case-folded, no spaces): notes are by it
const nameKey = (name) => name.normalize("NFKC").toLowerCase().replace(/\s+/g, "");
const pct = (r) => (r && r.percent !== null ? `${Math.round(r.percent)}` : "–");

export function extras(root, hooks) {
  const id = root.dataset.table;
  let state = null;
  let coach = null;  // this browser's last "coach" message
  let notes = new Map();  // name key -> {name, note, colour}
  let colours = [""];
  let editing = null;  // the name whose note the form edits
  const shownReactions = new Set();
  let avatarSent = false;
  let own = new Map();  // name key -> figures from this browser's own hand histories
  let ownHands = 0;

  // --- notes (GET/POST /api/notes: this browser's own) ---------------------------
  async function loadNotes() {
    try {
      const got = await api("GET", "/api/notes");
      notes = new Map(got.notes.map((n) => [n.key, n]));
      colours = got.colours;
      const sel = $("px-note-colour");
      sel.textContent = "";
      for (const c of colours) sel.append(h("option", { value: c }, c || "no colour"));
      if (state) decorate();
    } catch (e) { /* notes are optional: the table plays on */ }
  }
  function openNote(name) {
    editing = name;
    const known = notes.get(nameKey(name));
    $("px-note-h").textContent = `Your note on ${name}`;
    $("px-note-text").value = known ? known.note : "";
    $("px-note-colour").value = known ? known.colour : "";
    showError("px-note-error", "");
    $("px-note").hidden = false;
    $("px-note-text").focus();
  }
  $("px-note").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!editing) return;
    try {
      await api("POST", "/api/notes", { name: editing, note: $("px-note-text").value, colour: $("px-note-colour").value });
      $("px-note").hidden = true;
      editing = null;
      await loadNotes();
    } catch (e) { showError("px-note-error", e.message); }
  });
  $("px-note-cancel").addEventListener("click", () => { $("px-note").hidden = true; editing = null; });

  // --- this browser's own hand histories (GET/POST /api/hud/mine) -------------------
  async function loadMine() {
    try {
      const got = await api("GET", "/api/hud/mine");
      own = new Map(Object.entries(got.players));
      ownHands = got.hands;
      $("px-mine-status").textContent = ownHands ? `${ownHands} of your hands kept for the HUD` : "";
      $("px-mine-forget").hidden = !ownHands;
      if (state) decorate();
    } catch (e) { /* optional: the table's own figures still show */ }
  }
  $("px-mine-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    showError("px-mine-error", "");
    $("px-mine-status").textContent = `reading ${file.name}…`;
    try {
      const got = await api("POST", "/api/hud/mine", { text: await file.text(), name: file.name });
      await loadMine();
      const skipped = got.skipped_count ? `; ${got.skipped_count} not read (${got.skipped[0]})` : "";
      $("px-mine-status").textContent = `${got.added} new hands, ${got.already} already kept; ${got.hands} in all${skipped}`;
    } catch (e) { showError("px-mine-error", e.message); $("px-mine-status").textContent = ""; }
    event.target.value = "";
  });
  $("px-mine-forget").addEventListener("click", async () => {
    try { await api("POST", "/api/hud/mine/forget"); await loadMine(); } catch (e) { showError("px-mine-error", e.message); }
  });

  // --- the bar: time bank, reactions, avatar ---------------------------------------
  $("px-bank").addEventListener("click", () => hooks.send({ type: "time_bank" }));
  for (const e of REACTIONS) {
    $("px-react").append(h("button", { type: "button", class: "px-emoji", "data-emoji": e, "aria-label": `react ${e}`, onclick: () => hooks.send({ type: "react", emoji: e }) }, e));
  }
  const avatarSel = $("px-avatar");
  for (const a of AVATARS) avatarSel.append(h("option", { value: a }, a));
  avatarSel.value = stored("cardlab-avatar") || "initials";
  avatarSel.addEventListener("change", () => {
    stored("cardlab-avatar", avatarSel.value);
    hooks.send({ type: "avatar", avatar: avatarSel.value });
  });
  const hudShow = $("px-hud-show");
  hudShow.checked = pref("cardlab-hud", undefined, true);
  hudShow.addEventListener("change", () => { pref("cardlab-hud", hudShow.checked); decorate(); });
  $("px-coach-on").addEventListener("change", (e) => hooks.send({ type: "coach", on: e.target.checked }));

  // --- the host's home-game settings ------------------------------------------------
  $("px-settings").addEventListener("submit", async (event) => {
    event.preventDefault();
    const settings = {};
    if ($("px-set-bank").value !== "") settings.time_bank = Number($("px-set-bank").value);
    if ($("px-set-refill").value !== "") settings.time_bank_refill = Number($("px-set-refill").value);
    if ($("px-set-levels").value.trim() !== "") settings.blind_levels = $("px-set-levels").value.trim();
    if ($("px-set-minutes").value !== "") settings.blind_minutes = Number($("px-set-minutes").value);
    settings.hud = $("px-set-hud").checked;
    try { await api("POST", `/api/tables/${id}/host`, { op: "settings", settings }); showError("pt-error", ""); }
    catch (e) { showError("pt-error", e.message); }
  });

  // --- what the server says ---------------------------------------------------------
  hooks.listeners.push((msg) => {
    if (msg.type === "state") {
      state = msg;
      return false;  // table.js draws it, then calls decorate and render below
    }
    if (msg.type === "coach") { coach = msg; renderCoach(); return true; }
    if (msg.type === "time_bank" || msg.type === "reacted") return true;
    return false;
  });

  hooks.decorate.push(() => { decorate(); react(); });
  hooks.listeners.push((msg) => { if (msg.type === "state") queueMicrotask(render); return false; });

  function render() {
    const s = state;
    if (!s) return;
    const mine = s.you ? s.seats[s.you.seat - 1] : null;
    // the avatar this browser chose, once per connection with a seat
    $("px-avatar-box").hidden = !s.you;
    if (s.you && !avatarSent && mine && (!mine.avatar || mine.avatar.name !== avatarSel.value) && avatarSel.value !== "initials") {
      hooks.send({ type: "avatar", avatar: avatarSel.value });
    }
    avatarSent = !!s.you;
    // the time bank: for the player to act while their clock runs
    const bank = s.time_bank;
    const left = bank && s.you ? bank.seats[s.you.seat - 1] : 0;
    const myClock = s.clock && s.you && s.clock.seat === s.you.seat;
    $("px-bank").hidden = !bank || !s.you || !myClock;
    $("px-bank").disabled = !left;
    if (bank) $("px-bank").textContent = `Time bank +${Math.min(bank.step, left)} s (${left} s left)`;
    // the timed blinds of a cash table
    const bc = s.blind_clock;
    $("px-blinds").hidden = !bc;
    if (bc) $("px-blinds").textContent = `Blinds level ${bc.level}: ${bc.stakes}; next ${bc.next} in ${Math.ceil(bc.next_in / 60)} min`;
    $("px-hud-box").hidden = !s.hud;
    $("px-mine").hidden = !s.hud;
    $("px-coach-box").hidden = !s.you || s.table.closed || !(s.table.practice || s.seats.every((p) => p.kind !== "human" || p.you));
    if (s.host) {
      const c = s.table.config;
      if (document.activeElement !== $("px-set-hud")) $("px-set-hud").checked = !!c.hud;
      $("px-set-levels-box").hidden = $("px-set-minutes-box").hidden = !!s.table.tournament;
    }
  }

  // avatars, note tags and the HUD on the seats table.js drew
  function decorate() {
    const s = state;
    if (!s) return;
    for (const p of s.seats) {
      const seat = document.querySelector(`#pt-seats .pt-seat[data-seat="${p.seat}"]`);
      if (!seat || p.kind === "open") continue;
      const plate = seat.querySelector(".pt-plate");
      if (!plate) continue;
      plate.querySelectorAll(".px-avatar, .px-hud, .px-note-btn").forEach((e) => e.remove());
      const a = p.avatar;
      if (a) {
        const face = a.kind === "initials" ? a.text : a.emoji;
        plate.prepend(h("span", { class: `px-avatar px-${a.kind}`, "data-avatar": a.name || a.kind, "aria-hidden": "true" }, face));
      }
      const known = notes.get(nameKey(p.name));
      seat.dataset.tag = known && known.colour ? known.colour : "";
      seat.title = known && known.note ? `Your note: ${known.note}` : "";
      if (p.kind === "human" && !p.you) {
        plate.append(h("button", { type: "button", class: "px-note-btn", "data-note": p.seat, "aria-label": `note on ${p.name}`, onclick: () => openNote(p.name) }, known && known.note ? "✎•" : "✎"));
      }
      const hud = s.hud && s.hud.seats[p.seat - 1];
      if (hud && $("px-hud-show").checked) {
        const af = hud.aggression === null ? "–" : hud.aggression.toFixed(1);
        plate.append(h("div", { class: "px-hud", "data-hud": p.seat, title: "hands · VPIP/PFR/3-bet % · aggression factor · went to showdown % (this table)" },
          h("span", {}, `${hud.hands}h ${pct(hud.vpip)}/${pct(hud.pfr)}/${pct(hud.three_bet)}`), " ",
          h("span", {}, `AF ${af} SD ${pct(hud.went_to_showdown)}`)));
      }
      const yours = s.hud && !p.you ? own.get(nameKey(p.name)) : null;
      if (yours && $("px-hud-show").checked) {
        const af = yours.aggression === null ? "–" : yours.aggression.toFixed(1);
        plate.append(h("div", { class: "px-hud px-hud-mine", "data-hud-mine": p.seat, title: "from your own hand histories: hands · VPIP/PFR/3-bet % · aggression factor · went to showdown %" },
          h("span", {}, `yours ${yours.hands}h ${pct(yours.vpip)}/${pct(yours.pfr)}/${pct(yours.three_bet)}`), " ",
          h("span", {}, `AF ${af} SD ${pct(yours.went_to_showdown)}`)));
      }
    }
  }

  // a bubble over the seat (or the spectators' corner) for each reaction not yet shown
  function react() {
    for (const r of state.reactions || []) {
      if (shownReactions.has(r.id)) continue;
      shownReactions.add(r.id);
      const seat = r.seat ? document.querySelector(`#pt-seats .pt-seat[data-seat="${r.seat}"]`) : $("pt-felt");
      if (!seat) continue;
      const bubble = h("span", { class: "px-bubble" + (r.seat ? "" : " px-spectator"), "data-reaction": r.id, title: r.name }, r.emoji);
      seat.append(bubble);
      setTimeout(() => bubble.remove(), 3500);
    }
  }

  function renderCoach() {
    const c = coach;
    $("px-coach-on").checked = !!c.on;
    $("px-coach").hidden = !c.on;
    if (!c.on) return;
    const m = c.summary;
    $("px-coach-summary").textContent = (c.note ? c.note + ". " : "") +
      `${m.hands} hands reviewed, ${m.decisions} push/fold decisions, ${m.mistakes} lost EV: ` +
      `${m.ev_lost_bb.toFixed(2)} big blinds in all` + (m.ev_lost_per_decision_bb === null ? "." : ` (${m.ev_lost_per_decision_bb.toFixed(3)} a decision).`);
    const list = $("px-coach-reviews");
    list.textContent = "";
    const rv = m.river;
    if (rv && rv.decisions) {
      $("px-coach-summary").textContent += ` River: ${rv.decisions} decisions, ${rv.mistakes} lost EV: ${rv.ev_lost_bb.toFixed(2)} big blinds.`;
    }
    const pct = (x) => `${Math.round(x * 100)}%`;
    for (const r of [...c.reviews].reverse()) {
      if (r.river) {  // shown above the hand's push/fold lines (the list is newest first)
        for (const d of [...r.river.decisions].reverse()) {
          const lost = d.ev_lost > Math.max(0.01, r.river.precision_bb);
          const mix = Object.entries(d.strategy).filter(([, f]) => f >= 0.005).map(([a, f]) => `${a} ${pct(f)}`).join(", ");
          list.append(h("li", { "data-lost": lost ? "1" : "0", class: "px-coach-river" },
            `Hand ${r.hand}, river ${r.river.board}, ${r.river.position}, ${d.line ? `after ${d.line}` : "first to act"}, ${d.hand}: you played ${d.played}; ` +
            `the solver plays ${mix} — ` + (lost ? `lost ${d.ev_lost.toFixed(3)} bb (${d.best} was worth more)` : "right") +
            ` (${r.river.assuming})`));
        }
      }
      if (!r.decisions.length) { list.append(h("li", { class: "note" }, `Hand ${r.hand}: ${r.note}`)); continue; }
      for (const d of r.decisions) {
        const verdict = d.ev_lost > 0.005 ? `lost ${d.ev_lost.toFixed(3)} bb (${d.best} was worth more)` : "right";
        list.append(h("li", { "data-lost": d.ev_lost > 0.005 ? "1" : "0" },
          `Hand ${r.hand}, ${d.role}, ${d.stack_bb} bb, ${d.class}: you ${d.played === "push" ? "pushed" : d.played === "call" ? "called" : "folded"}; ` +
          `equilibrium ${d.role === "small blind" ? "pushes" : "calls"} ${Math.round(d.equilibrium * 100)}% — ${verdict}`));
      }
    }
  }

  loadNotes();
  loadMine();
}
