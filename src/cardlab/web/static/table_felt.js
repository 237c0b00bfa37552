// The felt of a table's page drawn from the state it is given (web/table_payload.py):
// the seats around the oval, each bet and the dealer button, the board(s), the pots
// and the result. Each function takes state and returns elements, touching nothing on
// the page; table.js puts them in place and table_layout.js places them on the oval.
import { h } from "./dom.js";
import { card as drawCard } from "./cards.js";

// a card on the felt: a big one shows its suit's pip as well
export const card = (c, opts) => drawCard(c, { pip: true, ...opts });

export const isStud = (s) => s.table.base === "stud";  // razz and stud8 too
// the hand on the table, the same key once it is over (null: none yet)
export const handKey = (s) => (s.hand ? String(s.table.hand_number) : null);
export const betweenHands = (s) => !s.hand || s.hand.over;

// name -> chips won, of the last hand, while it is still the one on the table
export function winners(s) {
  const out = new Map();
  if (!s.last || !betweenHands(s)) return out;
  for (const p of s.last.pots) {
    const share = p.winners.length ? Math.floor(p.amount / p.winners.length) : 0;
    for (const w of p.winners) out.set(w, (out.get(w) || 0) + share);
  }
  return out;
}

// the angle of seat index i on the oval when the viewer sits at index base (bottom centre)
export const seatAngle = (i, base, n) => Math.PI / 2 + (((i - base + n) % n) * 2 * Math.PI) / n;

// The badges under a seat's name, as [class, text] (a pure list: the page draws them).
export function badges(p, s, won) {
  const folded = !!(s.hand && p.cards.length && !p.in_hand);
  const out = [];
  if (p.actor) out.push(["badge act", "to act"]);
  if (won.has(p.name)) out.push(["badge win", `wins ${won.get(p.name)}`]);
  if (p.all_in) out.push(["badge", "all-in"]);
  if (folded && !s.hand.over) out.push(["badge", "folded"]);
  if (p.sitting_out) out.push(["badge", "sitting out"]);
  else if (p.waiting) out.push(["badge", s.table.config.new_players === "post" ? "posts to come in" : "waits for the big blind"]);
  if (p.leaving) out.push(["badge", "leaving"]);
  if (s.hand && !s.hand.over && s.hand.straddle_seat === p.seat) out.push(["badge straddle", "straddle"]);
  if (p.owes && p.owes.length && (p.sitting_out || p.waiting)) out.push(["badge", `missed ${p.owes.join(" and ")} blind`]);
  if (p.kind === "bot") out.push(["badge bot", "bot"]);
  if (p.kind === "human" && !p.connected && !p.you) out.push(["badge", "away"]);
  return out;
}

// One seat: its cards (``fresh(id)`` says whether a card is new on screen, to deal it
// in), its plate (name, stack, badges, the clock of the seat to act). ``base``: the
// viewer's seat index, at the bottom.
export function seat(p, s, { won, base, fresh }) {
  const n = s.seats.length;
  const folded = s.hand && p.cards.length && !p.in_hand;
  const cls = ["pt-seat"];
  if (p.actor) cls.push("actor");
  if (p.you) cls.push("you");
  if (folded || p.kind === "open" || p.sitting_out) cls.push("out");
  if (p.kind === "open") cls.push("open");
  if (won.has(p.name)) cls.push("winner");
  const shown = folded && !p.you ? [] : p.cards;  // the others' folded cards are mucked
  const row = h("div", { class: "pt-cards" });
  row.style.setProperty("--n", String(shown.length));
  row.style.setProperty("--n1", String(Math.max(1, shown.length - 1)));
  const stud = isStud(s);
  shown.forEach((c, k) => {
    const showUp = stud && c !== "??";
    row.append(card(c, { small: true, up: showUp && p.up[k], down: showUp && !p.up[k], dealt: fresh(`${p.seat}:${k}:${c}`) }));
  });
  const meta = p.kind === "open"
    ? h("div", { class: "meta" }, "open seat")
    : h("div", { class: "meta" }, h("span", { class: "lbl" }, "stack "), h("span", { class: "stk" }, String(p.stack)));
  const plate = h("div", { class: "pt-plate" }, h("div", { class: "nm", title: p.name }, h("span", { class: "no" }, `${p.seat}. `), p.name), meta,
    h("div", { class: "pt-badges" }, badges(p, s, won).map(([c, t]) => h("span", { class: c }, t))));
  if (s.clock && s.clock.seat === p.seat) plate.append(h("div", { class: "pt-seat-clock", role: "timer" }, h("i")));
  const angle = seatAngle(p.seat - 1, base, n);
  return h("div", { class: cls.join(" "), "data-seat": p.seat, "data-angle": angle.toFixed(5) }, row, plate);
}

