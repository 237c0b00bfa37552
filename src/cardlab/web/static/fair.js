// Provably fair dealing, checked in the browser: the scheme cardlab-shuffle-v1
// (docs/fair-dealing.md) and the same checks as cardlab.table.dealing.verify_deal.
// An ES module, no dependencies, no build step. WebCrypto (crypto.subtle) when the page
// has it; a page over plain http on a LAN address is not a secure context and has no
// crypto.subtle, so a small SHA-256 and HMAC in plain JavaScript stand in (also forced by
// cardlabFair.useFallback = true, which is how the tests cover both).
//
//   import { fair } from "./fair.js";  (also window.cardlabFair)
//   await cardlabFair.commitment(seedHex)                      -> 64 hex digits
//   await cardlabFair.shuffle(items, seedBytes, clientSeeds, dealNumber, pass = 0)
//   cardlabFair.parsePhhs(text)                                -> [{name, fields}]
//   await cardlabFair.verifyText(text, deckOrders)             -> [{hand, status, detail, ...}]
const SCHEME = "cardlab-shuffle-v1";
const SEED_BYTES = 32;
const MAX_CLIENT_SEED = 64;
const CLIENT_SEED = /^[A-Za-z0-9_-]{0,64}$/;
const HEX64 = /^[0-9a-f]{64}$/;
const UNKNOWN_CARD = "??";
const TWO_64 = 1n << 64n;
const TWO_32 = 2 ** 32;

// A check that fails: its message is the verdict's detail.
class FairError extends Error {}
// Text that is not TOML (or not a PHH hand): the whole file is refused.
class PhhSyntaxError extends Error {}

// --- bytes -----------------------------------------------------------------------------

const ascii = (text) => new TextEncoder().encode(text);

function toHex(bytes) {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

function fromHex(text) {
  if (typeof text !== "string" || text.length % 2 || /[^0-9a-fA-F]/.test(text)) {
    throw new FairError(`expected hex digits, got ${shown(text)}`);
  }
  const out = new Uint8Array(text.length / 2);
  for (let k = 0; k < out.length; k++) out[k] = parseInt(text.slice(2 * k, 2 * k + 2), 16);
  return out;
}

// A server seed given as 32 bytes (Uint8Array, ArrayBuffer, array of numbers) or 64 hex digits.
function seedBytes(seed) {
  let bytes;
  if (typeof seed === "string") bytes = fromHex(seed);
  else if (seed instanceof Uint8Array) bytes = seed;
  else if (seed instanceof ArrayBuffer) bytes = new Uint8Array(seed);
  else if (Array.isArray(seed) && seed.every((b) => Number.isInteger(b) && b >= 0 && b < 256)) {
    bytes = Uint8Array.from(seed);
  } else throw new FairError(`a server seed is ${SEED_BYTES} bytes, got ${shown(seed)}`);
  if (bytes.length !== SEED_BYTES) throw new FairError(`a server seed is ${SEED_BYTES} bytes`);
  return bytes;
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

function u32(value) {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value);
  return out;
}

function u64(value) {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(value));
  return out;
}

// --- SHA-256 and HMAC in plain JavaScript (FIPS 180-4, RFC 2104) -----------------------

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

function sha256Js(data) {
  const length = data.length;
  const padded = new Uint8Array((((length + 8) >> 6) + 1) << 6);  // room for 0x80 and the length
  padded.set(data);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));  // the length in bits
  view.setUint32(padded.length - 4, (length << 3) >>> 0);
  const h = H0.slice();
  const w = new Uint32Array(64);
  const rotr = (x, r) => (x >>> r) | (x << (32 - r));
  for (let block = 0; block < padded.length; block += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(block + 4 * t);
    for (let t = 16; t < 64; t++) {
      const a = w[t - 15], b = w[t - 2];
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
      w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let t = 0; t < 64; t++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t]) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      hh = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  h.forEach((v, k) => outView.setUint32(4 * k, v >>> 0));
  return out;
}

