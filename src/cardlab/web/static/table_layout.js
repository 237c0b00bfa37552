// Where things go on a table's felt (px: the felt's own size, as drawn): the seats on
// the oval, each bet and the button between its seat and the middle, clear of the
// board and of the other seats; and the chips that fly to the pot and back.
import { h } from "./dom.js";

const box = (x, y, w, hgt, margin) => ({ l: x - w / 2 - margin, r: x + w / 2 + margin, t: y - hgt / 2 - margin, b: y + hgt / 2 + margin });
const overlap = (a, b) => a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;

// Places the children of ``seats`` (each with data-angle) and of ``bets`` (.pt-bet and
// .pt-dealer, each with data-seat) on ``felt`` around ``middle``; returns seat ->
// {seat: [x, y], bet: [x, y]} (empty when nothing is drawn or the felt has no size).
export function layout(felt, seats, bets, middle) {
  const spots = new Map();
  const W = felt.clientWidth;
  const H = felt.clientHeight;
  const seatEls = [...seats.children];
  if (!seatEls.length || !W) return spots;
  let sw = 0;
  let sh = 0;
  for (const e of seatEls) { sw = Math.max(sw, e.offsetWidth); sh = Math.max(sh, e.offsetHeight); }
  felt.style.setProperty("--oval-x", `${sw / 2}px`);
  felt.style.setProperty("--oval-y", `${sh / 2}px`);
  const rx = W / 2 - sw / 2;
  const ry = H / 2 - sh / 2;
  const boxes = [];
  for (const e of seatEls) {
    const a = Number(e.dataset.angle);
    const x = W / 2 + rx * Math.cos(a);
    const y = H / 2 + ry * Math.sin(a);
    e.style.left = `${x - e.offsetWidth / 2}px`;
    e.style.top = `${y - e.offsetHeight / 2}px`;
    e.style.setProperty("--from-x", `${W / 2 - x}px`);  // dealt cards come from the middle
    e.style.setProperty("--from-y", `${H / 2 - y}px`);
    boxes.push(box(x, y, e.offsetWidth, e.offsetHeight, 2));
    spots.set(e.dataset.seat, { seat: [x, y] });
  }
  boxes.push(box(W / 2, H / 2, middle.offsetWidth, middle.offsetHeight, 6));
  const place = (e, avoid, reach) => {
    const [sx, sy] = spots.get(e.dataset.seat).seat;
    const w = e.offsetWidth;
    const hgt = e.offsetHeight;
    const dx = sx - W / 2;
    const dy = sy - H / 2;
    const len = Math.hypot(dx, dy) || 1;
    const [px, py] = [-dy / len, dx / len];  // across the line to the seat
    let best = null;
    for (const side of [0, 1, -1, 2, -2]) {
      for (const f of reach) {
        const x = W / 2 + dx * f + px * side * (hgt + 4);
        const y = H / 2 + dy * f + py * side * (hgt + 4);
        const b = box(x, y, w, hgt, 0);
        if (b.l < 0 || b.t < 0 || b.r > W || b.b > H) continue;
        if (!boxes.some((o) => overlap(b, o)) && !avoid.some((o) => overlap(b, o))) { best = [x, y]; break; }
      }
      if (best) break;
    }
    if (!best) best = [W / 2 + dx * reach[0], H / 2 + dy * reach[0]];
    e.style.left = `${best[0] - w / 2}px`;
    e.style.top = `${best[1] - hgt / 2}px`;
    e.style.setProperty("--from-x", `${sx - best[0]}px`);  // a bet comes from its seat
    e.style.setProperty("--from-y", `${sy - best[1]}px`);
    return best;
  };
  const placed = [];
  for (const e of bets.querySelectorAll(".pt-bet[data-seat]")) {
    const [x, y] = place(e, placed, [0.58, 0.5, 0.66, 0.44, 0.74, 0.38, 0.8]);
    spots.get(e.dataset.seat).bet = [x, y];
    placed.push(box(x, y, e.offsetWidth, e.offsetHeight, 2));
  }
  for (const e of bets.querySelectorAll(".pt-dealer")) {
    const [x, y] = place(e, placed, [0.7, 0.64, 0.76, 0.58, 0.5, 0.82]);
    placed.push(box(x, y, e.offsetWidth, e.offsetHeight, 2));
  }
  return spots;
}

// Chips (``amount``) flying over ``felt`` from one point to another, then gone.
export function ghost(felt, from, to, amount) {
  const g = h("div", { class: "pt-bet pt-ghost" }, h("span", { class: "pt-chip" }), h("span", {}, String(amount || "")));
  felt.append(g);  // not among the bets: a new state does not cut it short
  g.style.left = `${from[0] - g.offsetWidth / 2}px`;
  g.style.top = `${from[1] - g.offsetHeight / 2}px`;
  g.style.setProperty("--to-x", `${to[0] - from[0]}px`);
  g.style.setProperty("--to-y", `${to[1] - from[1]}px`);
  const gone = () => g.remove();
  g.addEventListener("animationend", gone);
  setTimeout(gone, 1200);
}
