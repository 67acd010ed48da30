// meeple on the course site: every exercise cell, and every worked example that runs in the
// browser, is editable and runs in the reader's browser (issues 24 and 38).
// Loaded by meeple-cells-boot.js when a reader first clicks "Edit and run" (or has saved edits).
//
// The build tags each exercise cell (class tag_meeple-exercise) and each worked example the
// build's dry run ran without pandas, altair or a widget library (tag_meeple-example), and writes
// the lesson's code cells to _static/cells/<page>.json (lessons/site/cells.py). Here each gets a bar:
//  - "Edit": a code editor (CodeMirror 6, bundled from npm at build time, loaded on first use);
//  - "Run" (or Shift+Enter in the editor): Python (Pyodide, the page's one worker from
//    meeple-live.js) runs what the cell needs of the lesson's cells above it, once
//    (meeple.course.site.runtime.cells.Page.prepare; what cannot run in the browser is skipped and said
//    when it matters), then the reader's cell, so
//    check() answers here as in JupyterLab ("✓ Right: ..." / "✗ ...");
//  - "Reset" puts the lesson's code back; "Download notebook" gives the lesson with the
//    reader's cells in it. Edits are kept in this browser (localStorage) across reloads.
//  - a cell whose value is a Stepper: the game is drawn under it, live (the Stepper's own
//    front end, driving the very game the cell made: a later cell sees the moves made there).
// No rule and no checker lives here: Python decides, this file only carries text.
// Each runnable cell carries data-meeple-cell = static | starting | running | done.
(function () {
  "use strict";
  const here = document.currentScript.src.replace(/[^/]*$/, "");
  const EDITOR = here + "__EDITOR_DIR__/meeple-editor.js";  // the folder is written by the build
  const pageName = decodeURIComponent(location.pathname.split("/").pop() || "index.html").replace(/\.html$/, "");
  // an exercise's edit is kept under its number among the exercises, a worked example's under "e" and its number
  const storeKey = (key) => `meeple-cells:${pageName}:${key}`;
  const KINDS = [{ kind: "exercise", prefix: "" }, { kind: "example", prefix: "e" }];
  let data = null;  // the lesson's cells file
  let editorReady = null;
  let queue = Promise.resolve();  // one cell at a time: one Python, one namespace
  const cells = [];  // {root, index (in data.cells), original, view?, bar, out, status}

  // Each site script writes its own small el(): the pages load each script on its own, with no module to share.
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function style() {
    const s = document.createElement("style");
    s.textContent = `
.meeple-cell-bar{display:flex;flex-wrap:wrap;gap:.4em;align-items:center;margin:.3em 0;font-size:.9em}
.meeple-cell-bar button{font:inherit;padding:.15em .7em;border:1px solid #888;border-radius:4px;background:#f6f6f6;cursor:pointer}
.meeple-cell-bar button:disabled{opacity:.5;cursor:default}
.meeple-cell-bar .meeple-cell-run{background:#2a6ebb;border-color:#2a6ebb;color:#fff}
.meeple-cell-status{color:#555;flex:1 1 100%;min-width:0}
.meeple-cell-editor{border:1px solid #bbb;border-radius:4px;max-width:100%;overflow:hidden}
.meeple-cell-editor .cm-editor{max-height:32em}
.meeple-cell-editor .cm-scroller{font-family:SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em}
.meeple-cell-output{margin:.3em 0 1em;padding:.4em .6em;border-left:3px solid #bbb;background:#fafafa;
  white-space:pre-wrap;overflow-wrap:anywhere;font-family:SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em}
.meeple-cell-output[data-result=right]{border-color:#2e8b57}
.meeple-cell-output[data-result=wrong],.meeple-cell-output[data-result=error]{border-color:#c0392b}
.meeple-cell-output .meeple-cell-error{color:#c0392b}
.meeple-cell-widget{margin:.3em 0 1em}
.cell>.cell_output[hidden]{display:none!important}`;
    document.head.appendChild(s);
  }

  function loadEditor() {
    if (!editorReady) {
      editorReady = new Promise((resolve, reject) => {
        const s = document.createElement("script");
        s.src = EDITOR;
        s.onload = () => resolve(globalThis.MeepleEditor);
        s.onerror = () => { editorReady = null; reject(new Error("the editor (" + EDITOR + ") did not load")); };
        document.head.appendChild(s);
      });
    }
    return editorReady;
  }

  function loadData() {
    if (!data) {
      data = fetch(here + "cells/" + encodeURIComponent(pageName) + ".json").then((r) => {
        if (!r.ok) throw new Error(`this page's cells (_static/cells/${pageName}.json) are missing: ${r.status}`);
        return r.json();
      });
      data.catch(() => { data = null; });  // a failed load is not kept: the next run asks again
    }
    return data;
  }

  const code = (c) => (c.view ? c.view.state.doc.toString() : (localStorage.getItem(storeKey(c.key)) ?? c.original));

  async function edit(c) {
    if (c.view) { c.view.focus(); return; }
    c.status.textContent = "Loading the editor";
    let E;
    try {
      E = await loadEditor();
    } catch (err) {  // one line, and the button loads it afresh (loadEditor forgets a failed load)
      c.status.textContent = `The editor did not load (${err.message}): check your connection, then try again.`;
      c.editBtn.textContent = "↻ Try again";
      c.editBtn.disabled = false;
      return;
    }
    const host = el("div", "meeple-cell-editor");
    const input = c.root.querySelector(".cell_input");
    const runKey = E.Prec.highest(E.keymap.of([{ key: "Shift-Enter", run: () => { run(c); return true; } }]));
    c.view = new E.EditorView({
      doc: code(c),
      extensions: [E.basicSetup, E.python(), E.keymap.of([E.indentWithTab]), runKey,
        E.EditorView.lineWrapping,
        E.EditorView.updateListener.of((u) => {
          if (!u.docChanged) return;
          const text = u.state.doc.toString();
          if (text === c.original) localStorage.removeItem(storeKey(c.key));
          else localStorage.setItem(storeKey(c.key), text);
          c.reset.disabled = text === c.original;
        })],
    });
    host.appendChild(c.view.dom);
    input.replaceWith(host);
    c.input = host;
    c.editBtn.remove();
    c.status.textContent = "Editing: Shift+Enter or Run runs the cell in your browser. Your edits are kept in this browser.";
    c.view.focus();
  }

  function startStatus(c) {
    const t0 = performance.now();
    let stage = "Starting Python in your browser";
    const show = () => { c.status.textContent = `${stage} (${((performance.now() - t0) / 1000).toFixed(0)} s)`; };
    show();
    const timer = setInterval(show, 500);
    return { set: (s) => { stage = s; show(); }, stop: () => clearInterval(timer) };
  }

  function run(c) {
    if (location.protocol === "file:") return;
    c.runBtn.disabled = true;
    c.root.dataset.meepleCell = "starting";
    const job = queue.then(async () => {
      const tick = startStatus(c);
      try {
        await globalThis.meepleLive.startPython((s) => tick.set(s));
        const d = await loadData();
        const call = (op, text) => globalThis.meepleLive.call("cell", { op, page: pageName, code: text });
        // what this cell needs of the lesson above (exercises above as the reader left them), once each
        const above = d.cells.slice(0, c.index).map((x, i) => {
          const mine = cells.find((y) => y.index === i);
          return mine ? code(mine) : x.source;
        });
        tick.set("Running what your cell needs of the lesson above");
        const prep = JSON.parse(await call("prepare", JSON.stringify({ above, code: code(c) })));
        const skipped = prep.skipped.length;
        tick.set("Running your cell");
        c.root.dataset.meepleCell = "running";
        const r = JSON.parse(await call("run", code(c)));
        tick.stop();
        show(c, r);
        if (r.widget) {
          await drawWidget(c, r.widget, d).catch((err) => {  // the game as text, and why it is not drawn
            show(c, { out: (r.out || "") + r.widget.text + "\n", error: `(The game could not be drawn here: ${err.message}.)` });
          });
        }
        const py = globalThis.meepleLive.started;
        c.status.textContent = `Ran in your browser (Python ${py && py.version ? py.version : ""}).` +
          (skipped && r.error ? ` ${skipped} statement(s) of the lesson above need pandas, altair or widgets and did not run here.` : "");
      } catch (err) {
        tick.stop();
        show(c, { out: "", error: "Could not run: " + err.message });
        c.status.textContent = globalThis.meepleLive.started ? "Could not run."
          : globalThis.meepleLive.failure(err) + " (Run starts it again.)";
      } finally {
        c.root.dataset.meepleCell = "done";
        c.runBtn.disabled = false;
      }
    });
    queue = job.catch(() => {});
    return job;
  }

  function show(c, r) {
    c.out.replaceChildren();
    if (r.out) c.out.appendChild(document.createTextNode(r.out));
    if (r.error) c.out.appendChild(el("span", "meeple-cell-error", r.error));
    const text = (r.out || "") + (r.error || "");
    c.out.dataset.result = r.error ? "error" : /✗/.test(text) ? "wrong" : /✓/.test(text) ? "right" : "ran";
    c.out.hidden = !text;
    builtOutput(c).forEach((o) => { o.hidden = true; });  // the build's output is of the lesson's code, not this run's
  }

  // A Stepper the cell made, drawn under its output by the Stepper's own front end (the file the build
  // put in _static/widgets/, named in the cells file), on a model of the very session the cell holds.
  const loaded = new Map();
  function once(url, make) {
    if (!loaded.has(url)) {
      const p = make(url);
      loaded.set(url, p);
      p.catch(() => loaded.delete(url));  // a failed load is asked again on the next run
    }
    return loaded.get(url);
  }
  async function drawWidget(c, w, d) {
    if (w.kind !== "stepper" || !d.stepper) throw new Error("this page names no Stepper front end");
    once(here + d.stepper.css, (url) => new Promise((resolve, reject) => {
      const link = el("link");
      link.rel = "stylesheet";
      link.href = url;
      link.onload = resolve;
      link.onerror = () => { link.remove(); reject(new Error(url)); };
      document.head.appendChild(link);
    })).catch(() => {});
    const mod = await once(here + d.stepper.esm, (url) => import(url));
    let widget = mod.default !== undefined ? mod.default : mod;
    if (typeof widget === "function") widget = await widget();
    const model = globalThis.meepleLive.attach(w.id, w.view);
    const host = el("div", "meeple-cell-widget");
    if (widget.initialize) await widget.initialize({ model });
    await widget.render({ model, el: host });
    if (c.widget) c.widget.remove();
    c.widget = host;
    c.out.after(host);
    const root = host.querySelector(".meeple-stepper");
    if (root) root.dataset.meepleLive = "live";
  }

  // The output the site's build wrote under this cell (of the lesson's own code): hidden once the cell
  // has run here, shown again by Reset (the code is the lesson's again).
  const builtOutput = (c) => c.root.querySelectorAll(":scope > .cell_output");

  function reset(c) {
    localStorage.removeItem(storeKey(c.key));
    if (c.view) c.view.dispatch({ changes: { from: 0, to: c.view.state.doc.length, insert: c.original } });
    c.reset.disabled = true;
    c.out.hidden = true;
    if (c.widget) { c.widget.remove(); c.widget = null; }
    builtOutput(c).forEach((o) => { o.hidden = false; });
  }

  // The notebook as the download button offers it (_sources/), with the reader's cells in place.
  async function download() {
    const r = await fetch(`_sources/${encodeURIComponent(pageName)}.ipynb`);
    if (!r.ok) throw new Error(`the notebook (_sources/${pageName}.ipynb) is missing: ${r.status}`);
    const nb = await r.json();
    // the cells file lists the lesson's code cells that are not answers, in order (lessons/site/cells.py page_cells)
    let i = 0;
    nb.cells.forEach((cell) => {
      const tags = (cell.metadata && cell.metadata.tags) || [];
      if (cell.cell_type !== "code" || tags.includes("solution")) return;
      const at = i++;
      const c = cells.find((x) => x.index === at);
      if (c) cell.source = code(c);
    });
    const blob = new Blob([JSON.stringify(nb, null, 1) + "\n"], { type: "application/x-ipynb+json" });
    const a = el("a");
    a.href = URL.createObjectURL(blob);
    a.download = `${pageName}.ipynb`;
    document.body.appendChild(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }

  // what a reader does with the downloaded notebook: the package (the wheel this site serves, the
  // very version the page runs, or PyPI's), then any notebook host
  async function ranHow() {
    let wheel = "meeple";
    try {
      wheel = new URL((await (await fetch(here + "meeple-site.json")).json()).wheel, here).href;
    } catch (err) { /* PyPI's, then */ }
    return `Saved ${pageName}.ipynb with your edits. To run it on your computer: pip install "${wheel}" jupyterlab, ` +
      `then jupyter lab ${pageName}.ipynb (meeple lessons DIR copies every lesson into DIR to run the same way).`;
  }

  async function setUp() {
    const roots = [...document.querySelectorAll(".cell.tag_meeple-exercise, .cell.tag_meeple-example")];
    if (!roots.length) return;
    document.querySelectorAll(".meeple-cell-boot").forEach((b) => b.remove());  // meeple-cells-boot.js's
    style();
    let d;
    try {
      d = await loadData();
    } catch (err) {
      roots.forEach((root) => root.prepend(el("div", "meeple-cell-bar", "This cell cannot run here: " + err.message)));
      return;
    }
    KINDS.forEach(({ kind, prefix }) => {
      const mine = d.cells.map((x, i) => [x, i]).filter(([x]) => x.kind === kind);
      document.querySelectorAll(`.cell.tag_meeple-${kind}`).forEach((root, k) => {
        const [entry, index] = mine[k] || [null, -1];
        if (entry) setUpCell(root, kind, `${prefix}${k}`, entry, index);
      });
    });
    cells.sort((a, b) => a.index - b.index);
  }

  function setUpCell(root, kind, key, entry, index) {
    {
      const bar = el("div", "meeple-cell-bar");
      const c = { root, kind, key, index, original: entry.source, bar };
      c.editBtn = el("button", "meeple-cell-edit", "✎ Edit");
      c.runBtn = el("button", "meeple-cell-run", "▶ Run");
      c.reset = el("button", "meeple-cell-reset", "↺ Reset");
      const dl = el("button", "meeple-cell-download", "⤓ Notebook with your edits");
      c.status = el("span", "meeple-cell-status", (kind === "exercise" ? "Exercise: edit this cell and run it here"
        : "Worked example: change it and run it here") + "; Python runs in your browser (the first start downloads about 13 MB).");
      c.out = el("div", "meeple-cell-output");
      c.out.hidden = true;
      c.reset.disabled = localStorage.getItem(storeKey(key)) === null;
      root.dataset.meepleCell = "static";
      bar.append(c.editBtn, c.runBtn, c.reset, dl, c.status);
      root.prepend(bar);
      const input = root.querySelector(".cell_input");
      (input || bar).after(c.out);
      c.editBtn.addEventListener("click", () => edit(c));
      c.runBtn.addEventListener("click", () => run(c));
      c.reset.addEventListener("click", () => reset(c));
      dl.title = `${pageName}.ipynb with your cells in it, to run on your own computer`;
      dl.addEventListener("click", () => download().then(ranHow).then((how) => { c.status.textContent = how; })
        .catch((err) => { c.status.textContent = "Could not download: " + err.message; }));
      if (location.protocol === "file:") {
        c.runBtn.disabled = true;
        c.status.textContent = "Running a cell needs the site served by a web server (browsers start no Python " +
          "worker from a file:// page): python -m http.server --directory <the site folder>, then open http://localhost:8000.";
      }
      cells.push(c);
      // the reader's edit, back after a reload; and the cell whose "Edit and run" loaded this file
      if (localStorage.getItem(storeKey(key)) !== null || globalThis.meepleCellsOpen === storeKey(key)) edit(c);
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
  globalThis.meepleCells = { cells, run: (k) => run(cells[k]) };  // cells in the lesson's order
})();
