// The tables lobby (/tables): the form that creates a table, the list of public ones.
import { $, h, showError } from "./dom.js";
import { api } from "./api.js";

async function lobby() {
  const opts = await api("GET", "/api/tables/options");
  const game = $("t-game");
  // one group per deck: its base games, then the low and split games on its order
  const groups = new Map();
  for (const g of opts.games) {
    if (!groups.has(g.deck)) game.append(groups.set(g.deck, h("optgroup", { label: g.deck })).get(g.deck));
    groups.get(g.deck).append(h("option", { value: g.key }, `${g.name} (${g.stakes})`));
  }
  game.value = opts.defaults.game;
  const seatsInput = $("t-seats");
  function botSeats() {
    const box = $("t-bot-seats");
    const old = [...box.querySelectorAll("select")].map((s) => s.value);
    box.textContent = "";
    const n = Math.max(2, Math.min(10, Number(seatsInput.value) || 2));
    for (let i = 0; i < n; i++) {
      const sel = h("select", { id: `t-bot-${i + 1}` }, h("option", { value: "" }, "person"), ...opts.bots.map((b) => h("option", { value: b }, b + " bot")));
      sel.value = old[i] !== undefined ? old[i] : (i === 0 ? "" : opts.bots[0]);
      box.append(h("label", {}, `Seat ${i + 1} `, sel));
    }
  }
  seatsInput.addEventListener("input", botSeats);
  botSeats();
  const format = $("t-format");
  const showFormat = () => {
    const sng = format.value === "tournament";
    $("t-tournament").hidden = !sng;
    $("t-cap").closest("label").hidden = sng;  // no rebuys in a tournament
    $("t-house").hidden = sng;  // nor home-game rules (docs/home-games.md)
  };
  format.addEventListener("change", showFormat);
  showFormat();
  $("t-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { game: game.value, seats: Number(seatsInput.value), stack: Number($("t-stack").value), clock: Number($("t-clock").value), bots: {}, public: $("t-public").checked };
    if ($("t-betting").value) body.betting = $("t-betting").value;
    if ($("t-blinds").value.trim()) body.blinds = $("t-blinds").value.split(/[\/ ,]+/).filter(Boolean).map(Number);
    if ($("t-ante").value !== "") body.ante = Number($("t-ante").value);
    if ($("t-name").value.trim()) body.name = $("t-name").value.trim();
    if ($("t-bring-in").value !== "") body.bring_in = Number($("t-bring-in").value);
    const bets = $("t-bets").value.split(/[\/ ,]+/).filter(Boolean).map(Number);
    if (bets.length === 2) { body.small_bet = bets[0]; body.big_bet = bets[1]; }
    if ($("t-pause").value !== "") body.pause = Number($("t-pause").value);
    if ($("t-bot-delay").value !== "") body.bot_delay = Number($("t-bot-delay").value);
    if ($("t-cap").value !== "") body.max_buy_in = Number($("t-cap").value);
    if ($("t-approve").checked) body.approve_seats = true;
    if ($("t-new-players").value !== "wait") body.new_players = $("t-new-players").value;
    if ($("t-straddle").value !== "off") body.straddle = $("t-straddle").value;
    if (Number($("t-bomb-every").value)) body.bomb_pot_every = Number($("t-bomb-every").value);
    if ($("t-bomb-ante").value !== "") body.bomb_pot_ante = Number($("t-bomb-ante").value);
    if ($("t-bomb-boards").value !== "1") body.bomb_pot_boards = Number($("t-bomb-boards").value);
    if (Number($("t-seven-deuce").value)) body.seven_deuce = Number($("t-seven-deuce").value);
    if ($("t-dead-button").checked) body.dead_button = true;
    if (format.value === "tournament") {
      body.format = "tournament";
      delete body.max_buy_in;
      for (const k of ["straddle", "bomb_pot_every", "bomb_pot_ante", "bomb_pot_boards", "seven_deuce", "dead_button"]) delete body[k];
      if ($("t-levels").value.trim()) body.levels = $("t-levels").value.trim();
      const every = Number($("t-level-every").value);
      if (every) body[$("t-level-unit").value === "minutes" ? "level_minutes" : "level_hands"] = every;
      if ($("t-sng-buy-in").value !== "") body.tournament_buy_in = Number($("t-sng-buy-in").value);
      const payouts = $("t-payouts").value.split(/[\s,%]+/).filter(Boolean).map(Number);
      if (payouts.length) body.payouts = payouts;
    }
    $("t-bot-seats").querySelectorAll("select").forEach((s, i) => { if (s.value) body.bots[i + 1] = s.value; });
    try {
      const t = await api("POST", "/api/tables", body);
      location.href = t.url;
    } catch (e) { showError("t-error", e.message); }
  });
  const list = await api("GET", "/api/tables");
  const box = $("t-list");
  box.textContent = "";
  if (!list.tables.length) { box.textContent = "No public tables: create one below (a table is private unless you list it)."; return; }
  const rows = list.tables.map((t) => h("tr", {}, h("td", {}, h("a", { href: t.url }, t.name || t.game_name)), h("td", {}, t.stakes), h("td", {}, `${t.open_seats} of ${t.seats} seats free`), h("td", {}, t.status)));
  box.append(h("table", {}, h("thead", {}, h("tr", {}, ...["Table", "Stakes", "Seats", "Status"].map((x) => h("th", {}, x)))), h("tbody", {}, ...rows)));
}

lobby().catch((e) => showError("t-error", e.message));
