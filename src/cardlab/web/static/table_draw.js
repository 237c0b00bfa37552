// The table page's panels drawn from the state they are given: each function takes a
// piece of the table's state (as the server sends it, web/table_payload.py) and returns
// elements, touching nothing on the page; table.js puts them in place.
import { h } from "./dom.js";

const signed = (n) => (n > 0 ? "+" : "") + n;
const row = (cells) => h("tr", {}, cells.map((c) => h("td", {}, c)));
const head = (names) => h("thead", {}, h("tr", {}, names.map((x) => h("th", {}, x))));

// The last hand: its pots and who won them why, the hands shown, a board run more than
// once (each run's board), the rabbit (or ``rabbit()``'s button to ask for it, when
// given), each player's result, and the link to its replay (as this browser may see it,
// web/replay.py).
export function lastHand(last, rabbit = null) {
  const potRows = last.pots.map((p) => h("tr", {}, h("td", {}, `${p.name} ${p.amount}`), h("td", {}, p.winners.join(", ")),
    h("td", { title: `decided by: ${p.decided_by}`, "data-decided-by": p.decided_by }, p.why || p.decided_by,
      p.decided_by === "suits" ? h("a", { href: "/rules" }, " (rules)") : null)));
  return [
    h("h2", {}, `Hand ${last.hand}` + ((last.boards || []).length > 1 ? `: boards ${last.boards.join(" and ")}`
      : last.board ? `: board ${last.board}` : "")),
    h("table", { id: "pt-last-pots" }, head(["Pot", "Won by", "Why"]), h("tbody", {}, potRows)),
    last.hands.length
      ? h("table", { id: "pt-last-hands" }, head(["Player", "Cards", "Best five"]),
        h("tbody", {}, last.hands.map((x) => row([x.name, x.cards, x.description]))))
      : null,
    ...(last.runs || []).map((b, k) => h("p", { class: "pt-run", "data-run": k + 1 }, `Run ${k + 1}: ${b}`)),
    last.rabbit ? h("p", { id: "pt-rabbit-cards", class: "pt-rabbit" }, `The rabbit (not part of the hand): ${
      (last.rabbit_boards || []).length ? last.rabbit_boards.map((b, k) => `board ${k + 1}: ${b}`).join(" · ") : last.rabbit}`)
      : last.rabbit_due && rabbit ? h("p", {}, h("button", { type: "button", id: "pt-rabbit", onclick: rabbit }, "Show the cards that would have come"))
        : null,
    h("p", { class: "note" }, last.results.map((r) => `${r.name} ${r.won > 0 ? "+" : ""}${r.won}`).join(" · ")),
    last.replay ? h("p", {}, h("a", { id: "pt-last-replay", href: last.replay }, `Replay hand ${last.hand}`)) : null,
  ];
}

// The ledger (GET /api/tables/ID/ledger): {head: its five column names, rows, check: the
// line under it}. A sit-and-go settles by its prizes, not by its chips.
export function ledger(l) {
  const t = l.tournament;
  if (t) {
    return {
      head: ["Player", "Place", "Buy-in", "Prize", "Net"],
      rows: t.players.map((p) => row([p.player, p.place == null ? "playing" : String(p.place), String(p.buy_in), String(p.prize), signed(p.net)])),
      check: t.started ? `Prizes: ${t.prizes.join(" · ") || "none"} (buy-in ${t.buy_in} each).`
        : `Buy-in ${t.buy_in} each; the prizes are set when the first hand is dealt.`,
    };
  }
  return {
    head: ["Player", "In", "Out", "Table", "Net"],
    rows: l.players.map((p) => row([p.player, String(p.bought), String(p.cashed), String(p.on_table), signed(p.net)])),
    check: `${l.chips_brought} chips brought, ${l.chips_taken} taken away, ${l.chips_on_table} on the table` +
      (l.balanced ? ": it balances." : ": it does not balance!"),
  };
}

// A sit-and-go's standings table.
export function standings(rows) {
  return h("table", { id: "pt-standings", class: "pt-standings" }, head(["Place", "Player", "Chips", "Prize", "Out"]),
    h("tbody", {}, rows.map((r) => h("tr", { class: r.out_hand == null ? "in" : "out" },
      h("td", {}, r.place == null ? "" : `${r.place}${r.tied > 1 ? " (tied)" : ""}`),
      h("td", {}, r.name),
      h("td", {}, r.chips == null ? "" : String(r.chips)),
      h("td", {}, r.prize ? String(r.prize) : ""),
      h("td", {}, r.out_hand == null ? "" : `hand ${r.out_hand}`)))));
}

