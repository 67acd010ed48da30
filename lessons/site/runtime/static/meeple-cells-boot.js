// meeple on the course site: the few lines every page with code cells loads (issues 24 and 38).
// Each exercise and each worked example that runs in the browser gets "✎ Edit and run"; the first
// click loads meeple-cells.js (the editor bar, the runner) and the editor, so a page nobody edits
// stays light. A reader's saved edit (localStorage) loads them at once, to show it. A cell that
// needs what only a computer's Python has (pandas, altair, a widget library: the build's dry run
// found it so, lessons/site/dry_run.py) says so in one line, and how to run the lesson there.
(function () {
  "use strict";
  const here = document.currentScript.src.replace(/[^/]*$/, "");
  const page = decodeURIComponent(location.pathname.split("/").pop() || "index.html").replace(/\.html$/, "");
  // the runnable kinds, each with its own localStorage keys (an exercise's key is its number, as before)
  const KINDS = [
    { tag: "meeple-exercise", prefix: "", words: "Exercise: edit this cell and run it here; Python runs in your browser." },
    { tag: "meeple-example", prefix: "e", words: "Worked example: change it and run it here; Python runs in your browser." },
  ];
  const keyOf = (kind, k) => `meeple-cells:${page}:${kind.prefix}${k}`;
  let loading = null;
  function load(key) {
    globalThis.meepleCellsOpen = key;  // the cell to open in the editor once loaded
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
  const WIDGETS = ["anywidget", "ipywidgets", "traitlets", "IPython"];  // a notebook widget (or its display)
  function needs(root) {
    const tag = [...root.classList].find((c) => c.startsWith("tag_meeple-needs-"));
    return tag ? tag.slice("tag_meeple-needs-".length) : "";
  }
  function saying(what) {
    if (WIDGETS.includes(what)) {  // the page's saved widget is there, live once Python starts (meeple-live.js)
      return "This cell makes a notebook widget: where the page shows it, it works once Python starts. " +
        "To change the cell's code, run the lesson on your computer ";
    }
    return (what ? `Runs on a computer, not here: this cell needs ${what}, which Python in your browser does not have.`
      : "Runs on a computer, not here: this cell uses what only the lesson's full Python has (pandas' tables).") +
      " To run it: pip install meeple jupyterlab, then meeple lessons DIR and open this lesson in JupyterLab ";
  }
  function setUp() {
    let saved = false;
    KINDS.forEach((kind) => {
      document.querySelectorAll(`.cell.tag_${kind.tag}`).forEach((root, k) => {
        const bar = document.createElement("div");
        bar.className = "meeple-cell-bar meeple-cell-boot";
        bar.style.cssText = "display:flex;flex-wrap:wrap;gap:.5em;align-items:center;margin:.3em 0;font-size:.9em";
        const b = document.createElement("button");
        b.className = "meeple-cell-edit";
        b.textContent = "✎ Edit and run";
        b.style.cssText = "font:inherit;padding:.15em .7em;border:1px solid #767676;border-radius:4px;background:#f6f6f6;color:#222;cursor:pointer";
        const t = document.createElement("span");
        t.textContent = kind.words;
        t.style.color = "#555";
        bar.append(b, t);
        root.prepend(bar);
        const key = keyOf(kind, k);
        b.addEventListener("click", () => { b.disabled = true; t.textContent = "Loading the editor"; load(key); });
        saved = saved || localStorage.getItem(key) !== null;
      });
    });
    document.querySelectorAll(".cell.tag_meeple-local").forEach((root) => {
      const note = document.createElement("div");
      note.className = "meeple-cell-bar meeple-cell-local";
      note.style.cssText = "margin:.3em 0;font-size:.9em;color:#555";
      note.textContent = saying(needs(root));
      const how = document.createElement("a");
      how.href = "intro.html#run-locally";
      how.textContent = "(how to run the lessons on your computer)";
      note.append(how, ".");
      root.prepend(note);
    });
    if (saved) load(null);  // show the reader's edits (meeple-cells.js opens every edited cell)
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
