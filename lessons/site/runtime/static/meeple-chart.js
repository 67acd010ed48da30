// A chart on the course site (issue 24 item 2): Altair's JupyterChart as the site shows it.
//
// In JupyterLab a JupyterChart carries its own copy of Vega, Vega-Lite and vega-embed
// (0.9 MB per chart). On the site the build compiles each chart's Vega-Lite spec to Vega
// (lessons/site/build.py, with vl-convert, the compiler Altair itself uses) and this front
// end draws it with one Vega file the site serves from _static/vega/, loaded once a page
// and cached by the browser. Parameters bound to inputs (the Explorer's slider) are Vega
// signals: they redraw with no Python. The chart scales down to its column (meeple-live.css).
// A classic script of the site, once per page whoever asks first (the Explorer's and the controls'
// front ends share this map: one Vega a page, however many charts and widgets ask at once).
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
const loadVega = () => script("../vega/vega.min.js", "vega");

async function render({ model, el }) {
  const V = await loadVega();
  const box = document.createElement("div");
  box.className = "vega-embed meeple-chart";
  const chart = document.createElement("div");
  const bindings = document.createElement("div");
  bindings.className = "vega-bindings";
  box.append(bindings, chart);  // the slider above the chart it moves
  el.appendChild(box);
  const spec = model.get("spec");
  const view = new V.View(V.parse(spec), { renderer: "svg", container: chart, bind: bindings, hover: true });
  await view.runAsync();
  if (!bindings.childElementCount) bindings.remove();
  const alt = spec && spec.description;  // a text alternative for screen readers, where the chart has one
  const svg = chart.querySelector("svg");
  if (svg) {
    svg.setAttribute("role", "img");
    if (alt) svg.setAttribute("aria-label", alt);
  }
  return () => view.finalize();
}

export default { render };
