// meeple Explorer: draws the `view` and `charts` that ExplorerSession computes; sends the reader's moves.
// No rules and no numbers are made here. One front end, three ways to be fed:
//  - in a kernel (JupyterLab, Notebook 7, VS Code, marimo): `model` is the anywidget model of
//    meeple.widgets.Explorer;
//  - on the course site before Python starts: the model the site's loader built from the page's
//    saved state (every value was played when the site was built): the slider moves over those
//    numbers; the other controls say they need Python, and "Start Python" starts it for the page;
//  - on the site after: a model fed by the same ExplorerSession in a Web Worker (meeple-live.js).
// The charts are Vega-Lite drawn by vega-embed, which this module carries once (bundled with it:
// meeple.widgets.explorer.front_end() bundles this file with vl-convert's copy of vega-embed). The ring on the value under
// the slider is a Vega parameter: a move to a value already played only sets it.

// Two ways to draw. In a kernel this file is bundled with vega-embed (vl-convert's javascript_bundle
// resolves `vegaEmbed`: no import here). On the course site it is served as it is, next to the
// site's one Vega (lessons/site/build.py names the folders): the page's saved charts were compiled
// to Vega at build time, so drawing them needs Vega alone; Vega-Lite (to compile what the browser's
// Python sends after "Start Python") is loaded only then.
const BUNDLED = typeof vegaEmbed !== "undefined" ? vegaEmbed : null;
const VEGA_JS = "../vega/vega.min.js";
const VEGA_LITE_JS = "../vega-lite/vega-lite.min.js";
// A classic script of the site, once per page whoever asks first (the controls' and the charts'
// front ends share this map: one Vega a page): its global once loaded.
function script(path, name) {
  const url = new URL(path, import.meta.url).href;
  const all = (globalThis.__meepleScripts = globalThis.__meepleScripts || new Map());
  if (globalThis[name]) return Promise.resolve(globalThis[name]);
  if (!all.has(url)) {
    all.set(url, new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = url;
      s.onload = () => (globalThis[name] ? resolve(globalThis[name]) : reject(new Error(`${url} defined no ${name}`)));
      s.onerror = () => { all.delete(url); s.remove(); reject(new Error(`${url} did not load`)); };
      document.head.appendChild(s);
    }));
  }
  return all.get(url);
}
// Vega's own dark colours for a chart compiled before it reached the page (vega-embed's "dark" theme in a kernel)
const DARK = { background: "#333", title: { color: "#fff", subtitleColor: "#fff" }, axis: { domainColor: "#fff", gridColor: "#888", tickColor: "#fff",
  labelColor: "#fff", titleColor: "#fff" }, legend: { labelColor: "#fff", titleColor: "#fff" },
  style: { "guide-label": { fill: "#fff" }, "guide-title": { fill: "#fff" }, "group-title": { fill: "#fff" } } };

async function embed(box, spec, isVega, darkMode) {
  if (BUNDLED) return (await BUNDLED(box, spec, { actions: false, renderer: "svg", ...(darkMode ? { theme: "dark" } : {}) })).view;
  const vega = await script(VEGA_JS, "vega");
  const compiled = isVega ? spec : (await script(VEGA_LITE_JS, "vegaLite")).compile(spec).spec;
  // a compiled spec names its own white background, which Vega puts before the config's dark one
  if (darkMode) compiled.background = DARK.background;
  box.classList.add("vega-embed");
  const view = new vega.View(vega.parse(compiled, darkMode ? DARK : undefined), { renderer: "svg", container: box, hover: true });
  await view.runAsync();
  return view;
}