// The host's rows of seats: an open seat offers a bot (``bots``: the names the server
// plays), a taken one Remove and, for another person, Make host, each asking first.
// ``host(body)`` sends the host's request; ``sure(question)`` asks (window.confirm).
export function hostSeats(seats, bots, host, sure = (q) => window.confirm(q)) {
  return seats.map((p) => {
    const cells = [h("td", {}, `${p.seat}. ${p.name}`)];
    if (p.kind === "open") {
      const sel = h("select", { "aria-label": `bot for seat ${p.seat}` }, bots.map((b) => h("option", { value: b }, b + " bot")));
      if (bots.includes("station")) sel.value = "station";  // the usual opponent, chosen first
      cells.push(h("td", {}, sel, h("button", { type: "button", onclick: () => host({ op: "add_bot", seat: p.seat, bot: sel.value }) }, "Seat a bot")));
    } else {
      const asking = (question, body) => () => { if (sure(question)) host(body); };
      cells.push(h("td", {},
        h("button", { type: "button", "data-remove": p.seat, onclick: asking(`Remove ${p.name} from seat ${p.seat}? Their chips go to the ledger.`, { op: "remove", seat: p.seat }) }, "Remove"),
        p.kind === "human" && !p.you
          ? h("button", { type: "button", "data-transfer": p.seat, onclick: asking(`Make ${p.name} the host? You lose the host's controls.`, { op: "transfer", seat: p.seat }) }, "Make host")
          : null));
    }
    return h("tr", {}, cells);
  });
}

// The seat requests waiting for the host (approve_seats), each with Approve and Refuse.
export const seatRequests = (requests, host) => requests.map((q) => h("li", { "data-request": q.request },
  h("span", {}, q.name + (q.seat ? ` (seat ${q.seat})` : "") + " "),
  h("button", { type: "button", class: "primary", onclick: () => host({ op: "approve", request: q.request }) }, "Approve"),
  h("button", { type: "button", onclick: () => host({ op: "refuse", request: q.request }) }, "Refuse")));

// The home-game rules in force and what they do to this hand, as one line (docs/home-games.md).
export function houseLine(s) {
  const r = s.table.house || {};
  const words = [];
  if (r.straddle && r.straddle !== "off") words.push({ utg: "UTG straddle", button: "button straddle", mississippi: "Mississippi straddle" }[r.straddle]);
  if (r.bomb_pot_every) words.push(`bomb pot every ${r.bomb_pot_every} hands` + (r.bomb_pot_boards === 2 ? " (two boards)" : ""));
  else if (r.bomb_pot_boards === 2) words.push("bomb pots on two boards");
  if (r.seven_deuce) words.push(`seven-deuce ${r.seven_deuce} (${(r.seven_deuce_ranks || ["7", "2"]).join("-")})`);
  if (r.dead_button) words.push("dead button");
  const live = s.hand && !s.hand.over;
  if (live && s.hand.bomb_pot) words.push("this hand is a bomb pot");
  else if (r.bomb_next) words.push("the next hand is a bomb pot");
  if (live && s.hand.straddle_seat) words.push(`seat ${s.hand.straddle_seat} straddles`);
  return words.join(" · ");
}

// The server seeds revealed so far, each with its commitment.
export const revealed = (list) => list.map((r) => h("li", {}, "revealed: ", h("code", { class: "pt-hex" }, r.server_seed),
  " (commitment ", h("code", { class: "pt-hex" }, r.commitment.slice(0, 16) + "…"), ")"));

const pct = (x) => `${(100 * x).toFixed(1)}%`;

// The exact all-in odds (everyone's, street by street and run by run) and the viewer's
// hint, when the state has them.
export function odds(s) {
  const out = [];
  if (s.odds && s.odds.length) {
    const several = s.odds.some((x) => x.run > 1);
    const two = s.odds.some((x) => x.on > 1);  // a double board: each board's own odds
    const rows = s.odds.map((o) => h("tr", { "data-run": o.run, "data-on": o.on, "data-board": o.board },
      h("td", {}, (several ? `run ${o.run}: ` : "") + (two ? `board ${o.on}: ` : "") + (o.board || "before the flop")),
      h("td", {}, o.hands.map((x) => `${x.cards} ${pct(x.equity)}` + (x.tie > 0 ? ` (tie ${pct(x.tie)})` : "")).join(" · "))));
    out.push(h("h2", {}, "All-in odds (exact)"),
      h("table", { id: "pt-odds-table" }, head(["Board", "Each hand's share"]), h("tbody", {}, rows)));
  }
  if (s.hints_on && s.hint) out.push(h("p", { id: "pt-hint", class: "pt-hint" }, hintText(s.hint)));
  return out;
}

