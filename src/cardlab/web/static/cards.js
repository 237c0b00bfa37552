// The one card renderer of every page: a card as the API describes it ({text, name,
// suit, symbol, rank}) or as a hand writes it ("As", "Td", "木7", "陰陽12", "??").
// Every card is <span class="card suit-X ...">: rank and suit in .c-rank and .c-suit,
// its text in data-card, an image to a screen reader named by the card in words.
// The page's stylesheet sizes it (cardlab.css; table.css and replay.css per page).
import { h } from "./dom.js";

const SUIT52 = { s: ["♠", "spades"], h: ["♥", "hearts"], d: ["♦", "diamonds"], c: ["♣", "clubs"] };
const RANK52 = { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight", 7: "seven", 6: "six", 5: "five", 4: "four", 3: "three", 2: "two" };
// the element suits of FESCA and TESCA, by their symbol: the suit keys of the API
const ELEMENTS = { "木": "M", "火": "K", "土": "D", "金": "G", "水": "S", "陰陽": "Y", "陰": "Y", "太": "Y", "♥": "h", "♦": "d", "♠": "s", "♣": "c" };
export const UNKNOWN = "??";

// {text, suit, symbol, rank, name, element} of an API card object or a card's text;
// info ({suit, name}) names a card whose text alone does not (the replayer's).
export function describe(c, info) {
  if (typeof c !== "string") {
    const element = !"shdc".includes(c.suit);
    return { text: c.text, suit: c.suit, symbol: c.symbol, rank: c.rank, name: c.name || c.text, element };
  }
  const s52 = /^([2-9TJQKA])([shdc])$/.exec(c);
  if (s52) {
    const [symbol, suitName] = SUIT52[s52[2]];
    return { text: c, suit: s52[2], symbol, rank: s52[1], name: `${RANK52[s52[1]]} of ${suitName}`, element: false };
  }
  const el = /^([^\x00-\x7f]+)(.+)$/u.exec(c);
  if (el) {
    const suit = (info && info.suit) || ELEMENTS[el[1]] || ELEMENTS[el[1][0]] || "";
    return { text: c, suit, symbol: el[1], rank: el[2], name: (info && info.name) || c, element: true };
  }
  return { text: c, suit: (info && info.suit) || "", symbol: "", rank: c, name: (info && info.name) || c, element: true };
}

// The face-down card.
export function back(opts) {
  const o = opts || {};
  return classes(h(o.tag || "span", {
    "data-card": UNKNOWN, role: o.tag === "button" ? null : "img", "aria-label": o.label || "face down", title: o.title,
  }), ["back"], o);
}

// One card: opts {small, up, down, dealt, pip (the big suit symbol of a table card),
// info (see describe), tag ("button" for a card to click), extra (more classes), label}.
export function card(c, opts) {
  const o = opts || {};
  if (c === UNKNOWN) return back(o);
  const d = describe(c, o.info);
  const standard = !d.element;
  const kids = [];
  if (standard) {
    kids.push(h("span", { class: "c-rank" }, d.rank === "T" ? "10" : d.rank), h("span", { class: "c-suit" }, d.symbol));
  } else if (d.symbol) {  // the element first, as the deck writes it: 木7, 陰陽12, 太極
    kids.push(h("span", { class: "c-suit", lang: "ja" }, d.symbol), h("span", { class: "c-rank" }, d.rank));
  } else {
    kids.push(h("span", { class: "c-rank" }, d.rank));
  }
  const e = h(o.tag || "span", {
    "data-card": d.text, role: o.tag === "button" ? null : "img", "aria-label": o.label || d.name, title: o.title === undefined ? d.text : o.title,
    "data-pip": o.pip && standard && !o.small ? d.symbol : null,
  }, kids);
  const more = [];
  if (d.suit) more.push(`suit-${d.suit}`);
  if (d.element) more.push("element");
  if (d.element && [...d.symbol].length > 1) more.push("wide");  // 陰陽: two characters
  return classes(e, more, o);
}

function classes(e, more, o) {
  const list = ["card", ...more];
  for (const k of ["small", "up", "down", "dealt"]) if (o[k]) list.push(k);
  if (o.extra) list.push(...o.extra.split(" ").filter(Boolean));
  e.className = list.join(" ");
  return e;
}
