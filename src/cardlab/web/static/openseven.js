// The Open Seven page (/openseven): the server plays, this module draws.
import { $, h, put, ja, toast, params } from "./dom.js";
import { call } from "./api.js";
import { back } from "./cards.js";

function shortPercent(c) { return `${(c.value * 100).toFixed(2)}%`; }


function openSeven() {
  let game = null;
  let inFlight = false;  // one request at a time: a double click must not play two moves

  // Run one request with every control of the game disabled; clicks meanwhile are ignored.
  async function exclusive(work) {
    if (inFlight) return;
    inFlight = true;
    setControls(false);
    try { await work(); } catch (e) { /* the toast says why */ } finally {
      inFlight = false;
      setControls(true);
    }
  }

  function setControls(enabled) {
    $("os-new").disabled = !enabled;
    $("os-cards").disabled = !enabled;
    $("os-row").setAttribute("aria-busy", enabled ? "false" : "true");
    for (const b of document.querySelectorAll("#os-row button, #os-calls button, #os-reveal button")) {
      b.disabled = !enabled || b.dataset.off === "1";
    }
  }

  function newGame(seed) {
    return exclusive(async () => {
      const body = { cards: Number($("os-cards").value) };
      if (Number.isInteger(seed)) body.seed = seed;
      game = await call("POST", "/api/openseven/games", body);
      draw();
    });
  }

  async function fromAddress() {
    if (params.get("cards")) $("os-cards").value = params.get("cards");
    if (params.get("hints") === "1") $("os-hints").checked = true;
    await loadOdds();
    const seed = params.get("seed");
    await newGame(seed === null ? undefined : Number(seed));
    for (const move of (params.get("moves") || "").split(",").filter(Boolean)) await play(move);
  }

  function play(move) {
    if (!game) return Promise.resolve();
    return exclusive(async () => {
      game = await call("POST", `/api/openseven/games/${game.id}/moves`, { move: String(move) });
      draw();
    });
  }

  function hintFor(move) {
    return game.hints.find((x) => x.move === String(move));
  }

  function draw() {
    const showHints = $("os-hints").checked;
    const over = game.status !== "playing";
    const started = game.turned.length > 0;
    const row = $("os-row");
    row.replaceChildren();
    row.style.setProperty("--n", game.cards);
    const values = over ? game.reveal.arrangement : game.faces;
    for (let p = 1; p <= game.cards; p++) {
      const face = game.faces[p - 1];
      const order = game.turned.indexOf(p);
      const named = !over && started && game.named.includes(p);
      const clickable = !over && (!started || named);
      let el;
      if (face !== null || over) {
        const extra = ["os", face === null ? "revealed" : "", game.turned[game.turned.length - 1] === p && !over ? "last" : ""]
          .filter(Boolean).join(" ");
        const said = face === null ? `position ${p}: ${values[p - 1]}, was face down`
          : `position ${p}: ${values[p - 1]}, turned ${order + 1}${["st", "nd", "rd"][order] || "th"}`;
        el = h("span", { class: "card " + extra, role: "img", "aria-label": said }, h("span", { class: "c-rank" }, values[p - 1]));
        if (order >= 0) el.append(h("span", { class: "order", title: "turned in this order", "aria-hidden": "true" }, order + 1));
      } else if (clickable) {
        const move = started ? (game.targets.left === p ? "left" : "right") : p;
        const said = started ? `turn position ${p} (${move})` : `start with position ${p}`;
        el = h("button", { type: "button", class: "card back clickable" + (named ? " named" : ""), title: said, "aria-label": said });
        el.addEventListener("click", () => play(move));
      } else {
        el = back({ label: `position ${p}, face down` });
      }
      const chance = h("span", { class: "chance" });
      if (showHints && clickable) {
        const move = started ? (game.targets.left === p ? "left" : "right") : p;
        const hint = hintFor(move);
        if (hint) chance.append(h("span", {}, hint.fraction), h("span", { class: "pct" }, shortPercent(hint)));
      }
      if (over && game.reveal.solutions > 0) {
        const s = game.reveal.per_start[p - 1];
        chance.append(h("span", { title: "solutions starting here" }, `${s.solutions}`), h("span", { class: "pct" }, "sol."));
      }
      row.append(h("div", { class: "slot" }, el, h("span", { class: "pos" }, `#${p}`), chance));
    }

    const status = $("os-status");
    status.className = "status " + game.status;
    if (game.status === "won") status.textContent = "You win: every card is face up.";
    else if (game.status === "lost") status.textContent = `You lose: both cards named by ${game.last} are already face up.`;
    else if (!started) status.textContent = "Click any face-down card to start.";
    else {
      const left = game.last, right = game.cards + 1 - game.last;
      const where = left === right ? `the middle card, #${left}` : `#${left} from the left and #${right} from the right`;
      status.textContent = `You turned ${game.last}: it names ${where}.`;
    }

    const calls = $("os-calls");
    calls.hidden = over || !started;
    for (const side of ["left", "right"]) {
      const button = $(`os-${side}`);
      const pos = game.targets[side];
      const label = side === "left" ? "◀ Left" : "Right ▶";
      button.replaceChildren(label);
      button.dataset.off = pos === undefined ? "1" : "0";
      button.disabled = pos === undefined || inFlight;
      const sub = pos === undefined ? "face up" : `position ${pos}`;
      const hint = showHints && pos !== undefined ? hintFor(side) : null;
      button.append(h("small", {}, sub + (hint ? ` · win ${hint.fraction} (${shortPercent(hint)})` : "")));
    }

    const reveal = $("os-reveal");
    reveal.hidden = !over;
    if (over) {
      const r = game.reveal;
      put(reveal,
        h("div", {}, h("strong", {}, "The arrangement: "), r.arrangement.join(" "),
          game.turned.length < game.cards ? " (the pale cards were still face down)" : ""),
        h("div", {}, `It has ${r.solutions} solution${r.solutions === 1 ? "" : "s"} (winning call strings) and ${r.lines} winning line${r.lines === 1 ? "" : "s"} (card orders)` +
          (r.solutions ? "; the number under each card counts the solutions starting there." : ": no start wins it.")),
        h("div", { class: "input-row" }, h("button", { class: "primary", disabled: inFlight, onclick: () => newGame() }, "Play again")));
    }
  }

  async function loadOdds() {
    const n = Number($("os-cards").value);
    $("os-odds-n").textContent = n;
    const data = await call("GET", `/api/openseven/odds?cards=${n}`);
    const head = h("tr", {}, h("th", {}, "Start"), data.models.map((m) => h("th", {}, m.name)));
    const rows = data.starts.map((s) => h("tr", {}, h("td", {}, `position ${s.position}`),
      data.models.map((m) => cell(s.chances[m.id]))));
    const overall = h("tr", { class: "overall" }, h("td", {}, "overall"),
      data.models.map((m) => cell(data.overall[m.id])));
    put($("os-odds"), h("table", {}, h("thead", {}, head), h("tbody", {}, rows, overall)));
  }

  function cell(c) {
    return h("td", { title: String(c.value) }, h("span", { class: "frac" }, c.fraction), c.percent);
  }

  $("os-new").addEventListener("click", () => newGame());
  $("os-left").addEventListener("click", () => play("left"));
  $("os-right").addEventListener("click", () => play("right"));
  $("os-hints").addEventListener("change", () => { if (game) draw(); });
  $("os-cards").addEventListener("change", () => { loadOdds().catch(() => {}); newGame(); });
  fromAddress().catch(() => {});
}

openSeven();
