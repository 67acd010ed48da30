// meeple's widget loader for the course site (issue 24): draws every widget a page saved,
// from the page's own widget state, with files this site serves. Nothing else.
//
// It replaces require.js + the Jupyter widgets HTML manager (3.6 MB, and a loader that gave up
// after 7 s and then asked a CDN for anywidget). Here a file that arrives late only delays
// the widget that needs it: there is no timeout and no other host to fall back to. An ESM
// named by URL is loaded only from this site (a relative path, resolved next to this file);
// any other host is refused and the widget says so.
//
// What it draws: anywidgets (the Stepper, Altair's chart, the copy button: their own front
// ends, given a small model with get/set/on/off/save_changes/send) and the ipywidgets the
// lessons use (boxes, HTML, labels, buttons, dropdowns, sliders, toggles, checkboxes, text,
// outputs), drawn as the saved state shows them. No kernel is behind them: a control the
// site cannot run changes nothing (meeple-live.js offers Python in the browser where it can).
(function () {
  "use strict";
  const here = document.currentScript.src.replace(/[^/]*$/, "");
  const REF = "IPY_MODEL_";

  // --- models: the saved state, with get/set/on like a Backbone model -------------------------
  class Model {
    constructor(id, saved, manager) {
      this.model_id = id;
      this.name = saved.model_name;
      this.attrs = { ...(saved.state || {}) };
      this.widget_manager = manager;
      this.handlers = new Map();
      (saved.buffers || []).forEach((b) => {  // binary traits (e.g. an Image's bytes), base64 in the page
        const bytes = Uint8Array.from(atob(b.data), (c) => c.charCodeAt(0));
        let at = this.attrs;
        b.path.slice(0, -1).forEach((k) => { at = at[k]; });
        at[b.path[b.path.length - 1]] = new DataView(bytes.buffer);
      });
    }
    get(key) { return this.attrs[key]; }
    set(key, value) {
      if (typeof key === "object") { Object.entries(key).forEach(([k, v]) => this.set(k, v)); return; }
      const old = this.attrs[key];
      this.attrs[key] = value;
      if (!same(old, value)) this.trigger("change:" + key, { changed: { [key]: value } }, value);
    }
    on(names, f) {
      names.split(/\s+/).forEach((n) => {
        if (!this.handlers.has(n)) this.handlers.set(n, new Set());
        this.handlers.get(n).add(f);
      });
    }
    off(names, f) {
      (names ? names.split(/\s+/) : [...this.handlers.keys()]).forEach((n) => {
        const set = this.handlers.get(n);
        if (set) f ? set.delete(f) : set.clear();
      });
    }
    trigger(name, ...args) { (this.handlers.get(name) || []).forEach((f) => f(...args)); }
    save_changes() {}  // no kernel to tell
    send() {}
  }

  function same(a, b) {
    if (a === b) return true;
    try { return JSON.stringify(a) === JSON.stringify(b); } catch (e) { return false; }
  }

  class Manager {
    constructor(saved) {
      this.models = new Map();
      Object.entries(saved).forEach(([id, m]) => this.models.set(id, new Model(id, m, this)));
    }
    get_model(id) {  // the anywidget API: a promise
      const m = this.models.get(id);
      return m ? Promise.resolve(m) : Promise.reject(new Error(`no widget model ${id} on this page`));
    }
    ref(v) {  // "IPY_MODEL_<id>" -> the model (or null)
      return typeof v === "string" && v.startsWith(REF) ? this.models.get(v.slice(REF.length)) || null : null;
    }
  }

  // --- small DOM helpers -------------------------------------------------------------------------
  // Each site script writes its own small el(): the pages load each script on its own, with no module to share.
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  const LAYOUT_SKIP = new Set(["_model_module", "_model_module_version", "_model_name", "_view_count",
    "_view_module", "_view_module_version", "_view_name"]);

  // The Layout model's traits are CSS properties with _ for - (width, flex_flow, border_top, ...).
  function applyLayout(m, node, mgr) {
    const layout = mgr.ref(m.get("layout"));
    if (!layout) return;
    Object.entries(layout.attrs).forEach(([k, v]) => {
      if (LAYOUT_SKIP.has(k) || v === null || v === undefined || v === "") return;
      node.style.setProperty(k.replace(/_/g, "-"), String(v));
    });
  }

  function applyStyle(m, node, label, mgr) {
    const style = mgr.ref(m.get("style"));
    if (!style) return;
    const s = style.attrs;
    if (s.description_width && label) label.style.width = s.description_width;
    if (s.button_color) node.style.background = s.button_color;
    if (s.font_weight) node.style.fontWeight = s.font_weight;
    if (s.text_color) node.style.color = s.text_color;
    if (s.font_size) node.style.fontSize = s.font_size;
    if (s.background) node.style.background = s.background;
  }

  function domClasses(m, node) {
    (m.get("_dom_classes") || []).forEach((c) => node.classList.add(c));
  }

  function labelled(m, kind, control, mgr) {
    const box = el("div", `widget-inline-hbox widget-${kind}`);
    const d = m.get("description");
    let label = null;
    if (d) {
      label = el("label", "widget-label");
      if (m.get("description_allow_html")) label.innerHTML = d; else label.textContent = d;
      label.title = m.get("tooltip") || d;
      box.appendChild(label);
    }
    box.appendChild(control);
    applyStyle(m, control, label, mgr);
    return box;
  }

  function fmt(v, spec) {
    if (typeof v !== "number") return String(v);
    const m = /^\.(\d+)f$/.exec(spec || "");
    return m ? v.toFixed(Number(m[1])) : String(v);
  }

  // --- views: one function per ipywidgets model name ---------------------------------------------
  const VIEWS = {
    async BoxModel(m, mgr, kind) {
      const box = el("div", `widget-container widget-box widget-${kind || "box"}`);
      for (const child of m.get("children") || []) {
        const cm = mgr.ref(child);
        if (cm) box.appendChild(await draw(cm, mgr));
      }
      return box;
    },
    VBoxModel(m, mgr) { return VIEWS.BoxModel(m, mgr, "vbox"); },
    HBoxModel(m, mgr) { return VIEWS.BoxModel(m, mgr, "hbox"); },
    GridBoxModel(m, mgr) { return VIEWS.BoxModel(m, mgr, "gridbox"); },
    HTMLModel(m, mgr) {
      const content = el("div", "widget-html-content");
      content.innerHTML = m.get("value") || "";
      return labelled(m, "html", content, mgr);
    },
    HTMLMathModel(m, mgr) {
      const box = VIEWS.HTMLModel(m, mgr);
      if (window.MathJax && window.MathJax.typesetPromise) window.MathJax.typesetPromise([box]).catch(() => {});
      return box;
    },
    LabelModel(m, mgr) { return labelled(m, "label", el("div", "widget-label-basic", m.get("value")), mgr); },
    ButtonModel(m, mgr) {
      const b = el("button", "jupyter-button widget-button", m.get("description"));
      if (m.get("button_style")) b.classList.add("mod-" + m.get("button_style"));
      b.disabled = !!m.get("disabled");
      if (m.get("tooltip")) b.title = m.get("tooltip");
      applyStyle(m, b, null, mgr);
      return b;
    },
    DropdownModel(m, mgr) {
      const s = el("select");
      (m.get("_options_labels") || []).forEach((t, i) => {
        const o = el("option", "", t);
        o.value = String(i);
        s.appendChild(o);
      });
      if (m.get("index") !== null && m.get("index") !== undefined) s.value = String(m.get("index"));
      s.disabled = !!m.get("disabled");
      return labelled(m, "dropdown", s, mgr);
    },
    SelectModel(m, mgr) { return VIEWS.DropdownModel(m, mgr); },
    ToggleButtonsModel(m, mgr) {
      const row = el("div", "widget-toggle-buttons");
      (m.get("_options_labels") || []).forEach((t, i) => {
        const b = el("button", "jupyter-button widget-toggle-button", t);
        if (i === m.get("index")) b.classList.add("mod-active");
        b.disabled = !!m.get("disabled");
        row.appendChild(b);
      });
      return labelled(m, "toggle-buttons", row, mgr);
    },
    RadioButtonsModel(m, mgr) {
      const box = el("div", "widget-radio-box");
      (m.get("_options_labels") || []).forEach((t, i) => {
        const l = el("label");
        const r = el("input");
        r.type = "radio";
        r.name = m.model_id;
        r.checked = i === m.get("index");
        r.disabled = !!m.get("disabled");
        l.append(r, document.createTextNode(" " + t));
        box.appendChild(l);
      });
      return labelled(m, "radio", box, mgr);
    },
    ToggleButtonModel(m, mgr) {
      const b = el("button", "jupyter-button widget-toggle-button", m.get("description"));
      if (m.get("value")) b.classList.add("mod-active");
      b.disabled = !!m.get("disabled");
      applyStyle(m, b, null, mgr);
      return b;
    },
    CheckboxModel(m, mgr) {
      const l = el("label", "widget-checkbox");
      const c = el("input");
      c.type = "checkbox";
      c.checked = !!m.get("value");
      c.disabled = !!m.get("disabled");
      l.append(c, document.createTextNode(" " + (m.get("description") || "")));
      return l;
    },
    IntSliderModel(m, mgr) {
      const wrap = el("span", "widget-slider-wrap");
      const r = el("input", "widget-slider");
      r.type = "range";
      ["min", "max", "step", "value"].forEach((k) => { if (m.get(k) !== undefined) r[k] = String(m.get(k)); });
      r.disabled = !!m.get("disabled");
      const out = el("span", "widget-readout", fmt(m.get("value"), m.get("readout_format")));
      r.addEventListener("input", () => { out.textContent = fmt(Number(r.value), m.get("readout_format")); });
      wrap.append(r, out);
      return labelled(m, "slider", wrap, mgr);
    },
    FloatSliderModel(m, mgr) { return VIEWS.IntSliderModel(m, mgr); },
    IntRangeSliderModel(m, mgr) {
      const v = m.get("value") || [];
      return labelled(m, "slider", el("span", "widget-readout", `${v[0]} to ${v[1]}`), mgr);
    },
    FloatRangeSliderModel(m, mgr) { return VIEWS.IntRangeSliderModel(m, mgr); },
    SelectionSliderModel(m, mgr) {
      return labelled(m, "slider", el("span", "widget-readout", (m.get("_options_labels") || [])[m.get("index")]), mgr);
    },
    TextModel(m, mgr) {
      const t = el("input", "widget-input");
      t.type = "text";
      t.value = m.get("value") ?? "";
      t.placeholder = m.get("placeholder") || "";
      t.disabled = !!m.get("disabled");
      return labelled(m, "text", t, mgr);
    },
    IntTextModel(m, mgr) { return VIEWS.TextModel(m, mgr); },
    FloatTextModel(m, mgr) { return VIEWS.TextModel(m, mgr); },
    BoundedIntTextModel(m, mgr) { return VIEWS.TextModel(m, mgr); },
    BoundedFloatTextModel(m, mgr) { return VIEWS.TextModel(m, mgr); },
    TextareaModel(m, mgr) {
      const t = el("textarea", "widget-input", m.get("value"));
      t.disabled = !!m.get("disabled");
      return labelled(m, "textarea", t, mgr);
    },
    IntProgressModel(m, mgr) {
      const p = el("progress");
      p.max = m.get("max");
      p.value = m.get("value");
      return labelled(m, "progress", p, mgr);
    },
    FloatProgressModel(m, mgr) { return VIEWS.IntProgressModel(m, mgr); },
    async OutputModel(m, mgr) {
      const box = el("div", "widget-output");
      for (const o of m.get("outputs") || []) box.appendChild(await output(o, mgr));
      return box;
    },
    AnyModel(m, mgr) { return anywidget(m, mgr); },
  };

  // One saved output (display_data, execute_result, stream, error) as the notebook shows it.
  async function output(o, mgr) {
    const box = el("div", "output_area");
    if (o.output_type === "stream") {
      box.appendChild(el("pre", "output_" + o.name, [].concat(o.text).join("")));
      return box;
    }
    if (o.output_type === "error") {
      box.appendChild(el("pre", "output_error", `${o.ename}: ${o.evalue}`));
      return box;
    }
    const d = o.data || {};
    const join = (v) => [].concat(v).join("");
    const view = d["application/vnd.jupyter.widget-view+json"];
    if (view && mgr.models.has(view.model_id)) box.appendChild(await draw(mgr.models.get(view.model_id), mgr));
    else if (d["text/html"]) box.innerHTML = join(d["text/html"]);
    else if (d["image/svg+xml"]) box.innerHTML = join(d["image/svg+xml"]);
    else if (d["image/png"] || d["image/jpeg"]) {
      const img = el("img");
      img.src = d["image/png"] ? "data:image/png;base64," + join(d["image/png"]) : "data:image/jpeg;base64," + join(d["image/jpeg"]);
      box.appendChild(img);
    } else if (d["text/markdown"]) box.appendChild(el("div", "output_markdown", join(d["text/markdown"])));
    else if (d["text/plain"]) box.appendChild(el("pre", "output_text", join(d["text/plain"])));
    return box;
  }

  // --- anywidgets: the widget's own ESM, from the page or from this site -------------------------
  const modules = new Map();  // one import per ESM (a chart bundle shared by every chart of the page)

  function esmUrl(esm) {
    if (/^(https?:)?\/\//.test(esm)) {
      const url = new URL(esm, location.href);
      if (url.origin !== location.origin) throw new Error(`refused to load ${url.href}: the site loads nothing from another host`);
      return url.href;
    }
    if (/^\.{0,2}\//.test(esm)) return new URL(esm, here).href;  // a file next to this loader (_static/)
    return null;  // the module's text itself
  }

  function loadEsm(esm) {
    if (!modules.has(esm)) {
      const url = esmUrl(esm);
      if (url) modules.set(esm, import(url));
      else {
        const blob = URL.createObjectURL(new Blob([esm], { type: "text/javascript" }));
        modules.set(esm, import(blob).finally(() => URL.revokeObjectURL(blob)));
      }
    }
    return modules.get(esm);
  }

  function loadCss(css, id) {
    if (!css || document.querySelector(`[data-anywidget-css="${CSS.escape(id)}"]`)) return;
    let node;
    if (/^\.{0,2}\//.test(css) || /^(https?:)?\/\//.test(css)) {
      node = el("link");
      node.rel = "stylesheet";
      node.href = esmUrl(css);
    } else {
      node = el("style", "", css);
    }
    node.dataset.anywidgetCss = id;
    document.head.appendChild(node);
  }

  const initialized = new WeakMap();

  async function anywidget(m, mgr) {
    const host = el("div", "anywidget-host");
    const id = m.get("_anywidget_id") || m.model_id;
    loadCss(m.get("_css"), id);
    const mod = await loadEsm(m.get("_esm") || "");
    let widget = mod.default !== undefined ? mod.default : mod;
    if (typeof widget === "function") widget = await widget();
    if (!initialized.has(m)) initialized.set(m, widget.initialize ? await widget.initialize({ model: m }) : null);
    if (widget.render) await widget.render({ model: m, el: host });
    return host;
  }

  async function draw(m, mgr) {
    const view = VIEWS[m.name];
    let node;
    if (!view) {
      node = el("div", "meeple-widget-unknown", `(${m.name.replace(/Model$/, "")}: shown in JupyterLab)`);
    } else {
      node = await view(m, mgr);
    }
    domClasses(m, node);
    applyLayout(m, node, mgr);
    return node;
  }

  // --- the page: every widget-view script gets its widget drawn just before it --------------------
  async function drawPage() {
    const stateScript = document.querySelector('script[type="application/vnd.jupyter.widget-state+json"]');
    const views = [...document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]')];
    if (!views.length) return;
    const mgr = new Manager(stateScript ? JSON.parse(stateScript.textContent).state : {});
    await Promise.all(views.map(async (script) => {
      const area = el("div", "widget-subarea");
      script.parentNode.insertBefore(area, script);
      const { model_id } = JSON.parse(script.textContent);
      const m = mgr.models.get(model_id);
      try {
        if (!m) throw new Error(`the page saved no state for widget ${model_id}`);
        area.appendChild(await draw(m, mgr));
      } catch (err) {
        area.replaceChildren(el("div", "meeple-widget-error", "This widget could not be drawn: " + (err.message || err)));
        console.error(err);
      }
    }));
    document.documentElement.dataset.meepleWidgets = "drawn";  // for tests and the bench: every view tried
  }

  globalThis.meepleWidgets = { drawn: document.readyState === "loading"
    ? new Promise((r) => document.addEventListener("DOMContentLoaded", () => r(drawPage())))
    : drawPage() };
})();
