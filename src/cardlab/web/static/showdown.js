// The showdown page (/showdown): a deal, its equity street by street, the showdown.
import { $, h, put, ja, toast, params } from "./dom.js";
import { call } from "./api.js";
import { card, back } from "./cards.js";


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
      deal = await call("POST", url, body);
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
      const cards = player ? player.hole.map((c) => card(c, { small: true }))
        : Array.from({ length: deal.hole.length }, () => back({ small: true, label: `opponent ${i}: a face-down card` }));
      opps.push(h("div", { class: "opp" }, h("div", { class: "label" }, `Opponent ${i}`, winners.includes(i + 1) ? h("span", { class: "badge" }, "wins") : null),
        h("div", { class: "row-cards" }, cards)));
    }
    put($("s-opps"), opps);
    const board = deal.board.map((c) => card(c));
    while (board.length < 5) board.push(h("span", { class: "card empty", role: "img", "aria-label": "not dealt yet" }));
    put($("s-board"), board);
    put($("s-hole"), deal.hole.map((c) => card(c)));
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
          h("div", { class: "row-cards", style: "margin:.4rem 0" }, p.best_five.map((c) => card(c, { small: true }))),
          h("div", { class: "desc" }, p.value.description)))),
        h("div", { class: "input-row" }, h("button", { class: "primary", onclick: newDeal }, "New deal")));
    }
  }

  $("s-new").addEventListener("click", newDeal);
  $("s-next").addEventListener("click", next);
  gameSel.addEventListener("change", fillOpponents);
  call("GET", "/api/games").then((data) => {
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

showdownPage();
