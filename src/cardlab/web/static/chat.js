/* the chat panel of a table (see web/table_chat.py): table.js owns the WebSocket and
   hands each message to the listeners of its hooks first; every text a person typed
   is shown with textContent, never as markup */
import { $, h } from "./dom.js";
import { api } from "./api.js";

export function chat(root, hooks) {
  const id = root.dataset.table;
  const box = $("chat");
  const list = $("chat-list");
  const form = $("chat-form");
  const input = $("chat-text");
  const nameInput = $("chat-name");
  const sendButton = $("chat-send");
  let state = null;
  // what only this browser is told (chat_status); until then: may chat, not muted
  let status = { can_chat: true, muted: false, name: null };
  let drawn = "";
  let pending = null; // the text sent, cleared from the input once the server took it

  function showError(message) {
    const e = $("chat-error");
    e.textContent = message || "";
    e.hidden = !message;
  }
  const offline = () => root.classList.contains("offline");
  const time = (at) => new Date(at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

  async function host(body) {
    try {
      await api("POST", `/api/tables/${id}/host`, body);
      showError("");
    } catch (e) { showError(e.message); }
  }

  function renderList() {
    const s = state;
    const key = JSON.stringify([s.host, s.chat.map((m) => [m.id, !!m.muted]), s.chat_mutes]);
    if (key === drawn) return;
    drawn = key;
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    list.textContent = "";
    for (const m of s.chat) {
      const who = h("span", { class: "chat-who" }, m.name);
      if (m.seat !== null) who.title = `seat ${m.seat}`;
      const badges = [];
      if (m.host) badges.push(h("span", { class: "chat-badge" }, "host"));
      if (m.seat === null) badges.push(h("span", { class: "chat-badge watching" }, "watching"));
      let control = null;
      if (s.host && !m.host) {
        const op = m.muted ? "unmute" : "mute";
        control = h("button", { type: "button", class: "chat-mute", "data-message": String(m.id), "aria-label": `${op} ${m.name}`, onclick: () => host({ op, message: m.id }) }, m.muted ? "Unmute" : "Mute");
      }
      list.append(h("li", { "data-id": String(m.id), class: m.muted ? "muted" : "" }, h("time", { class: "chat-at", datetime: new Date(m.at * 1000).toISOString() }, time(m.at)), " ", who, ...badges, " ", h("span", { class: "chat-msg" }, m.text), control ? " " : null, control));
    }
    $("chat-empty").hidden = s.chat.length > 0;
    if (atBottom || !list.dataset.drawn) list.scrollTop = list.scrollHeight;  // follow the talk
    list.dataset.drawn = "yes";
    const mutes = $("chat-mutes");
    mutes.hidden = !s.host || !s.chat_mutes.length;
    const rows = $("chat-mutes-list");
    rows.textContent = "";
    for (const m of s.host ? s.chat_mutes : []) {
      rows.append(h("li", {}, h("span", {}, m.name), " ", h("button", { type: "button", "aria-label": `unmute ${m.name}`, onclick: () => host({ op: "unmute", key: m.key }) }, "Unmute")));
    }
  }

  function renderForm() {
    const s = state;
    const closed = s.table.closed;
    const blocked = status.muted || !status.can_chat || closed || offline();
    $("chat-muted").hidden = !status.muted;
    input.disabled = sendButton.disabled = blocked;
    nameInput.hidden = !!s.you || status.muted || closed;
    nameInput.disabled = blocked;
    nameInput.placeholder = status.name ? `Your name: ${status.name}` : "Your name (optional)";
    let as = "";
    if (closed) as = "The table is closed.";
    else if (!status.can_chat) as = "Reload the page to chat.";
    else if (s.you) as = `You chat as ${s.you.name} (seat ${s.you.seat}).`;
    else if (status.name) as = `You chat as ${status.name} (watching).`;
    else as = "You are watching: give a name, or you chat as “spectator N”.";
    $("chat-as").textContent = as;
  }

  function render() {
    if (!state || !Array.isArray(state.chat)) return;
    box.hidden = false;
    renderList();
    renderForm();
  }

  function onMessage(msg) {
    try {
      if (msg.type === "state") { state = msg; render(); return false; }
      if (msg.type === "chat_status") {
        status = msg;
        if (msg.posted !== undefined) {
          if (pending !== null && input.value === pending) input.value = "";
          pending = null;
          if (!state || !state.you) nameInput.value = "";
          showError("");
        }
        render();
        return true;
      }
      if (msg.type === "error" && msg.about === "chat") { pending = null; showError(msg.message); return true; }
    } catch (e) { console.error("chat:", e); }
    return false;
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (offline()) { showError("not connected: the message was not sent (reconnecting…)"); return; }
    const text = input.value;
    const message = { type: "chat", text };
    const name = nameInput.value.trim();
    if (name && !nameInput.hidden && !(state && state.you)) message.name = name;
    pending = text;
    hooks.send(message);
  });
  // table.js marks #pt offline while it reconnects; a new connection is told its status
  // only if it is not the default one, so forget the old one when back online
  let wasOffline = false;
  new MutationObserver(() => {
    if (wasOffline && !offline()) status = { can_chat: true, muted: false, name: null };
    wasOffline = offline();
    if (state) renderForm();
  }).observe(root, { attributes: true, attributeFilter: ["class"] });
  hooks.listeners.push(onMessage);
}
