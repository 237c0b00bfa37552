// The rules page (/rules): a deck's suits, straights, hands and tie-breaks.
import { $, h, put, ja, toast, params } from "./dom.js";
import { call } from "./api.js";
import { card } from "./cards.js";


function rulesPage() {
  const deckSel = $("r-deck");
  const cards = (list) => h("div", { class: "row-cards" }, list.map((c) => card(c, { small: true })));

  async function load() {
    let data;
    put($("r-hands"), h("p", { class: "spinner" }, "counting…"));
    try {
      data = await call("GET", `/api/rules?deck=${encodeURIComponent(deckSel.value)}`);
    } catch (e) {
      put($("r-hands"), h("p", { class: "error", role: "alert" }, e.message || "failed"));
      return;
    }
    const url = new URL(window.location.href);
    url.searchParams.set("deck", data.deck);
    window.history.replaceState(null, "", url);
    $("r-deck-info").textContent = `${data.size} cards — ${data.description}`;

    put($("r-suits"), h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, "Suit"), h("th", {}, "Name"), h("th", {}, "ASCII"), h("th", {}, "Role"), h("th", {}, "Cards"))),
      h("tbody", {}, data.suits.map((x) => h("tr", {},
        h("td", { class: `suit-${x.key}` }, ja(x.symbol, "")), h("td", {}, x.name), h("td", {}, x.key),
        h("td", {}, x.role), h("td", {}, x.cards)))),
      h("caption", { class: "note" }, `ranks: ${data.ranks.join(" ")}`)));

    $("r-wrap").textContent = `${data.deck}: ${data.straights.length} straights; its ranks are ${data.wrap_text}.`;
    put($("r-straights"), data.straights.map((x, i) => h("div", { class: "straight" },
      h("span", { class: "note" }, `${i + 1}.`), cards(x.cards), h("span", { class: "desc" }, x.description))));

    $("r-mixwell-suits").textContent = data.mixwell_suits.length ? data.mixwell_suits.join(" ") : "none in this deck";
    const head = h("tr", {}, ["#", "Hand", "Example from the deck", "Count", "Probability", "Rarity"].map((x) =>
      h("th", { class: x === "Hand" || x.startsWith("Example") ? "name" : null }, x)));
    const rows = data.hands.map((x) => h("tr", {},
      h("td", {}, x.order),
      h("td", { class: "name" }, x.en, h("br", {}), ja(x.ja, "ja")),
      h("td", { class: "name" }, cards(x.example.cards), h("div", { class: "desc" }, x.example.description)),
      h("td", {}, x.count.toLocaleString("en")),
      h("td", {}, h("span", { class: "frac" }, x.fraction), x.percent),
      h("td", {}, x.rarity.toFixed(4))));
    const total = h("tr", { class: "overall" }, h("td", {}), h("td", { class: "name" }, "all five-card hands"), h("td", {}),
      h("td", {}, data.combinations.toLocaleString("en")), h("td", {}, "1"), h("td", {}));
    put($("r-hands"), h("p", { class: "note" }, data.rules), h("table", { class: "hands" }, h("thead", {}, head), h("tbody", {}, rows, total)));

    put($("r-compounds"), data.compounds.length
      ? h("ul", { class: "compounds" }, data.compounds.map((x) => h("li", {},
        h("strong", {}, `Mixwell + ${x.with}`), ` (${x.count.toLocaleString("en")} hands) counts as `,
        h("strong", {}, x.primary), `: ${x.primary === "Mixwell" ? "Mixwell" : x.with} is rarer here (Mixwell ` +
          `${x.mixwell_count.toLocaleString("en")}, ${x.with} ${x.base_count.toLocaleString("en")} hands).`,
        x.example ? h("div", { class: "example" }, cards(x.example.cards), h("span", { class: "desc" }, x.example.description)) : null)))
      : h("p", { class: "note" }, `${data.deck} has no Mixwell: five different element suits cannot be drawn.`));

    $("r-suit-order").textContent = data.suit_order.length
      ? data.suit_order.join(" > ") : "not used with this deck: equal ranks split the pot";

    put($("r-ties"), data.tie_breaks.map((t) => h("div", { class: "hand-box" },
      h("div", { class: "cat" }, `Decided by ${t.text}`),
      t.hands.map((v, i) => h("div", { class: "tie-hand" + (t.winner === i + 1 ? " winner" : "") },
        cards(v.cards), h("div", { class: "desc" }, v.description, t.winner === i + 1 ? h("span", { class: "badge" }, "wins") : null))),
      t.winner === null ? h("div", { class: "note" }, "The hands tie and split the pot.") : null)));
  }

  const wanted = (params.get("deck") || "").toLowerCase();
  const match = [...deckSel.options].find((o) => o.value.toLowerCase() === wanted);
  if (match) deckSel.value = match.value;
  deckSel.addEventListener("change", load);
  load();
}

rulesPage();
