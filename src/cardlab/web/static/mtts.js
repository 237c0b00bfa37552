// Multi-table tournaments (/tournaments and /tournaments/{id}; web/mtt_routes.py): the
// list and the form that creates one, then a tournament's lobby, refreshed every 2 s.
import { $, h, showError } from "./dom.js";
import { api } from "./api.js";

const root = $("m");
const mttId = root ? root.dataset.mtt : "";

async function listPage() {
  const opts = await api("GET", "/api/tables/options");
  const game = $("m-game");
  for (const g of opts.games) game.append(h("option", { value: g.key }, `${g.name} (${g.stakes})`));
  game.value = opts.defaults.game;
  $("m-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = {
      game: game.value,
      table_size: Number($("m-size").value),
      stack: Number($("m-stack").value),
      tournament_buy_in: Number($("m-buy-in").value || 0),
      clock: Number($("m-clock").value),
      pause: Number($("m-pause").value),
      bot_delay: Number($("m-bot-delay").value),
    };
    if ($("m-name").value.trim()) body.name = $("m-name").value.trim();
    if ($("m-levels").value.trim()) body.levels = $("m-levels").value.trim();
    body[$("m-unit").value === "minutes" ? "level_minutes" : "level_hands"] = Number($("m-every").value);
    const payouts = $("m-payouts").value.split(/[\s,%]+/).filter(Boolean).map(Number);
    if (payouts.length) body.payouts = payouts;
    try {
      const m = await api("POST", "/api/mtts", body);
      location.href = m.url;
    } catch (e) { showError("m-error", e.message); }
  });
  const list = await api("GET", "/api/mtts");
  const box = $("m-list");
  box.textContent = "";
  if (!list.tournaments.length) { box.textContent = "None yet: create one below."; return; }
  box.append(h("table", {}, h("thead", {}, h("tr", {}, ...["Tournament", "Game", "Players", "State"].map((x) => h("th", {}, x)))),
    h("tbody", {}, ...list.tournaments.map((m) => h("tr", {},
      h("td", {}, h("a", { href: m.url }, m.name || "tournament")), h("td", {}, m.game),
      h("td", {}, String(m.registered)), h("td", {}, m.over ? "over" : m.started ? "playing" : "registering"))))));
}

async function lobbyPage() {
  const opts = await api("GET", "/api/tables/options");
  for (const b of opts.bots) $("m-bot").append(h("option", { value: b }, b));
  let view = null;
  const act = async (url, body) => {
    try { view = await api("POST", url, body); draw(); $("m-error").hidden = true; } catch (e) { showError("m-error", e.message); }
  };
  $("m-register").addEventListener("submit", (ev) => { ev.preventDefault(); act(`/api/mtts/${mttId}/register`, { name: $("m-player").value }); });
  $("m-unregister").addEventListener("click", () => act(`/api/mtts/${mttId}/unregister`, {}));
  $("m-add-bot").addEventListener("click", () => act(`/api/mtts/${mttId}/register`, { bot: $("m-bot").value }));
  $("m-start").addEventListener("click", () => act(`/api/mtts/${mttId}/start`, {}));
  function draw() {
    const v = view;
    $("m-title").textContent = v.name || "Tournament";
    $("m-rules").textContent = `${v.game}: tables of ${v.table_size}, ${v.stack} chips, levels every ${v.every} ${v.unit}` +
      ` (${v.schedule.slice(0, 4).join(", ")}${v.schedule.length > 4 ? ", …" : ""}), buy-in ${v.buy_in}.`;
    $("m-register").hidden = v.started;
    $("m-unregister").hidden = !v.you;
    $("m-register-btn").hidden = !!v.you;
    $("m-host").hidden = !v.host || v.started;
    const you = $("m-you");
    you.textContent = "";
    if (v.you) {
      you.append(`You are registered as ${v.you.name}. `);
      if (v.you.table_url) you.append(h("a", { id: "m-your-table", href: v.you.table_url }, `Go to your table (table ${v.you.table}, seat ${v.you.seat})`));
    }
    $("m-registered").textContent = `${v.registered.length} registered: ${v.registered.join(", ")}`;
    const tables = $("m-tables");
    tables.textContent = v.started ? "" : "The tables are drawn at the start.";
    if (v.over) tables.append(h("p", { id: "m-winner", class: "pt-tournament-winner" }, `${v.winner} wins the tournament`));
    else if (v.started) tables.append(h("p", {}, `Level ${v.level}${v.final_table ? ": the final table" : ""}`,
      v.hand_for_hand ? h("span", { id: "m-hand-for-hand" }, " · hand for hand on the bubble: every table plays one hand at a time") : null));
    for (const t of v.tables) tables.append(h("p", {}, h("a", { href: t.url }, `Table ${t.table}`), ` — ${t.players} player${t.players === 1 ? "" : "s"}: ${t.status}`));
    const rows = v.standings.map((r) => h("tr", {}, h("td", {}, r.place == null ? "" : `${r.place}${r.tied > 1 ? " (tied)" : ""}`), h("td", {}, r.name),
      h("td", {}, r.chips == null ? "" : String(r.chips)), h("td", {}, r.table == null ? "" : String(r.table)), h("td", {}, r.prize ? String(r.prize) : "")));
    const box = $("m-standings");
    box.textContent = "";
    if (rows.length) box.append(h("table", { id: "m-standings-table", class: "pt-standings" },
      h("thead", {}, h("tr", {}, ...["Place", "Player", "Chips", "Table", "Prize"].map((x) => h("th", {}, x)))), h("tbody", {}, ...rows)));
    if (v.prizes.length) box.append(h("p", {}, `Prizes: ${v.prizes.join(" · ")}`));
  }
  const refresh = async () => {
    try { view = await api("GET", `/api/mtts/${mttId}`); draw(); } catch (e) { showError("m-error", e.message); }
  };
  await refresh();
  setInterval(refresh, 2000);
}

if (root) (mttId ? lobbyPage() : listPage()).catch((e) => showError("m-error", e.message));