function hmacJs(key, message) {
  let k = key.length > 64 ? sha256Js(key) : key;
  const block = new Uint8Array(64);
  block.set(k);
  const inner = block.map((b) => b ^ 0x36);
  const outer = block.map((b) => b ^ 0x5c);
  return sha256Js(concat([outer, sha256Js(concat([inner, message]))]));
}

// --- the primitives: WebCrypto when the page has it ------------------------------------

function subtle() {
  if (fair.useFallback) return null;
  const c = globalThis.crypto;
  return c && c.subtle ? c.subtle : null;
}

async function sha256(bytes) {
  const s = subtle();
  return s ? new Uint8Array(await s.digest("SHA-256", bytes)) : sha256Js(bytes);
}

// HMAC-SHA256 under one key: a function of the message.
async function hmacWith(key) {
  const s = subtle();
  // WebCrypto refuses an empty key (a server seed never is one; the helper below may be)
  if (!s || key.length === 0) return async (message) => hmacJs(key, message);
  const handle = await s.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return async (message) => new Uint8Array(await s.sign("HMAC", handle, message));
}

async function hmacSha256(key, message) {
  return (await hmacWith(toUint8(key)))(toUint8(message));
}

function toUint8(value) {
  if (value instanceof Uint8Array) return value;
  if (typeof value === "string") return ascii(value);
  return Uint8Array.from(value);
}

// --- the scheme ------------------------------------------------------------------------

function checkClientSeed(value) {
  if (typeof value !== "string" || !CLIENT_SEED.test(value)) {
    let text = shown(value);
    if (text.length > 60) text = text.slice(0, 57) + "...";
    throw new FairError(`a client seed is up to ${MAX_CLIENT_SEED} characters of A-Z a-z 0-9 _ -: ${text}`);
  }
  return value;
}

function wholeNumber(value) {
  return (typeof value === "number" && Number.isInteger(value)) || typeof value === "bigint";
}

// The HMAC message of one block of the stream: "cardlab-shuffle-v1" 0x00, u64 deal number,
// u32 pass, u32 count of client seeds, each seed as u32 length + ASCII, u64 block.
function streamMessage(clientSeeds, dealNumber, pass, block) {
  const inRange = (v, top) => wholeNumber(v) && BigInt(v) >= 0n && BigInt(v) < top;
  if (!inRange(dealNumber, TWO_64) || !inRange(pass, 1n << 32n) || !inRange(block, TWO_64)) {
    throw new FairError("hand number, pass and block are 64, 32 and 64-bit unsigned integers: " +
      `${dealNumber}, ${pass}, ${block}`);
  }
  const parts = [ascii(SCHEME), new Uint8Array([0]), u64(dealNumber), u32(Number(pass)), u32(clientSeeds.length)];
  for (const seed of clientSeeds) {
    const raw = ascii(checkClientSeed(seed));
    parts.push(u32(raw.length), raw);
  }
  parts.push(u64(block));
  return concat(parts);
}

async function commitment(seed) {
  return toHex(await sha256(seedBytes(seed)));
}

