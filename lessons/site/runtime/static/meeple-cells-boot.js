// meeple on the course site: the few lines every page with an exercise loads (issue 24 item 3).
// Each exercise cell gets "✎ Edit and run"; the first click loads meeple-cells.js (the editor
// bar, the runner) and the editor, so a page nobody edits stays light. A reader's saved edit
// (localStorage) loads them at once, to show it.
(function () {
  "use strict";
  const here = document.currentScript.src.replace(/[^/]*$/, "");
  const page = decodeURIComponent(location.pathname.split("/").pop() || "index.html").replace(/\.html$/, "");
  let loading = null;
  function load(k) {
    globalThis.meepleCellsOpen = k;  // the cell to open in the editor once loaded
    if (!loading) {
      loading = true;
      const s = document.createElement("script");
      s.src = here + "meeple-cells.js";
      // the file did not come (offline, a dropped connection): each cell says so in one line and
      // offers the click again, which loads it afresh (no reload)
      s.onerror = () => {
        loading = null;
        s.remove();
        document.querySelectorAll(".meeple-cell-boot").forEach((bar) => {
          const [b, t] = bar.children;
          b.disabled = false;
          b.textContent = "↻ Try again";
          t.textContent = "The editor did not load (meeple-cells.js): check your connection, then try again.";
        });
      };
      document.head.appendChild(s);
    }
  }
  function setUp() {
    const roots = document.querySelectorAll(".cell.tag_meeple-exercise");
    roots.forEach((root, k) => {
      const bar = document.createElement("div");
      bar.className = "meeple-cell-bar meeple-cell-boot";
      bar.style.cssText = "display:flex;flex-wrap:wrap;gap:.5em;align-items:center;margin:.3em 0;font-size:.9em";
      const b = document.createElement("button");
      b.className = "meeple-cell-edit";
      b.textContent = "✎ Edit and run";
      b.style.cssText = "font:inherit;padding:.15em .7em;border:1px solid #888;border-radius:4px;background:#f6f6f6;cursor:pointer";
      const t = document.createElement("span");
      t.textContent = "Exercise: edit this cell and run it here; Python runs in your browser.";
      t.style.color = "#555";
      bar.append(b, t);
      root.prepend(bar);
      b.addEventListener("click", () => { b.disabled = true; t.textContent = "Loading the editor"; load(k); });
    });
    const saved = [...roots].findIndex((_, k) => localStorage.getItem(`meeple-cells:${page}:${k}`) !== null);
    if (saved >= 0) load(-1);  // show the reader's edits (meeple-cells.js opens every edited cell)
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