// A learner's hint in words (table/odds.py StrengthHint): the best hand and the exact
// equity against a random hand or the range the viewer chose (``x.against``); on a
// double board each board's, then the share of the pot the two boards split.
export function hintText(x) {
  const tooMany = "too many deals to count exactly now";
  const vs = !x.against || x.against === "random" ? "a random hand" : x.against;
  const none = x.range_empty ? `no hand of ${vs} is left` : null;
  if (x.boards && x.boards.length) {
    const each = x.boards.map((b) => `Board ${b.on}: ${b.hand ? `you have ${b.hand}, ` : ""}`
      + `equity ${b.equity == null ? none || tooMany : pct(b.equity)}.`);
    const share = x.equity == null ? none || tooMany : `${pct(x.equity)} against ${vs} (exact; half the pot on each board)`;
    return `${each.join(" ")} Your share of the pot: ${share}.`;
  }
  const words = x.hand ? `You have ${x.hand}. ` : "";
  const eq = x.equity == null ? none || tooMany : `${pct(x.equity)} against ${vs} (exact)`;
  return `${words}Your equity: ${eq}.`;
}

// The hint field's placeholder: a random hand, or an example range in the deck's own
// notation (web/table_odds.hint_range); null: the game takes no range (not Hold'em).
export function rangeExample(game) {
  if (!/-holdem$/.test(game || "")) return null;
  return /^(fesca|tesca)/i.test(game) ? "random, or Z-Z" : "random, or QQ+,AKs";
}

// A sit-and-go (``t``: the state's tournament): {nodes, facts: its list of facts (a
// table of a multi-table tournament adds its own), when: the element counting down to
// the next level by the clock, seconds: how long (null: counted in hands, or none)}.
export function tournament(t) {
  const nodes = [];
  if (t.over) nodes.push(h("p", { id: "pt-tournament-winner", class: "pt-tournament-winner" }, `${t.winner} wins`));
  const facts = h("dl", { class: "pt-tournament-facts" });
  const fact = (name, ...value) => facts.append(h("div", {}, h("dt", {}, name), h("dd", {}, ...value)));
  if (t.level != null) fact("Level", t.levels != null ? `${t.level} of ${t.levels}` : String(t.level));
  if (t.stakes) fact("Stakes", String(t.stakes));
  let when = null;
  let seconds = null;
  if (t.next && !t.over) {
    when = h("span", { id: "pt-tournament-next-in" });
    fact("Next level", `${t.next} `, when);
    const next = t.next_in || {};
    if (next.hands != null) when.textContent = `in ${next.hands} hand${next.hands === 1 ? "" : "s"}`;
    else if (next.seconds != null) seconds = next.seconds;
  }
  if (t.players_left != null) fact("Players left", `${t.players_left} of ${t.entrants}`);
  if (t.prizes && t.prizes.some((x) => x > 0)) fact("Prizes", t.prizes.join(" · "));
  if (t.started === false) nodes.push(h("p", { class: "note" }, "Not started yet: the levels count from the first hand."));
  return { nodes, facts, when, seconds };
}

// The mm:ss left of ``seconds`` counted from ``start`` (performance.now()) at ``now``.
export function countdown(start, seconds, now) {
  const left = Math.max(0, Math.round((start + seconds * 1000 - now) / 1000));
  return `in ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

// The rows of the fair-dealing check of a table's hands (fair.js's verifyText results,
// parsePhhs's hands, in the same order): each hand's verdict, and for a hand this
// browser was dealt into (its own hole cards are written out, the others' are ??)
// whether its client seed (``seeds``: deal -> seed, kept in this browser) is in it.
export function verifyRows(results, hands, seeds) {
  if (!results.length) return [h("tr", {}, h("td", { colspan: "3" }, "No finished hands yet."))];
  return results.map((r, i) => {
    let detail = r.detail;
    const fields = hands[i] ? hands[i].fields : {};
    const mine = seeds[r.deal];
    const dealtIn = Array.isArray(fields.actions) && fields.actions.some((a) => /^d dh p\d+ /.test(a) && !a.includes("?"));
    if (mine && dealtIn && Array.isArray(fields._client_seeds)) {
      detail += fields._client_seeds.includes(mine) ? " · your client seed is in it" : " · YOUR CLIENT SEED IS MISSING";
    }
    return h("tr", { "data-status": r.status, "data-deal": r.deal === null ? "" : String(r.deal) }, h("td", {}, String(fields.hand ?? r.hand)), h("td", {}, r.status), h("td", {}, detail));
  });
}
