// The one DOM helper of every page (an ES module, no build step): build elements, find
// them, replace their children. Text is always put in as text nodes, never as markup.

// h("td", {class: "x", onclick: f, "data-seat": 3}, "text", child, [more]) -> an element.
// Attributes that are null, undefined or false are left out (true gives an empty one);
// "class" sets the class name, "on<event>" adds a listener; children are flattened and
// null, undefined and false among them are left out.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export const $ = (id) => document.getElementById(id);

// Replace an element's children (null/undefined/false among them are left out).
export function put(el, ...children) {
  el.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

// Japanese text, marked so that the browser picks a Japanese font for it.
export function ja(text, cls) { return h("span", { class: cls || "ja", lang: "ja" }, text); }

// A message in an element that is hidden while there is none.
export function showError(el, message) {
  const box = typeof el === "string" ? $(el) : el;
  box.textContent = message || "";
  box.hidden = !message;
}

// The page's toast (base.html): a message that goes away by itself.
let toastTimer = null;
export function toast(message) {
  const t = $("toast");
  if (!t) return;
  t.textContent = message;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 5000);
}

// Page options from the address, e.g. /openseven?cards=9&seed=4&moves=2,left&hints=1
export const params = new URLSearchParams(window.location.search);
