// meeple's small controls (die editor, reroll rules, sliders, the Tally, the flip simulator...):
// one front end for every `meeple.widgets.controls.Control`. It draws the `view` Python computes
// (inputs, text, table, a Vega-Lite chart) and sends {do: "set"|"press", name, value} back.
// No rule and no arithmetic here: every value offered is one the control listed.
//
// Transports: in a notebook host `model` is the anywidget model of meeple.widgets.panel.Panel;
// on the course site, meeple-live.js hands this same `render` a model fed by the Pyodide worker.
// Before Python starts on the site, the saved view is drawn with its inputs disabled and a
// "Start Python to use this" button (meepleLive.offerControl).
//
// Control kinds (view.kind): tally, die-editor, reroll-rule, track-length, catch-up-rule,
// flip-simulator, steal-die, hand-deal, knock-chance. Input kinds: select, toggle, range, button.

// Each front end writes its own small h(): anywidget loads one self-contained ES module a widget (no shared import).
function h(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

// --- the host's theme: the colour actually behind the widget decides (the site's dark theme puts
// widget outputs on a light card; JupyterLab's dark theme on a dark cell), found by walking up
// through shadow roots (marimo) to the first opaque background; with none, what the host says
// (JupyterLab / Notebook 7 on <body>, marimo and the site on <html>), then the text colour.
function rgb(text) {
  const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?/.exec(text || "");
  return m ? { l: 0.299 * m[1] + 0.587 * m[2] + 0.114 * m[3], a: m[4] === undefined ? 1 : Number(m[4]) } : null;
}

function isDark(el) {
  for (let n = el; n; n = n.parentElement || (n.getRootNode && n.getRootNode().host) || null) {
    const c = rgb(getComputedStyle(n).backgroundColor);
    if (c && c.a > 0.5) return c.l < 128;
  }
  const b = document.body, d = document.documentElement;
  if (b && b.dataset.jpThemeLight === "false") return true;
  if (b && b.dataset.jpThemeLight === "true") return false;
  if (d.dataset.theme === "dark" || d.classList.contains("dark") || (b && b.classList.contains("dark"))) return true;
  if (d.dataset.theme === "light") return false;
  const t = rgb(getComputedStyle(el).color);
  return !!t && t.l > 140;  // light text: a dark page
}

// --- the charts' Vega, loaded once per page -----------------------------------------------------
// In a notebook host the kernel sends the package's static/vega-embed.js once (a custom message:
// nothing is saved in the notebook), imported from a blob URL and shared by every chart of the page.
// On the course site a control's saved chart was compiled to Vega when the site was built, and is
// drawn with the site's one Vega file (its folder named by version: the build writes it into
// VEGA_JS), the very script the Explorer and the lesson charts load, so a page loads Vega once
// (vega-embed.js beside it carried a second copy: 0.9 MB). Vega-Lite, to compile what the
// browser's Python sends after "Start Python", loads only then.
const VEGA_JS = "../vega/vega.min.js";
const VEGA_LITE_JS = "../vega-lite/vega-lite.min.js";

function vegaEmbed(model) {
  if (!globalThis.__meepleVegaEmbed) {
    globalThis.__meepleVegaEmbed = (async () => {
      const text = await new Promise((resolve) => {
        const got = (msg) => { if (msg && typeof msg.vega === "string") { model.off && model.off("msg:custom", got); resolve(msg.vega); } };
        model.on("msg:custom", got);
        model.send({ do: "vega" });
      });
      const mod = await import(URL.createObjectURL(new Blob([text], { type: "text/javascript" })));
      return mod.default || mod.vegaEmbed || mod;
    })();
    globalThis.__meepleVegaEmbed.catch(() => { globalThis.__meepleVegaEmbed = null; });
  }
  return globalThis.__meepleVegaEmbed;
}

// A classic script of the site, once per page whoever asks first (the Explorer's and the charts'
// front ends share this map): its global once loaded.
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

// Vega's own dark colours (vega-embed's "dark" theme) for a chart drawn without vega-embed
const DARK = { background: null, title: { color: "#fff" }, axis: { domainColor: "#fff", gridColor: "#888", tickColor: "#fff",
  labelColor: "#fff", titleColor: "#fff" }, legend: { labelColor: "#fff", titleColor: "#fff" },
  style: { "guide-label": { fill: "#fff" }, "guide-title": { fill: "#fff" }, "group-title": { fill: "#fff" } } };

async function siteView(box, spec, dark) {
  const vega = await script(VEGA_JS, "vega");
  const isVega = typeof spec.$schema === "string" && /\/schema\/vega\/v/.test(spec.$schema);
  const compiled = isVega ? spec : (await script(VEGA_LITE_JS, "vegaLite")).compile(spec).spec;
  box.classList.add("vega-embed");
  const view = new vega.View(vega.parse(compiled, dark ? DARK : { background: null }), { renderer: "svg", container: box, hover: true });
  await view.runAsync();
  return view;
}

// **bold** in a view's text, as DOM (never innerHTML: the text may name a user's value)
function rich(parent, text) {
  String(text).split(/(\*\*[^*]+\*\*)/).forEach((part) => {
    if (/^\*\*[^*]+\*\*$/.test(part)) parent.appendChild(h("strong", "", part.slice(2, -2)));
    else if (part) parent.appendChild(document.createTextNode(part));
  });
}

// The keys a slider, a select or a radio group moves with. A notebook host binds some of them to its
// own commands (JupyterLab's command mode: ArrowUp/Down select another cell and take focus from the
// slider): the widget keeps them, as ipywidgets' controls do: lumino skips any element marked
// data-lm-suppress-shortcuts (its listener may run in the capture phase), and the event stops here
// for a host that listens as it bubbles. The input's own default action (the move) still happens.
const MOVE_KEYS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End"]);
function keepKeys(input) {
  input.setAttribute("data-lm-suppress-shortcuts", "true");
  input.addEventListener("keydown", (e) => {
    if (MOVE_KEYS.has(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) e.stopPropagation();
  });
  return input;
}

function drawInput(inp, send, locked) {
  const wrap = h("div", `meeple-panel-input meeple-panel-input-${inp.kind}`);
  wrap.dataset.name = inp.name;
  const off = locked || !!inp.disabled;
  const id = `meeple-${Math.random().toString(36).slice(2)}`;
  if (inp.kind === "button") {
    const b = h("button", "meeple-panel-button", inp.label);
    b.type = "button";
    b.dataset.key = inp.name;
    b.disabled = off;
    b.addEventListener("click", () => send({ do: "press", name: inp.name }));
    wrap.appendChild(b);
    return wrap;
  }
  const index = inp.options.findIndex((o) => JSON.stringify(o.value) === JSON.stringify(inp.value));
  if (inp.kind === "select") {
    const label = h("label", "meeple-panel-label", inp.label);
    label.htmlFor = id;
    const s = h("select", "meeple-panel-select");
    s.id = id;
    s.dataset.key = inp.name;
    inp.options.forEach((o, i) => {
      const opt = h("option", "", o.label);
      opt.value = String(i);
      s.appendChild(opt);
    });
    s.value = String(index);
    s.disabled = off;
    keepKeys(s);
    s.addEventListener("change", () => send({ do: "set", name: inp.name, value: inp.options[Number(s.value)].value }));
    wrap.append(label, s);
  } else if (inp.kind === "toggle") {
    const group = h("div", "meeple-panel-toggles");
    group.setAttribute("role", "radiogroup");
    group.setAttribute("aria-label", inp.label);
    wrap.appendChild(h("span", "meeple-panel-label", inp.label));
    inp.options.forEach((o, i) => {
      const b = h("button", "meeple-panel-toggle" + (i === index ? " on" : ""), o.label);
      b.type = "button";
      b.setAttribute("role", "radio");
      b.setAttribute("aria-checked", String(i === index));
      b.dataset.key = `${inp.name}=${i}`;
      b.dataset.value = JSON.stringify(o.value);
      b.tabIndex = i === index ? 0 : -1;  // one tab stop; arrows move within (WAI-ARIA radio group)
      b.disabled = off;
      b.addEventListener("click", () => { if (i !== index) send({ do: "set", name: inp.name, value: o.value }); });
      keepKeys(b);
      b.addEventListener("keydown", (e) => {
        const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
        if (!step) return;
        e.preventDefault();
        const j = (index + step + inp.options.length) % inp.options.length;
        send({ do: "set", name: inp.name, value: inp.options[j].value }, `${inp.name}=${j}`);
      });
      group.appendChild(b);
    });
    wrap.appendChild(group);
  } else if (inp.kind === "range") {
    const label = h("label", "meeple-panel-label", inp.label);
    label.htmlFor = id;
    const r = h("input", "meeple-panel-range");
    r.type = "range";
    r.id = id;
    r.min = "0";
    r.max = String(inp.options.length - 1);
    r.step = "1";
    r.value = String(index);
    r.dataset.key = inp.name;
    r.disabled = off;
    keepKeys(r);
    r.setAttribute("aria-valuetext", inp.options[index] ? inp.options[index].label : "");
    const out = h("output", "meeple-panel-readout", inp.options[index] ? inp.options[index].label : "");
    out.htmlFor = id;
    r.addEventListener("input", () => {
      const o = inp.options[Number(r.value)];
      out.textContent = o.label;
      r.setAttribute("aria-valuetext", o.label);
    });
    // on release (or a key press), like ipywidgets' continuous_update=False: one answer per move
    r.addEventListener("change", () => send({ do: "set", name: inp.name, value: inp.options[Number(r.value)].value }));
    wrap.append(label, r, out);
  }
  return wrap;
}

function drawTable(t) {
  const table = h("table", "meeple-panel-table");
  if (t.columns) {
    const tr = h("tr");
    t.columns.forEach((c) => { const th = h("th", "", c); th.scope = "col"; tr.appendChild(th); });
    table.appendChild(tr);
  }
  t.rows.forEach((row) => {
    const tr = h("tr");
    row.forEach((cell, i) => {
      const c = h(i === 0 ? "th" : "td", "", String(cell));
      if (i === 0) c.scope = "row";
      tr.appendChild(c);
    });
    table.appendChild(tr);
  });
  return table;
}

function render({ model, el }) {
  const root = h("div", "meeple-panel");
  el.appendChild(root);
  const site = !!globalThis.meepleLive;  // on the course site (files next to this module)
  const locked = site && !model.meepleLive;  // the saved view, no Python behind it yet
  let chartView = null;
  let focusKey = null;  // the input to give focus back to after the view is redrawn
  // the focused element of the widget's own document or shadow root (marimo draws widgets in one)
  const active = () => root.getRootNode().activeElement;

  const send = (msg, key) => {
    if (locked) return;
    focusKey = key || (root.contains(active()) ? active().dataset.key : null);
    root.dataset.busy = "1";
    root.setAttribute("aria-busy", "true");
    model.send(msg);
  };

  async function drawChart(box, spec) {
    try {
      const dark = isDark(root);
      if (chartView) chartView.finalize();
      if (site) chartView = await siteView(box, spec, dark);
      else {
        const embed = await vegaEmbed(model);
        chartView = (await embed(box, spec, { actions: false, renderer: "svg", theme: dark ? "dark" : undefined,
          config: { background: null } })).view;
      }
      const svg = box.querySelector("svg");
      if (svg) svg.setAttribute("aria-hidden", "true");  // the box carries the text alternative
      box.dataset.drawn = "1";
    } catch (err) {
      box.replaceChildren(h("div", "meeple-panel-error", "The chart could not be drawn: " + (err.message || err)));
    }
  }

  function draw() {
    const v = model.get("view");
    if (!v || !v.kind) return;
    if (focusKey === null && root.contains(active())) focusKey = active().dataset.key || null;
    root.replaceChildren();
    root.dataset.kind = v.kind;
    root.dataset.moves = String(v.moves);
    root.classList.toggle("meeple-dark", isDark(root));
    delete root.dataset.busy;
    root.removeAttribute("aria-busy");
    root.setAttribute("role", "group");
    root.setAttribute("aria-label", v.title || v.kind);
    if (v.title) root.appendChild(h("div", "meeple-panel-title", v.title));
    const inputs = h("div", "meeple-panel-inputs");
    (v.inputs || []).forEach((inp) => inputs.appendChild(drawInput(inp, send, locked)));
    root.appendChild(inputs);
    if (v.note) root.appendChild(h("div", "meeple-panel-note", v.note));
    const text = h("div", "meeple-panel-text");
    text.setAttribute("role", "status");
    text.setAttribute("aria-live", "polite");
    rich(text, v.text || "");
    root.appendChild(text);
    if (v.error) {
      const err = h("div", "meeple-panel-error", v.error);
      err.setAttribute("role", "alert");
      root.appendChild(err);
    }
    if (v.table) {  // a wide table scrolls inside its box on a phone, not the page
      const box = h("div", "meeple-panel-tablebox");
      // a box that may scroll sideways: a keyboard reader tabs to it and scrolls it with the
      // arrow keys (axe: scrollable-region-focusable)
      box.tabIndex = 0;
      box.setAttribute("role", "region");
      box.setAttribute("aria-label", v.table.columns ? `table: ${v.table.columns.join(", ")}` : "table");
      box.appendChild(drawTable(v.table));
      root.appendChild(box);
    }
    if (v.chart) {
      const box = h("div", "meeple-panel-chart");
      box.setAttribute("role", "img");
      box.setAttribute("aria-label", v.chart.description || v.chart.title || "chart");
      root.appendChild(box);
      drawChart(box, v.chart);
    }
    if (focusKey) {
      const again = root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      if (again && !again.disabled) again.focus();
      else root.querySelector("button:not([disabled]), select:not([disabled]), input:not([disabled])")?.focus();
    }
    focusKey = null;
  }

  model.on("change:view", draw);
  draw();
  // the host's theme switched (JupyterLab's settings, the site's toggle): redraw in its colours
  const theme = new MutationObserver(() => { if (root.isConnected && root.classList.contains("meeple-dark") !== isDark(root)) draw(); });
  theme.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme", "class"] });
  if (document.body) theme.observe(document.body, { attributes: true, attributeFilter: ["data-jp-theme-light", "class"] });
  if (locked) globalThis.meepleLive.offerControl({ model, el, root, render });
  return () => { theme.disconnect(); if (chartView) chartView.finalize(); };
}

export default { render };