// A seat's bet in front of it (``grew``: it went up since the last state) and the button.
export const bet = (p, grew) => h("div", { class: "pt-bet" + (grew ? " moved" : ""), "data-seat": p.seat, "data-amount": p.bet, "aria-label": `${p.name} bets ${p.bet}` },
  h("span", { class: "pt-chip", "aria-hidden": "true" }), h("span", {}, String(p.bet)));
export const dealerButton = (p) => h("div", { class: "pt-dealer", "data-seat": p.seat, title: "dealer button" }, "D");

// A board's cards; ``prefix`` keys them for ``fresh`` (b: the board, b2: the second).
export const board = (cards, prefix, fresh) => cards.map((c, k) => card(c, { dealt: fresh(`${prefix}:${k}:${c}`) }));

// The pots of a hand in play (and the total when bets are not in them yet).
export function pots(hand) {
  if (!hand || hand.over) return [];
  const out = hand.pots.map((p, i) => (p.amount > 0 || i === 0
    ? h("span", { class: "pt-pot" }, h("span", { class: "pt-chip", "aria-hidden": "true" }), h("span", {}, `${i ? "side pot " + i : "pot"} ${p.amount}`))
    : null)).filter(Boolean);
  const inPots = hand.pots.reduce((a, p) => a + p.amount, 0);
  if (hand.total_pot !== inPots) out.push(h("span", { class: "pt-total" }, `total pot ${hand.total_pot}`));
  return out;
}

// Who won the last hand, while it is on the table; the sit-and-go's champion.
export function result(s) {
  const out = [];
  if (s.last && betweenHands(s)) {
    for (const p of s.last.pots) {
      const who = p.winners.length > 1 ? `${p.winners.join(" and ")} split` : `${p.winners[0] || "nobody"} wins`;
      out.push(h("div", {}, `${who} ${p.amount}` + (s.last.pots.length > 1 ? ` (${p.name})` : "")));
    }
  }
  if (s.tournament && s.tournament.over && s.tournament.winner) out.push(h("div", { class: "pt-champion" }, `${s.tournament.winner} wins the tournament`));
  return out;
}

// The whole felt: {seats, bets, board, board2, pots, result} of the state ``s``;
// ``prev`` is what the last state showed (table.js's remember), ``fresh`` as above.
export function felt(s, { prev, fresh }) {
  const won = winners(s);
  const base = s.you ? s.you.seat - 1 : 0;  // the viewer sits at the bottom centre
  const key = handKey(s);
  const bets = [];
  for (const p of s.seats) {
    if (p.bet > 0) bets.push(bet(p, !!(prev && prev.hand === key && (prev.bets[p.seat] || 0) < p.bet)));
    if (p.button && !isStud(s)) bets.push(dealerButton(p));
  }
  return {
    seats: s.seats.map((p) => seat(p, s, { won, base, fresh })),
    bets,
    board: s.hand ? board(s.hand.board, "b", fresh) : [],
    board2: s.hand && s.hand.boards ? board(s.hand.boards[1], "b2", fresh) : [],  // a double-board bomb pot
    pots: pots(s.hand),
    result: result(s),
  };
}