// items shuffled by the scheme: Fisher-Yates from the last place down, each index drawn
// without bias from the stream's 32-bit big-endian words (rejection sampling).
async function shuffle(items, seed, clientSeeds, dealNumber, pass = 0) {
  const out = Array.from(items);
  const seeds = Array.from(clientSeeds);
  const mac = await hmacWith(seedBytes(seed));
  let words = [];
  let block = 0;
  const next = async () => {
    if (words.length === 0) {
      const digest = await mac(streamMessage(seeds, dealNumber, pass, block));
      const view = new DataView(digest.buffer, digest.byteOffset, digest.byteLength);
      words = [];
      for (let k = 7; k >= 0; k--) words.push(view.getUint32(4 * k));  // pop() gives the first
      block += 1;
    }
    return words.pop();
  };
  for (let i = out.length - 1; i > 0; i--) {
    const size = i + 1;
    const limit = TWO_32 - (TWO_32 % size);
    let u = await next();
    while (u >= limit) u = await next();
    const j = u % size;
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// --- a TOML reader, enough for PHH and PHHS files ---------------------------------------

// A TOML float, kept as its text (Python reads it as an exact Decimal).
class TomlDecimal {
  constructor(text) { this.text = text; }
  valueOf() { return Number(this.text.replace(/_/g, "")); }
  toString() { return this.text; }
}

// A TOML date, time or date-time, kept as its text.
class TomlDateTime {
  constructor(text) { this.text = text; }
  toString() { return this.text; }
}

const isTable = (v) => v !== null && typeof v === "object" && Object.getPrototypeOf(v) === null;
const has = (table, key) => Object.prototype.hasOwnProperty.call(table, key);

const INT_RE = /^[+-]?(?:0|[1-9](?:_?[0-9])*)$/;
const RADIX_RE = /^0(?:x[0-9A-Fa-f](?:_?[0-9A-Fa-f])*|o[0-7](?:_?[0-7])*|b[01](?:_?[01])*)$/;
const FLOAT_RE = /^[+-]?(?:0|[1-9](?:_?[0-9])*)(?:\.[0-9](?:_?[0-9])*)?(?:[eE][+-]?[0-9](?:_?[0-9])*)?$/;
const SPECIAL_RE = /^[+-]?(?:inf|nan)$/;
const DATE_RE = /^\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})?)?$/;
const TIME_RE = /^\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/;
const BARE_KEY_RE = /[A-Za-z0-9_-]+/y;
const SCALAR_RE = /[0-9A-Za-z_+\-.:]+/y;
const ESCAPES = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", '"': '"', "\\": "\\" };

function toInt(text) {
  const big = BigInt(text.replace(/_/g, ""));
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
}

