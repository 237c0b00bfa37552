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
      h("td", {}, r.place == null ? "" : String(r.place)),
      h("td", {}, r.name),
      h("td", {}, r.chips == null ? "" : String(r.chips)),
      h("td", {}, r.prize ? String(r.prize) : ""),
      h("td", {}, r.out_hand == null ? "" : `hand ${r.out_hand}`)))));
}
