// The action panel of a table's page (your cards, your choices) drawn from the state it
// is given: choices(s) says what the panel offers as plain data (no page needed: a
// test runs it in node), panel(...) turns that into elements, fitRaise(...) sets the
// bet form of the page in place (it keeps what the player is typing across states).
import { h } from "./dom.js";
import { card, betweenHands, isStud } from "./table_felt.js";

const TIMES = ["once", "twice", "three times"];

// What the panel offers the viewer of state ``s``, or null (the panel is hidden):
// {mode, cards: the viewer's cards and which are up, buttons: [{id, label, primary,
// action (sent as an action) | message (sent as is)}], note, draw: the cards one may
// discard, raise: {word, min, max, presets} | null}. Modes: "show" (between hands, the
// viewer may show the cards of the hand just ended), "wait", "draw", "runs",
// "showdown", "bet".
export function choices(s) {
  const me = s.you ? s.seats[s.you.seat - 1] : null;
  const live = !!(me && s.hand && !s.hand.over && me.cards.length);
  const canShow = !!(me && s.can_show && betweenHands(s));
  if (!live && !canShow) return null;
  const legal = s.legal;
  const stud = isStud(s);
  const out = { mode: "bet", cards: me.cards.map((c, k) => ({ card: c, up: stud && me.up[k], down: stud && !me.up[k] })), buttons: [], note: null, draw: null, raise: null };
  const button = (id, label, action, primary = false) => out.buttons.push({ id, label, action, primary });
  if (!live) {
    out.mode = "show";
    out.buttons.push({ id: "pt-act-show-cards", label: "Show my cards", message: { type: "show" }, primary: true });
  } else if (!legal) {
    out.mode = "wait";
    out.note = "Waiting for the others…";
  } else if (legal.phase === "draw") {
    out.mode = "draw";
    out.draw = legal.hole;
  } else if (legal.phase === "runs") {
    // everyone left is all in: run the rest of the board more than once if all agree
    out.mode = "runs";
    for (let n = 1; n <= legal.runs; n++) button(`pt-act-runs-${n}`, `Run it ${TIMES[n - 1] || n + " times"}`, `runs ${n}`, n === 2);
    button("pt-act-runs-any", "No preference", "runs");
  } else if (legal.phase === "showdown") {
    out.mode = "showdown";
    button("pt-act-show", "Show", "s", true);
    if (legal.muck !== false) button("pt-act-muck", "Muck", "m");
  } else {
    if (legal.fold) button("pt-act-fold", "Fold", "f");
    if (legal.call !== null) button("pt-act-call", legal.check ? "Check" : `Call ${legal.call}`, "c", !!legal.check);
    if (legal.bring_in !== null) button("pt-act-bring-in", `Bring in ${legal.bring_in}`, "b");
    if (legal.raise_min !== null) {
      const word = legal.complete ? "Complete to" : legal.bet ? "Bet" : "Raise to";
      out.raise = { word, min: legal.raise_min, max: legal.raise_max, presets: legal.presets };
    }
  }
  return out;
}

// The panel's elements for ``choice`` (choices(s)): {hole, buttons}. ``act(action)``
// sends an action, ``send(message)`` a message; ``selected`` is the set of cards
// picked to discard (the page keeps it across states).
export function panel(choice, { act, send, selected }) {
  if (!choice) return { hole: [], buttons: [] };
  const buttons = choice.buttons.map((b) => h("button", { type: "button", id: b.id, class: b.primary ? "primary" : null, onclick: () => (b.message ? send(b.message) : act(b.action)) }, b.label));
  if (choice.note) buttons.push(h("span", { class: "note" }, choice.note));
  if (!choice.draw) return { hole: choice.cards.map((c) => card(c.card, { up: c.up, down: c.down })), buttons };
  const draw = h("button", { type: "button", id: "pt-act-discard", class: "primary" });
  const update = () => { draw.textContent = selected.size ? `Discard ${selected.size}` : "Stand pat"; };
  const hole = choice.draw.map((c) => {
    const b = card(c, { tag: "button", label: `discard ${c}` });
    b.type = "button";
    b.setAttribute("aria-pressed", selected.has(c) ? "true" : "false");
    b.addEventListener("click", () => { if (selected.has(c)) selected.delete(c); else selected.add(c); b.setAttribute("aria-pressed", selected.has(c) ? "true" : "false"); update(); });
    return b;
  });
  update();
  draw.addEventListener("click", () => { const cards = [...selected].join(" "); selected.clear(); act(cards ? "d " + cards : "d"); });
  buttons.push(draw);
  return { hole, buttons };
}

// Sets the page's bet form (``form``: {box, label, range, num, button, presets}) for
// ``raise`` (choices(s).raise, or null: hidden) at decision ``turn``; the amount typed
// stays while it is the same decision and within the range.
export function fitRaise(form, raise, turn, act) {
  form.box.hidden = !raise;
  if (!raise) return;
  const { word, min, max } = raise;
  const { range, num, button: btn } = form;
  form.label.textContent = word;
  for (const input of [range, num]) { input.min = min; input.max = max; input.step = 1; }
  const keep = Number(num.value);
  const start = keep >= min && keep <= max && num.dataset.turn === String(turn) ? keep : min;
  range.value = num.value = start;
  num.dataset.turn = String(turn);
  const label = () => { btn.textContent = `${word} ${num.value}`; };
  const valid = () => /^\d+$/.test(num.value) && Number(num.value) >= min && Number(num.value) <= max;
  const check = () => {
    btn.disabled = !valid();
    num.setAttribute("aria-invalid", valid() ? "false" : "true");
    if (!valid()) btn.textContent = `${word} ${min}–${max}`;
  };
  range.oninput = () => { num.value = range.value; label(); check(); };
  num.oninput = () => { if (valid()) range.value = num.value; label(); check(); };
  label();
  check();
  btn.onclick = () => { if (valid()) act("r " + num.value); };
  form.presets.replaceChildren(...raise.presets.map((p) =>
    h("button", { type: "button", "data-amount": p.amount, "aria-label": `${p.label}: ${p.amount}`, onclick: () => { range.value = num.value = p.amount; label(); } }, `${p.label} ${p.amount}`)));
}