// The TOML document: its root table (null-prototype objects) and the root's keys in file
// order (an object would put keys like "10" before "2").
function parseToml(text) {
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const root = Object.create(null);
  const order = [];
  const defined = new Set();  // tables given a [header]
  const closed = new Set();   // inline tables: nothing may be added later
  const tableArrays = new Set();
  let current = root;

  const fail = (message, at = i) => {
    const line = text.slice(0, at).split("\n").length;
    throw new PhhSyntaxError(`not valid TOML: line ${line}: ${message}`);
  };
  const newline = () => (text[i] === "\n" ? 1 : text[i] === "\r" && text[i + 1] === "\n" ? 2 : 0);
  const badControl = (ch) => (ch < " " && ch !== "\t") || ch === "\x7f";
  const skipSpaces = () => { while (text[i] === " " || text[i] === "\t") i++; };
  const skipComment = () => {
    if (text[i] !== "#") return;
    while (i < n && !newline()) {
      if (badControl(text[i])) fail("a control character in a comment");
      i++;
    }
  };
  const skipBlank = () => {  // spaces, newlines and comments (inside arrays)
    for (;;) {
      skipSpaces();
      skipComment();
      const k = newline();
      if (!k) return;
      i += k;
    }
  };
  const endOfLine = () => {
    skipSpaces();
    skipComment();
    if (i >= n) return;
    const k = newline();
    if (!k) fail(`expected the end of the line, got ${JSON.stringify(text.slice(i, i + 12))}`);
    i += k;
  };

  function escape() {
    const start = i;
    i++;  // the backslash
    const e = text[i++];
    if (e in ESCAPES) return ESCAPES[e];
    if (e === "u" || e === "U") {
      const digits = text.substr(i, e === "u" ? 4 : 8);
      if (!/^[0-9A-Fa-f]+$/.test(digits) || digits.length !== (e === "u" ? 4 : 8)) fail("a bad \\u escape", start);
      const code = parseInt(digits, 16);
      if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) fail("an escape that is not a Unicode scalar", start);
      i += digits.length;
      return String.fromCodePoint(code);
    }
    return fail(`an unknown escape \\${e || ""}`, start);
  }

  function basicString() {
    const start = i++;
    let out = "";
    for (;;) {
      if (i >= n || newline()) fail("a string not closed on its line", start);
      const ch = text[i];
      if (ch === '"') { i++; return out; }
      if (ch === "\\") { out += escape(); continue; }
      if (badControl(ch)) fail("a control character in a string");
      out += ch;
      i++;
    }
  }

  function literalString() {
    const start = i++;
    const end = text.indexOf("'", i);
    const stop = text.indexOf("\n", i);
    if (end < 0 || (stop >= 0 && stop < end)) fail("a string not closed on its line", start);
    const out = text.slice(i, end);
    if ([...out].some(badControl)) fail("a control character in a string");
    i = end + 1;
    return out;
  }

  function multiline(quote) {
    const start = i;
    i += 3;
    const k = newline();
    i += k;  // a newline right after the opening quotes is not part of the string
    let out = "";
    for (;;) {
      if (i >= n) fail("a multi-line string not closed", start);
      if (text.startsWith(quote.repeat(3), i)) {
        let q = 0;
        while (text[i + q] === quote) q++;
        if (q > 5) fail("too many quotes closing a multi-line string");
        out += quote.repeat(q - 3);
        i += q;
        return out;
      }
      const ch = text[i];
      if (quote === '"' && ch === "\\") {
        let j = i + 1;
        while (text[j] === " " || text[j] === "\t") j++;
        if (text[j] === "\n" || (text[j] === "\r" && text[j + 1] === "\n")) {
          i = j;  // a line-ending backslash: drop the newlines and spaces that follow
          while (i < n && /[ \t\r\n]/.test(text[i])) i++;
          continue;
        }
        out += escape();
        continue;
      }
      const nl = newline();
      if (nl) { out += text.slice(i, i + nl); i += nl; continue; }
      if (badControl(ch)) fail("a control character in a string");
      out += ch;
      i++;
    }
  }

  function key() {
    if (text[i] === '"') {
      if (text.startsWith('"""', i)) fail("a key cannot be a multi-line string");
      return basicString();
    }
    if (text[i] === "'") {
      if (text.startsWith("'''", i)) fail("a key cannot be a multi-line string");
      return literalString();
    }
    BARE_KEY_RE.lastIndex = i;
    const m = BARE_KEY_RE.exec(text);
    if (!m) fail(`expected a key, got ${JSON.stringify(text.slice(i, i + 12))}`);
    i += m[0].length;
    return m[0];
  }

  function dottedKey() {
    const keys = [key()];
    for (;;) {
      skipSpaces();
      if (text[i] !== ".") return keys;
      i++;
      skipSpaces();
      keys.push(key());
    }
  }

  function scalar() {
    const start = i;
    SCALAR_RE.lastIndex = i;
    const m = SCALAR_RE.exec(text);
    if (!m) fail(`expected a value, got ${JSON.stringify(text.slice(i, i + 12))}`);
    let token = m[0];
    i += token.length;
    if (/^\d{4}-\d{2}-\d{2}$/.test(token) && text[i] === " " && /^\d{2}:/.test(text.substr(i + 1, 3))) {
      SCALAR_RE.lastIndex = i + 1;
      const rest = SCALAR_RE.exec(text)[0];
      token += " " + rest;
      i += 1 + rest.length;
    }
    if (token === "true") return true;
    if (token === "false") return false;
    if (INT_RE.test(token) || RADIX_RE.test(token)) return toInt(token);
    if ((FLOAT_RE.test(token) && /[.eE]/.test(token)) || SPECIAL_RE.test(token)) return new TomlDecimal(token);
    if (DATE_RE.test(token) || TIME_RE.test(token)) return new TomlDateTime(token);
    return fail(`not a TOML value: ${JSON.stringify(token)}`, start);
  }

  function array() {
    i++;
    const out = [];
    for (;;) {
      skipBlank();
      if (text[i] === "]") { i++; return out; }
      if (i >= n) fail("an array not closed");
      out.push(value());
      skipBlank();
      if (text[i] === ",") { i++; continue; }
      if (text[i] === "]") { i++; return out; }
      fail("expected ',' or ']' in an array");
    }
  }

  function inlineTable() {
    const table = Object.create(null);
    i++;
    skipSpaces();
    if (text[i] === "}") { i++; closed.add(table); return table; }
    for (;;) {
      skipSpaces();
      const at = i;
      const keys = dottedKey();
      skipSpaces();
      if (text[i] !== "=") fail("expected '=' after a key");
      i++;
      skipSpaces();
      assign(table, keys, value(), at);
      skipSpaces();
      if (text[i] === ",") { i++; continue; }
      if (text[i] === "}") { i++; closed.add(table); return table; }
      fail("expected ',' or '}' in an inline table");
    }
  }

  function value() {
    const ch = text[i];
    if (ch === '"') return text.startsWith('"""', i) ? multiline('"') : basicString();
    if (ch === "'") return text.startsWith("'''", i) ? multiline("'") : literalString();
    if (ch === "[") return array();
    if (ch === "{") return inlineTable();
    return scalar();
  }

  function child(table, name, at) {  // the table under name, made when missing
    if (!has(table, name)) {
      table[name] = Object.create(null);
      if (table === root) order.push(name);
    }
    let v = table[name];
    if (Array.isArray(v) && tableArrays.has(v)) v = v[v.length - 1];
    if (!isTable(v) || closed.has(v)) fail(`${JSON.stringify(name)} is already a value`, at);
    return v;
  }

  function assign(table, keys, v, at) {
    let t = table;
    for (const name of keys.slice(0, -1)) t = child(t, name, at);
    const last = keys[keys.length - 1];
    if (has(t, last)) fail(`the key ${JSON.stringify(last)} is given twice`, at);
    t[last] = v;
    if (t === root) order.push(last);
  }

  function header() {
    const at = i;
    const many = text.startsWith("[[", i);
    i += many ? 2 : 1;
    skipSpaces();
    const keys = dottedKey();
    skipSpaces();
    if (!text.startsWith(many ? "]]" : "]", i)) fail("expected ']' closing a table header");
    i += many ? 2 : 1;
    let t = root;
    for (const name of keys.slice(0, -1)) t = child(t, name, at);
    const last = keys[keys.length - 1];
    if (many) {
      if (!has(t, last)) {
        t[last] = [];
        tableArrays.add(t[last]);
        if (t === root) order.push(last);
      }
      if (!tableArrays.has(t[last])) fail(`${JSON.stringify(last)} is already a value`, at);
      current = Object.create(null);
      t[last].push(current);
      return;
    }
    const existed = has(t, last);
    current = child(t, last, at);
    if (existed && defined.has(current)) fail(`the table [${keys.join(".")}] is given twice`, at);
    defined.add(current);
  }

  for (;;) {
    skipSpaces();
    if (i >= n) break;
    const k = newline();
    if (k) { i += k; continue; }
    if (text[i] === "#") { skipComment(); continue; }
    if (text[i] === "[") { header(); endOfLine(); continue; }
    const at = i;
    const keys = dottedKey();
    skipSpaces();
    if (text[i] !== "=") fail("expected '=' after a key");
    i++;
    skipSpaces();
    if (i >= n || newline() || text[i] === "#") fail("a key without a value");
    assign(current, keys, value(), at);
    endOfLine();
  }
  return { root, order };
}

