// The page /verify: paste or drop a PHH/PHHS file, every hand is checked in this browser
// by fair.js (the scheme of docs/fair-dealing.md).
import { $, h } from "./dom.js";
import { busy } from "./api.js";
import { verifyText, pageDeckOrders, PhhSyntaxError } from "./fair.js";

const LABELS = { verified: "verified", unrevealed: "not yet revealed", failed: "failed", "not fair-dealt": "not fair-dealt" };

function startPage() {
  const area = $("fv-text"), file = $("fv-file"), run = $("fv-run");
  const table = $("fv-results"), rows = $("fv-rows"), summary = $("fv-summary"), error = $("fv-error");
  const cell = (cls, text) => h("td", { class: cls }, text);

  async function go() {
    table.dataset.state = "running";
    run.disabled = true;
    error.hidden = true;
    rows.replaceChildren();
    busy(1);
    try {
      const results = await verifyText(area.value, pageDeckOrders());
      for (const r of results) {
        const label = r.name === String(r.hand) ? String(r.hand) : `${r.hand} [${r.name}]`;
        rows.append(h("tr", { class: "fv-" + r.status.replace(/\W+/g, "-"), "data-hand": r.hand, "data-status": r.status },
          cell("fv-hand", label), cell("fv-status", LABELS[r.status] + (r.practice ? " (practice)" : "")),
          cell("fv-detail", r.detail)));
      }
      const counts = {};
      for (const r of results) counts[r.status] = (counts[r.status] || 0) + 1;
      const parts = Object.keys(LABELS).filter((s) => counts[s]).map((s) => `${counts[s]} ${LABELS[s]}`);
      summary.textContent = results.length
        ? `${results.length} hand${results.length === 1 ? "" : "s"}: ${parts.join(", ")}.`
        : "No hands in this text.";
      table.dataset.state = "done";
    } catch (e) {
      error.textContent = e instanceof PhhSyntaxError ? `This is not a PHH file: ${e.message}` : String(e);
      error.hidden = false;
      summary.textContent = "No hands checked.";
      table.dataset.state = "error";
    } finally {
      run.disabled = false;
      busy(-1);
    }
  }

  run.addEventListener("click", go);
  file.addEventListener("change", async () => {
    const chosen = file.files && file.files[0];
    if (!chosen) return;
    area.value = await chosen.text();
    await go();
  });
}

if ($("fv-run")) startPage();
