// The Mixwell hands page (/hands): evaluate and compare five-card hands.
import { $, h, put, ja, toast, params } from "./dom.js";
import { call } from "./api.js";
import { card } from "./cards.js";


function handBox(value, opts) {
  const o = opts || {};
  const sec = value.secondary
    ? h("div", { class: "sec" }, "Secondary: ", value.secondary.en, " ", ja(value.secondary.ja))
    : h("div", { class: "sec" }, "No secondary hand");
  return h("div", { class: "hand-box" + (o.winner ? " winner" : "") },
    o.label ? h("div", { class: "note" }, o.label) : null,
    h("div", { class: "cat" }, value.category.en, ja(value.category.ja),
      o.winner ? h("span", { class: "badge" }, "wins") : null),
    sec,
    h("div", { class: "row-cards", style: "margin:.4rem 0" }, value.cards.map((c) => card(c, { small: true }))),
    h("div", { class: "desc" }, value.description),
    h("div", { class: "desc", lang: "ja" }, value.description_ja));
}

function hands() {
  let decks = [];
  const deckSel = $("h-deck");
  const input = $("h-cards");

  function currentDeck() { return decks.find((d) => d.name === deckSel.value); }

  function chosen() { return input.value.split(/[\s,]+/).filter(Boolean); }

  function drawPicker() {
    const deck = currentDeck();
    if (!deck) return;
    $("h-deck-info").textContent = `${deck.size} cards — ${deck.description}`;
    const picked = new Set(chosen());
    const cols = Math.max(...deck.rows.map((row) => row.cards.length));
    const rows = deck.rows.map((row) => h("div", { class: "prow", style: `--cols:${cols}`, role: "group", "aria-label": row.name },
      h("span", { class: `plabel suit-${row.suit}`, title: row.name, lang: "ja" }, row.symbol),
      row.cards.map((c) => {
        if (!c) return h("span", { class: "pcard none", "aria-hidden": "true" }, "·");
        const on = picked.has(c.text) || picked.has(c.ascii);
        return h("button", {
          type: "button", class: `pcard suit-${c.suit}${on ? " chosen" : ""}`, title: `${c.text} (${c.ascii})`,
          "aria-label": c.name || c.text, "aria-pressed": on ? "true" : "false",
          onclick: () => toggle(c),
        }, c.text === "太極" ? ja(c.text, "") : c.rank === "T" ? "10" : c.rank);
      })));
    const focused = document.activeElement && document.activeElement.classList.contains("pcard")
      ? document.activeElement.getAttribute("aria-label") : null;
    put($("h-picker"), rows);
    if (focused) {  // redrawing must not lose the keyboard's place
      const again = [...document.querySelectorAll("#h-picker .pcard")].find((b) => b.getAttribute("aria-label") === focused);
      if (again) again.focus();
    }
  }

  function toggle(card) {
    let cards = chosen();
    if (cards.includes(card.text) || cards.includes(card.ascii)) {
      cards = cards.filter((x) => x !== card.text && x !== card.ascii);
    } else {
      if (cards.length >= 5) { toast("a hand is five cards: remove one first"); return; }
      cards.push(card.text);
    }
    input.value = cards.join(" ");
    drawPicker();
    if (cards.length === 5) evaluate();
  }

  // A failed request leaves no stale result behind: the message takes its place.
  function failed(where, e) { put($(where), h("p", { class: "error", role: "alert" }, e.message || "failed")); }

  async function evaluate() {
    put($("h-result"), h("p", { class: "spinner" }, "evaluating…"));
    let value;
    try {
      value = await call("POST", "/api/hands/evaluate", { deck: deckSel.value, cards: input.value });
    } catch (e) { failed("h-result", e); return; }
    put($("h-result"), handBox(value));
  }

  async function compare() {
    const lines = $("h-compare-input").value.split("\n").map((x) => x.trim()).filter(Boolean);
    put($("h-compare-result"), h("p", { class: "spinner" }, "comparing…"));
    let data;
    try {
      data = await call("POST", "/api/hands/compare", { deck: deckSel.value, hands: lines });
    } catch (e) { failed("h-compare-result", e); return; }
    const who = data.winners.map((w, i) => `${i ? "hand" : "Hand"} ${w}`).join(" and ");
    const verdict = data.decided_by === "tie"
      ? `${who} tie and split the pot.`
      : `${who} wins, decided by ${data.decided_by_text}.`;
    put($("h-compare-result"), h("div", { class: "verdict" }, verdict),
      ...data.hands.map((v, i) => handBox(v, { label: `Hand ${i + 1}`, winner: data.winners.includes(i + 1) })));
  }

  async function loadTable() {
    $("h-table-deck").textContent = deckSel.value;
    put($("h-table"), h("p", { class: "spinner" }, "counting…"));
    let data;
    try {
      data = await call("GET", `/api/hands/table?deck=${encodeURIComponent(deckSel.value)}`);
    } catch (e) { failed("h-table", e); return; }
    const head = h("tr", {}, ["Order", "Hand", "Count", "Probability", "%", "Rarity"].map((x) => h("th", { class: x === "Hand" ? "name" : null }, x)));
    const rows = data.rows.map((r) => h("tr", {},
      h("td", {}, r.order), h("td", { class: "name" }, r.en, ja(r.ja)),
      h("td", {}, r.count.toLocaleString("en")), h("td", {}, r.fraction), h("td", {}, r.percent),
      h("td", {}, r.rarity.toFixed(4))));
    const total = h("tr", { class: "overall" }, h("td", {}), h("td", { class: "name" }, "all five-card hands"),
      h("td", {}, data.combinations.toLocaleString("en")), h("td", {}, "1"), h("td", {}, "100%"), h("td", {}));
    put($("h-table"), h("p", { class: "note" }, data.rules),
      h("table", {}, h("thead", {}, head), h("tbody", {}, rows, total)));
  }

  const examples = {
    FESCA78: ["木7 火7 土7 金2 水9", "木8 火8 土8 金2 水9", "木1 木3 木5 木9 木11"],
    standard52: ["As Ah Kd Kc 2s", "Qs Qh Qd 3c 4s", "Ts Js Qs Ks As"],
  };

  function loadExamples() {
    const ex = examples[deckSel.value];
    if (ex) {
      input.value = ex[0];
      $("h-compare-input").value = ex.join("\n");
    } else {
      input.value = "";
      $("h-compare-input").value = "";
    }
  }

  deckSel.addEventListener("change", () => {
    loadExamples(); drawPicker(); loadTable();
    $("h-result").replaceChildren(); $("h-compare-result").replaceChildren();
    if (input.value) { evaluate(); compare(); }
  });
  input.addEventListener("input", () => { drawPicker(); $("h-result").replaceChildren(); });
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") evaluate(); });
  $("h-eval").addEventListener("click", evaluate);
  $("h-clear").addEventListener("click", () => { input.value = ""; drawPicker(); $("h-result").replaceChildren(); });
  $("h-add").addEventListener("click", () => {
    const box = $("h-compare-input");
    box.value = (box.value.trim() ? box.value.trim() + "\n" : "") + input.value.trim();
  });
  $("h-compare").addEventListener("click", compare);

  call("GET", "/api/decks").then((data) => {
    decks = data.decks;
    const wanted = decks.find((d) => d.name.toLowerCase() === (params.get("deck") || "").toLowerCase());
    if (wanted) deckSel.value = wanted.name;
    loadExamples(); drawPicker(); loadTable();
    if (input.value) { evaluate(); compare(); }
  });
}

hands();