// The hands of PHH or PHHS text, in file order: [{name, fields}]. A .phhs file is one
// table per hand ([1], [2], ...); anything else is a single hand, named "1".
function parsePhhs(text) {
  if (typeof text !== "string") throw new PhhSyntaxError("PHH text is a string");
  const { root, order } = parseToml(text);
  if (order.length === 0) return [];
  if (order.every((name) => isTable(root[name]))) {
    return order.map((name) => ({ name, fields: root[name] }));
  }
  return [{ name: "1", fields: root }];
}

// --- cards -----------------------------------------------------------------------------

// A deck from its ASCII codes in the deck's listed order.
function makeDeck(name, codes) {
  const index = new Map(codes.map((c, k) => [c, k]));
  const escaped = [...codes].sort((a, b) => b.length - a.length)  // longest first: M12 before M1
    .map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp(["\\?\\?", ...escaped].join("|"), "y");
  return { name, codes, index, pattern };
}

const deckCache = new WeakMap();

function deckOf(fields, deckOrders) {
  const given = has(fields, "_deck") ? fields._deck : "standard52";
  let decks = deckCache.get(deckOrders);
  if (!decks) { decks = new Map(); deckCache.set(deckOrders, decks); }
  const names = Object.keys(deckOrders);
  const name = typeof given === "string" ? names.find((d) => d.toLowerCase() === given.toLowerCase()) : undefined;
  if (name === undefined) {
    throw new FairError(`_deck: expected a built-in deck (${names.join(", ")}), got ${shown(given)}`);
  }
  if (!decks.has(name)) decks.set(name, makeDeck(name, deckOrders[name]));
  return decks.get(name);
}