// Each front end writes its own small h(): anywidget loads one self-contained ES module a widget (no shared import).
function h(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

// The keys a slider, a select, a number box or a scrolling box moves with. A notebook host binds some of them to its
// own commands (JupyterLab's command mode: ArrowUp/Down select another cell and take focus from the
// slider): the widget keeps them, as ipywidgets' controls do: lumino skips any element marked
// data-lm-suppress-shortcuts (its listener may run in the capture phase), and the event stops here
// for a host that listens as it bubbles. The input's own default action (the move) still happens.
const MOVE_KEYS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End"]);
function keepKeys(input) {
  input.setAttribute("data-lm-suppress-shortcuts", "true");
  input.addEventListener("keydown", (e) => {
    if (MOVE_KEYS.has(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) e.stopPropagation();
    // Enter commits a text box as leaving it does: JupyterLab's notebook takes the key, so no "change" came
    if (e.key === "Enter" && input.type === "text") input.blur();
  });
  return input;
}

function dark(el) {
  // the host's theme: JupyterLab's body flag, the book theme's <html data-theme>, else the system's
  const body = document.body;
  if (body && body.dataset.jpThemeLight !== undefined) return body.dataset.jpThemeLight === "false";
  const theme = document.documentElement.dataset.theme;
  if (theme === "dark" || theme === "light") return theme === "dark";
  if (el && el.closest && el.closest(".vscode-dark, [data-vscode-theme-kind='vscode-dark']")) return true;
  return !!(globalThis.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches);
}

function render({ model, el }) {
  const live = globalThis.meepleLive;
  const onSite = !!(live && !model.meepleLive);  // the site's saved state: no kernel behind `model`
  const root = h("div", "meeple-explorer");
  root.setAttribute("role", "group");
  el.appendChild(root);
  const views = new Map();  // chart name -> {view, key}
  let localPoint = null;  // on the site before Python: the cell the reader moved to (saved numbers)
  let localIndex = null;  // ... and its stop on each slider
  let waiting = false;  // a message sent, its answer not back yet
  // the focused element where the widget is drawn: a host may draw it in a shadow root (marimo),
  // where document.activeElement is only the shadow's host
  const active = () => root.getRootNode().activeElement || document.activeElement;

  const send = (msg) => {
    if (onSite) return;
    waiting = true;
    root.dataset.busy = "1";
    status.textContent = msg.do === "move" || msg.do === "games" || msg.do === "run-all" || msg.do === "play"
      ? "Playing… (the numbers come when the games are played)" : status.textContent;
    model.send(msg);
  };

  // --- the parts, made once (so a redraw keeps the reader's focus where it was) ---
  const head = h("div", "meeple-explorer-head");
  const controls = h("div", "meeple-explorer-controls");
  const sliders = h("div", "meeple-explorer-sliders");
  const games = h("input", "meeple-explorer-games");
  // text, not a number input: a number input reports "" for "abc", so Python could not name
  // what the reader typed; the raw text goes to Python, which says what is wrong with it
  games.type = "text";
  games.inputMode = "numeric";
  games.setAttribute("aria-label", "games per value");
  const gamesBox = h("label", "meeple-explorer-field", "games per value ");
  gamesBox.appendChild(games);
  const runAll = h("button", "meeple-control meeple-explorer-run-all", "Run every value");
  const pickers = h("div", "meeple-explorer-pickers");
  const measure = h("select", "meeple-explorer-measure");
  measure.setAttribute("aria-label", "measure shown");
  const measureBox = h("label", "meeple-explorer-field", "measure ");
  measureBox.appendChild(measure);
  const seat = h("select", "meeple-explorer-seat");
  seat.setAttribute("aria-label", "seat shown on the map");
  const seatBox = h("label", "meeple-explorer-field", "seat ");
  seatBox.appendChild(seat);
  const status = h("div", "meeple-explorer-status");
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  const warnings = h("ul", "meeple-explorer-warnings");
  const error = h("div", "meeple-explorer-error");
  error.setAttribute("role", "alert");
  const chartsBox = h("div", "meeple-explorer-charts");
  const chartText = h("p", "meeple-visually-hidden meeple-explorer-chart-text");
  const numbers = h("div", "meeple-explorer-numbers");
  // a box that may scroll (a phone: at most 600 px tall, and wider than the screen): a keyboard
  // reader tabs to it and scrolls it with the arrow keys
  numbers.tabIndex = 0;
  numbers.setAttribute("role", "region");
  const tools = h("div", "meeple-explorer-tools");
  const csvButton = h("button", "meeple-control meeple-explorer-csv", "Numbers as CSV");
  csvButton.setAttribute("aria-expanded", "false");
  const csv = h("textarea", "meeple-explorer-csv-text");
  csv.readOnly = true;
  csv.hidden = true;
  csv.setAttribute("aria-label", "every simulated value's numbers as CSV");
  tools.append(csvButton);  // one button: it shows the numbers and copies them where the page may
  const site = h("div", "meeple-explorer-site");
  controls.append(sliders, gamesBox, runAll);
  pickers.append(measureBox, seatBox);
  root.append(head, site, controls, pickers, status, warnings, error, chartsBox, chartText, numbers, tools, csv);
  [games, measure, seat, numbers].forEach(keepKeys);

  // --- what the reader does: one message each; the slider's move is its re-simulation ---
  games.addEventListener("change", () => {
    send({ do: "games", games: games.value });  // the text as typed: ExplorerSession says what is wrong with it
  });
  runAll.addEventListener("click", () => send({ do: "run-all" }));
  measure.addEventListener("change", () => send({ do: "measure", measure: measure.value }));
  seat.addEventListener("change", () => send({ do: "seat", seat: Number(seat.value) }));
  csvButton.addEventListener("click", () => {
    if (!csv.hidden) { csv.hidden = true; csvButton.textContent = "Numbers as CSV"; csvButton.setAttribute("aria-expanded", "false"); return; }
    askCsv();
  });
  function askCsv() {
    if (onSite) { gotCsv({ csv: savedCsv() }); return; }
    model.send({ do: "csv" });
  }
  function savedCsv() {  // the rows saved with the page (setup.columns once, setup.played: values per cell)
    const setup = model.get("setup") || {};
    const played = setup.played || [];
    if (!played.length) return "";
    const cols = setup.columns || played[0][1].columns;
    const cell = (v) => (v === null || v === undefined ? "" : /[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
    const lines = [cols.join(",")];
    played.forEach(([, t]) => t.values.forEach((r) => lines.push(r.map(cell).join(","))));
    return lines.join("\n") + "\n";
  }
  async function gotCsv(msg) {  // shown in the box, selected, and copied where the page may use the clipboard
    if (!msg || typeof msg.csv !== "string") return;
    csv.value = msg.csv;
    csv.hidden = false;
    csv.select();
    csvButton.setAttribute("aria-expanded", "true");
    let copied = false;
    try { await navigator.clipboard.writeText(msg.csv); copied = true; } catch (err) { /* not a secure page: the box is selected */ }
    csvButton.textContent = copied ? "Hide the CSV (copied)" : "Hide the CSV";
  }
  model.on("msg:custom", gotCsv);

  function sliderFor(s) {
    const box = h("label", "meeple-explorer-field meeple-explorer-slider");
    box.appendChild(h("span", "meeple-explorer-slider-name", s.field + " "));
    const r = h("input", "meeple-explorer-range");
    r.type = "range";
    r.min = "0";
    r.max = String(s.labels.length - 1);
    r.step = "1";
    r.dataset.field = s.field;
    r.setAttribute("aria-label", `${s.field}: moving it plays that value`);
    keepKeys(r);
    const out = h("output", "meeple-explorer-readout");
    const show = (i) => { out.textContent = s.labels[i]; r.setAttribute("aria-valuetext", `${s.field} = ${s.labels[i]}`); };
    const index = () => [...sliders.querySelectorAll("input.meeple-explorer-range")].map((x) => Number(x.value));
    r.addEventListener("input", () => {
      show(Number(r.value));
      if (onSite) moveSaved(index());  // the saved numbers, at once
    });
    r.addEventListener("change", () => {
      if (onSite) { moveSaved(index()); return; }
      send({ do: "move", index: index() });
    });
    box.append(r, out);
    const ticks = h("span", "meeple-explorer-ticks", `${s.labels[0]} … ${s.labels[s.labels.length - 1]}`);
    ticks.setAttribute("aria-hidden", "true");
    box.appendChild(ticks);
    return { box, r, show };
  }
  let made = null;

  // --- drawing ---
  function draw() {
    const v = model.get("view");
    if (!v || !v.title) return;
    const c = model.get("charts") || {};
    root.setAttribute("aria-label", `Explorer: ${v.fields.join(" and ")} in ${v.title}`);
    // a region's name must be unique on its page (axe landmark-unique): lesson 13 has two Explorers
    numbers.setAttribute("aria-label", `the numbers of the ${v.fields.join(" and ")} shown`);
    head.replaceChildren(h("b", "", v.title), document.createTextNode(
      `: what changing ${v.fields.join(" and ")} does to the game. Bots: ${v.bots.join(", ")}; ` +
      `rules otherwise: ${v.rules} (the baseline, ${v.baseline}, stays drawn).`));
    if (!made || made.length !== v.sliders.length) {
      sliders.replaceChildren();
      made = v.sliders.map((s) => sliderFor(s));
      made.forEach((m) => sliders.appendChild(m.box));
    }
    v.sliders.forEach((s, k) => {
      const m = made[k];
      const i = onSite && localIndex !== null ? localIndex[k] : s.index;
      if (active() !== m.r || !waiting) m.r.value = String(i);
      m.show(i);
    });
    games.title = `a whole number from ${v.min_games} to ${v.max_games}`;
    if (active() !== games) games.value = String(v.games);
    fill(measure, v.measures, v.measure);
    seatBox.hidden = !v.seats.length;
    if (v.seats.length) fill(seat, v.seats.map(([s, t]) => [String(s), t]), String(v.seat));
    status.textContent = onSite ? siteStatus(v) : v.status;
    warnings.replaceChildren(...(v.warnings || []).map((w) => h("li", "", "⚠ " + w)));
    error.textContent = model.get("error") || "";
    drawNumbers(onSite && localPoint !== null ? savedNumbers(v, localPoint) : v.numbers);
    chartText.textContent = onSite && localPoint !== null ? savedText(v, localPoint) : v.chart_text;
    drawCharts(c, onSite && localPoint !== null ? localPoint : v.point);
    const setup = model.get("setup");
    if (setup && setup.game) {  // what rebuilds this Explorer (tests rebuild it in CPython), without its numbers
      const { played, ...plain } = setup;
      root.dataset.meepleSetup = JSON.stringify(plain);
    }
    root.dataset.point = String(onSite && localPoint !== null ? localPoint : v.point);
    root.dataset.ready = v.ready ? "1" : "0";
    root.dataset.played = String(v.played);
  }

  function fill(select, options, value) {
    const want = JSON.stringify(options);
    if (select.dataset.options !== want) {
      select.replaceChildren(...options.map(([k, t]) => { const o = h("option", "", t); o.value = k; return o; }));
      select.dataset.options = want;
    }
    if (active() !== select || !waiting) select.value = value;
  }

  function drawNumbers(n) {
    if (!n) { numbers.replaceChildren(); return; }
    const t = h("table", "meeple-numbers");
    t.appendChild(h("caption", "", n.heading));
    const tr = h("tr");
    n.columns.forEach((col) => { const th = h("th", "", col); th.scope = "col"; tr.appendChild(th); });
    t.appendChild(tr);
    n.rows.forEach((row, s) => {
      const r = h("tr");
      r.dataset.seat = String(s);
      row.forEach((cell, j) => { const td = h(j ? "td" : "th", "", cell); if (!j) td.scope = "row"; r.appendChild(td); });
      t.appendChild(r);
    });
    numbers.replaceChildren(t);
    numbers.dataset.rows = JSON.stringify(n.rows);  // the exact text shown, for tests
  }

  async function drawCharts(c, point) {
    const names = Object.keys(c).filter((k) => k !== "key" && k !== "format");
    const key = JSON.stringify(c.key || null) + (dark(root) ? ":dark" : ":light");
    if (!names.length) {
      chartsBox.replaceChildren(h("div", "meeple-explorer-empty", "The charts come when the first value is played."));
      views.forEach((x) => x.view.finalize());
      views.clear();
      return;
    }
    const same = names.every((n) => views.has(n) && views.get(n).key === key) && views.size === names.length;
    if (same) {  // the same numbers: only the ring moves
      for (const n of names) await views.get(n).view.signal("meeple_current", point).runAsync();
      return;
    }
    views.forEach((x) => x.view.finalize());
    views.clear();
    const boxes = names.map((n) => {
      const b = h("div", "meeple-explorer-chart");
      b.dataset.chart = n;
      b.setAttribute("role", "img");
      return b;
    });
    chartsBox.replaceChildren(...boxes);
    const darkMode = dark(root);
    try {
      await Promise.all(names.map(async (n, i) => {
        // the ring and the current cell's outline are near-black, the grey labels mid-grey: lighter on a dark background
        const text = JSON.stringify(c[n]);
        const spec = JSON.parse(darkMode ? text.replace(/"#111"/g, '"#f2f2f2"').replace(/"#777"/g, '"#bbb"') : text);
        if (spec.params) spec.params.forEach((p) => { if (p.name === "meeple_current") p.value = point; });
        if (spec.signals) spec.signals.forEach((p) => { if (p.name === "meeple_current") p.value = point; });
        const named = spec.title && spec.title.text ? spec.title.text : typeof spec.title === "string" ? spec.title : n;
        const title = Array.isArray(named) ? named.join(" ") : named;  // a title of two lines (specs.paired)
        boxes[i].setAttribute("aria-label", `${title}. ` + (model.get("view").chart_text || ""));
        views.set(n, { view: await embed(boxes[i], spec, c.format === "vega", darkMode), key });
        const svg = boxes[i].querySelector("svg");
        if (svg) svg.setAttribute("aria-hidden", "true");  // the box carries the text alternative
      }));
    } catch (err) {
      chartsBox.appendChild(h("div", "meeple-explorer-error", "The charts could not be drawn: " + (err.message || err)));
      return;
    }
    chartsBox.dataset.drawn = key;
  }

  // --- the course site before Python starts ---
  function siteStatus(v) {
    return `Numbers saved when the site was built (${v.games} games per value, seed ${v.seed}): the slider ` +
      "moves over them. Start Python to change the games, the measure, or play values anew.";
  }
  function savedNumbers(v, point) { return (v.saved_numbers || {})[point] || null; }
  function savedText(v, point) {  // the saved numbers, said in words
    const n = savedNumbers(v, point);
    return n ? `${n.heading}: ` + n.rows.map((r) => r.map((x, j) => (j ? `${n.columns[j]} ${x}` : x)).join(", ")).join("; ") + "."
      : v.chart_text;
  }
  function moveSaved(index) {
    const v = model.get("view");
    localIndex = index;
    localPoint = index.reduce((acc, i, k) => acc * v.sliders[k].labels.length + i, 0);  // the cell's point
    draw();
  }

  if (onSite) {
    root.dataset.meepleLive = "static";
    [games, runAll, measure, seat].forEach((x) => { x.disabled = true; x.title = "Start Python to use this"; });
    const start = h("button", "meeple-control meeple-explorer-start", "▶ Start Python");
    const line = h("span", "meeple-live-status", "Python runs in your browser (the first start downloads about 13 MB).");
    site.append(start, line);
    const goLive = async () => {
      start.disabled = true;
      root.dataset.meepleLive = "loading";
      try {
        const setup = model.get("setup");
        const liveModel = await live.open("explorer", setup, (s) => { line.textContent = s; });
        const focused = root.contains(document.activeElement) ? document.activeElement.className : null;
        el.replaceChildren();
        render({ model: liveModel, el });
        const again = el.querySelector(".meeple-explorer");
        again.dataset.meepleLive = "live";
        again.dataset.meepleSetup = root.dataset.meepleSetup;
        if (focused) { const f = again.getElementsByClassName(focused)[0]; if (f) f.focus(); }
        if (localIndex !== null && localPoint !== (model.get("view") || {}).point) {
          liveModel.send({ do: "move", index: localIndex });  // where the reader had moved to
        }
      } catch (err) {
        failed(err);
      }
    };
    // a failed start says what failed in one line and offers the click again (meeple-live.js forgets
    // the failed start, so the next click starts afresh, with no reload)
    const failed = (err) => {
      start.disabled = false;
      start.textContent = "↻ Try again";
      root.dataset.meepleLive = "static";
      line.textContent = live.failure ? live.failure(err) : "Python could not start: " + err.message;
    };
    start.addEventListener("click", () => {
      start.disabled = true;
      root.dataset.meepleLive = "loading";
      live.startPython((s) => { line.textContent = s; }).catch(failed);
    });
    live.whenStarted(goLive);  // one click starts Python for the page: every Explorer then goes live
  }

  // the host switching light and dark: the charts are drawn again in the other theme
  const themeWatch = new MutationObserver(() => { if (root.isConnected) draw(); else themeWatch.disconnect(); });
  themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  if (document.body) themeWatch.observe(document.body, { attributes: true, attributeFilter: ["data-jp-theme-light"] });
  model.on("change:view", () => { waiting = false; delete root.dataset.busy; draw(); });
  model.on("change:charts", draw);
  // a refused message changes only the error: its answer is back too, so the hourglass goes
  model.on("change:error", () => { waiting = false; delete root.dataset.busy; draw(); });
  draw();
  // In a kernel the session plays the first value after this first paint (status says so).
  return () => { themeWatch.disconnect(); views.forEach((x) => x.view.finalize()); };
}

export default { render };
