// The one API client of every page: JSON over fetch, and a WebSocket that reconnects.
// Requests in flight are counted in window.cardlabBusy (the browser tests wait for 0).
import { toast } from "./dom.js";

window.cardlabBusy = window.cardlabBusy || 0;

// Work in flight that is not a request (a check run in the page): +1 before, -1 after.
export function busy(delta) { window.cardlabBusy += delta; }

// One JSON request; an answer that is not 2xx throws an Error carrying the server's
// one-line message. With {toast: true} the message is also shown in the page's toast.
export async function api(method, url, body, options) {
  const o = options || {};
  const init = { method, headers: {}, credentials: "same-origin" };
  if (o.headers) Object.assign(init.headers, o.headers);
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const fail = (message) => {
    if (o.toast) toast(message);
    return new Error(message);
  };
  window.cardlabBusy += 1;
  try {
    let response;
    try {
      response = await fetch(url, init);
    } catch (e) {
      throw fail("the server did not answer: is cardlab web still running?");
    }
    const data = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
    if (!response.ok) throw fail(data.error || `the server answered ${response.status}`);
    return data;
  } finally {
    window.cardlabBusy -= 1;
  }
}

// The text of a GET (a PHH file, a CSV).
export async function text(url) {
  window.cardlabBusy += 1;
  try {
    const response = await fetch(url, { credentials: "same-origin" });
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    return await response.text();
  } finally {
    window.cardlabBusy -= 1;
  }
}

// A WebSocket to path on this host that reconnects after a second until it is closed
// on purpose: {onopen, onmessage(parsed JSON), onclose(), retry() -> false to stop}.
// Returns {send(message), close(), reopen()}.
export function socket(path, handlers) {
  const hs = handlers;
  let ws = null;
  let stopped = false;
  let timer = null;
  function open() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const me = new WebSocket(`${proto}://${location.host}${path}`);
    ws = me;
    me.onmessage = (m) => { if (ws === me && hs.onmessage) hs.onmessage(JSON.parse(m.data)); };
    me.onopen = () => { if (ws === me && hs.onopen) hs.onopen(); };
    me.onclose = () => {
      if (ws !== me || stopped) return;
      if (hs.retry && hs.retry() === false) return;
      if (hs.onclose) hs.onclose();
      clearTimeout(timer);
      timer = setTimeout(open, 1000);
    };
  }
  open();
  return {
    send(message) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(message)); },
    close() { stopped = true; clearTimeout(timer); if (ws) ws.close(); },
    // a new connection now (a new cookie makes it the seat's)
    reopen() { const old = ws; ws = null; clearTimeout(timer); if (old) old.close(); open(); },
  };
}

// api() that also shows a failure in the page's toast (the pages without an error line).
export const call = (method, url, body) => api(method, url, body, { toast: true });