// The cards of a PHH card token ("AcKd", "M10K3YZ", "????"): ASCII codes, null for ??.
function splitCards(token, deck, unknown = true) {
  const cards = [];
  let at = 0;
  while (at < token.length) {
    deck.pattern.lastIndex = at;
    const m = deck.pattern.exec(token);
    if (!m || (!unknown && m[0] === UNKNOWN_CARD)) {
      throw new FairError(`card token ${shown(token)}: ${shown(token.slice(at))} is not a ${deck.name} card`);
    }
    cards.push(m[0] === UNKNOWN_CARD ? null : m[0]);
    at += m[0].length;
  }
  if (cards.length === 0) throw new FairError("an empty card token");
  const known = cards.filter((c) => c !== null);
  if (new Set(known).size !== known.length) throw new FairError(`card token ${shown(token)} names a card twice`);
  return cards;
}

// Cards written as a list ("S8 D8 G1", as _shuffled_deck and _reshuffled write them).
function cardList(text, deck) {
  if (typeof text !== "string") throw new FairError(`expected cards as text, got ${shown(text)}`);
  const cards = [];
  for (const chunk of text.trim().split(/[\s,;]+/)) {
    if (!chunk) continue;
    if (deck.index.has(chunk)) { cards.push(chunk); continue; }
    try {
      cards.push(...splitCards(chunk, deck, false));
    } catch (e) {
      throw new FairError(`malformed card ${shown(chunk)} (the ${deck.name} deck has e.g. ${deck.codes[0]})`);
    }
  }
  const seen = new Set();
  for (const c of cards) {
    if (seen.has(c)) throw new FairError(`card ${c} is given twice`);
    seen.add(c);
  }
  return cards;
}

// A deal action ("d dh p1 AcKd", "d db AcKdQh") as {token, player} (player null for the
// board), or null for any other.
function dealt(text, players) {
  const words = text.split("#")[0].trim().split(/\s+/).filter(Boolean);
  if (words[0] !== "d") return null;
  if (words[1] === "db" && words.length === 3) return { token: words[2], player: null };
  if (words[1] === "dh" && words.length === 4) {
    const m = /^p([1-9][0-9]*)$/.exec(words[2]);
    if (m && Number(m[1]) <= players) return { token: words[3], player: Number(m[1]) };
  }
  throw new FairError("expected 'd dh pN CARDS' or 'd db CARDS'");
}

// The cards a player names in a show or a discard ("p1 sm AcKd", "p2 sd 7c"), as
// {verb, player, token}; null for any other action, a muck, a stand-pat or "sm -".
function named(text) {
  const words = text.split("#")[0].trim().split(/\s+/).filter(Boolean);
  const m = /^p([1-9][0-9]*)$/.exec(words[0] || "");
  if (!m || (words[1] !== "sm" && words[1] !== "sd") || words.length !== 3 || words[2] === "-") return null;
  return { verb: words[1] === "sm" ? "shows" : "discards", player: Number(m[1]), token: words[2] };
}

// --- checking a hand -------------------------------------------------------------------

function shown(value) {  // a value quoted for a message, as Python's repr would
  if (typeof value === "string") return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  if (value === undefined) return "None";
  if (value === true || value === false) return value ? "True" : "False";
  if (typeof value === "bigint" || typeof value === "number") return String(value);
  if (value instanceof TomlDecimal || value instanceof TomlDateTime) return value.text;
  try { return JSON.stringify(value); } catch (e) { return String(value); }
}

const verdict = (status, detail, practice = false) => ({ status, detail, practice });

function truthy(value) {  // as Python's bool() of the value tomllib gives
  if (Array.isArray(value)) return value.length > 0;
  if (value instanceof TomlDecimal) return value.valueOf() !== 0;
  if (isTable(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

// One hand (its fields, as parsePhhs gives them) against its fair-dealing fields:
// {status: 'verified' | 'unrevealed' | 'failed' | 'not fair-dealt', detail, practice}.
async function verifyHand(fields, deckOrders) {
  const practice = has(fields, "_practice") && truthy(fields._practice);
  if (!has(fields, "_commitment") && !has(fields, "_fair")) {
    return verdict("not fair-dealt", "the hand carries no fair-dealing fields", practice);
  }
  try {
    return await check(fields, deckOrders, practice);
  } catch (e) {
    const detail = e instanceof FairError ? e.message : `the check broke: ${e}`;
    return verdict("failed", detail, practice);
  }
}

async function check(fields, deckOrders, practice) {
  const scheme = fields._fair;
  if (scheme !== SCHEME) return verdict("failed", `unknown scheme ${shown(scheme)} (cardlab knows ${SCHEME})`);
  const promised = fields._commitment;
  if (typeof promised !== "string" || !HEX64.test(promised)) {
    return verdict("failed", `the commitment is not 64 hex digits: ${shown(promised).slice(0, 80)}`);
  }
  const seeds = fields._client_seeds;
  if (!Array.isArray(seeds)) return verdict("failed", "_client_seeds is not a list of strings");
  seeds.forEach(checkClientSeed);
  const number = fields._deal_number;
  if (!wholeNumber(number) || number < 0) {
    return verdict("failed", `_deal_number is not a whole number: ${shown(number).slice(0, 40)}`);
  }
  const stacks = fields.starting_stacks;
  if (!Array.isArray(stacks)) throw new FairError("the hand has no starting_stacks: its players are unknown");
  if (seeds.length !== stacks.length) {
    return verdict("failed", `${seeds.length} client seeds for ${stacks.length} players`);
  }
  if (!has(fields, "_server_seed")) {
    return verdict("unrevealed", `server seed not yet revealed (${promised.slice(0, 16)}...)`, practice);
  }
  const seedHex = fields._server_seed;
  if (typeof seedHex !== "string" || !HEX64.test(seedHex)) {
    throw new FairError(`a server seed is 64 lowercase hex digits: ${shown(seedHex).slice(0, 80)}`);
  }
  const seed = fromHex(seedHex);
  if ((await commitment(seed)) !== promised) {
    return verdict("failed", `the revealed server seed does not match the commitment ${promised.slice(0, 16)}...`, practice);
  }
  const deck = deckOf(fields, deckOrders);
  let cards = await shuffle(deck.codes, seed, seeds, number, 0);
  if (has(fields, "_shuffled_deck")) {
    const listed = cardList(fields._shuffled_deck, deck);
    for (let k = 0; k < Math.min(cards.length, listed.length); k++) {
      if (cards[k] !== listed[k]) {
        return verdict("failed", `_shuffled_deck card ${k + 1} is ${listed[k]}, the seeds give ${cards[k]}`, practice);
      }
    }
    if (listed.length !== cards.length) return verdict("failed", "_shuffled_deck has the wrong number of cards", practice);
  }
  const piles = has(fields, "_reshuffled") ? fields._reshuffled : [];
  if (!Array.isArray(piles)) return verdict("failed", "_reshuffled is not a list of card lists", practice);
  const actions = fields.actions;
  if (!Array.isArray(actions)) throw new FairError("the hand has no actions");

  // every card dealt in the actions, in order, against the deck from the top; every
  // card a player shows or discards by name, against the cards dealt to them
  let at = 0;
  let passes = 0;
  let count = 0;
  const given = new Set();
  const held = new Map();  // player -> the set of every card the deck dealt them
  for (let line = 1; line <= actions.length; line++) {
    const text = actions[line - 1];
    if (typeof text !== "string") throw new FairError(`actions[${line - 1}] is not a string: ${shown(text)}`);
    const shows = named(text);
    if (shows !== null) {
      const mine = held.get(shows.player) || new Set();
      for (const card of splitCards(shows.token, deck)) {
        if (card !== null && !mine.has(card)) {
          return verdict("failed", `action ${line} (${shown(text)}) ${shows.verb} ${card}, ` +
            `which the deck did not deal to p${shows.player}`, practice);
        }
      }
      continue;
    }
    let deal;
    try {
      deal = dealt(text, stacks.length);
    } catch (e) {
      throw new FairError(`action ${line} (${shown(text)}): ${e.message}`);
    }
    if (deal === null) continue;
    if (deal.player !== null && !held.has(deal.player)) held.set(deal.player, new Set());
    for (const card of splitCards(deal.token, deck)) {
      if (at === cards.length) {
        if (passes >= piles.length) {
          return verdict("failed", `action ${line} (${shown(text)}) deals past the deck's last card ` +
            "and the hand records no reshuffle", practice);
        }
        const pile = cardList(piles[passes], deck);
        const stray = pile.filter((c) => !given.has(c));
        if (stray.length) {
          return verdict("failed", `reshuffle ${passes + 1} holds cards never dealt: ${stray.join(" ")}`, practice);
        }
        passes += 1;
        const ordered = pile.slice().sort((a, b) => deck.index.get(a) - deck.index.get(b));
        cards = await shuffle(ordered, seed, seeds, number, passes);
        at = 0;
        if (cards.length === 0) return verdict("failed", "a reshuffle of no cards", practice);
      }
      const want = cards[at];
      at += 1;
      count += 1;
      if (card !== null && card !== want) {
        return verdict("failed", `card ${count} dealt (action ${line}: ${shown(text)}) is ${card}, ` +
          `the deck has ${want}`, practice);
      }
      given.add(want);
      if (deal.player !== null) held.get(deal.player).add(want);
    }
  }
  const reshuffles = passes ? `, ${passes} reshuffle(s)` : "";
  return verdict("verified", `${count} cards dealt in order from the deck${reshuffles}`, practice);
}

// Every hand of PHH or PHHS text: [{hand (1, 2, ... in file order), name (the [N] of the
// file), status, detail, practice, deal}]. Text that is not TOML throws PhhSyntaxError.
async function verifyText(text, deckOrders) {
  const orders = deckOrders || pageDeckOrders();
  const hands = parsePhhs(text);
  const out = [];
  for (let k = 0; k < hands.length; k++) {
    const { name, fields } = hands[k];
    const v = await verifyHand(fields, orders);
    const deal = wholeNumber(fields._deal_number) ? fields._deal_number : null;
    out.push({ hand: k + 1, name, status: v.status, detail: v.detail, practice: v.practice, deal });
  }
  return out;
}

// The deck orders the page was given (<script type="application/json" id="deck-orders">).
function pageDeckOrders() {
  const tag = document.getElementById("deck-orders");
  if (!tag) throw new Error("this page has no deck orders (#deck-orders)");
  return JSON.parse(tag.textContent);
}

export const fair = {
  SCHEME,
  useFallback: false,
  get usingWebCrypto() { return subtle() !== null; },
  commitment,
  shuffle,
  streamMessage,
  sha256: async (bytes) => toHex(await sha256(toUint8(bytes))),
  hmacSha256: async (key, message) => toHex(await hmacSha256(key, message)),
  parseToml,
  parsePhhs,
  splitCards: (token, codes, name = "") => splitCards(token, makeDeck(name, codes)),
  verifyHand: (fields, deckOrders) => verifyHand(fields, deckOrders || pageDeckOrders()),
  verifyText,
  pageDeckOrders,
  FairError,
  PhhSyntaxError,
  TomlDecimal,
  TomlDateTime,
};
window.cardlabFair = fair;  // for the console and the browser tests

export { FairError, PhhSyntaxError, verifyText, parsePhhs, pageDeckOrders };
