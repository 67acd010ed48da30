// meeple on the course site: the widgets come alive without a server.
//
// The pages are static: each widget is drawn from the state saved when the site
// was built. This script (loaded before the widgets are drawn) lets them play:
//  - every Stepper and every lesson control (panel.js) says "Start Python to use this"
//    (Play live): Python (Pyodide, served by this site) starts in a Web Worker and each
//    widget is rebuilt from its saved setup (StepperSession, meeple.widgets.controls)
//    and fed to the same stepper.js / panel.js;
//  - every Explorer (static/explorer.js) moves over the numbers saved with the page and
//    offers "Start Python": then the same ExplorerSession as in JupyterLab runs in the worker;
//  - any widget kind opens with `meepleLive.open(kind, setup)` (meeple.course.site.runtime.transport).
// One click starts Python for the whole page (`whenStarted`). No rule and no widget logic
// lives here: this file only carries messages.
// Each live widget's root carries data-meeple-live = static | loading | live.
(function () {
  "use strict";
  const here = document.currentScript.src.replace(/[^/]*$/, "");
  let worker = null;
  let started = null;
  let nextCall = 1;
  const calls = new Map();
  const listeners = new Set();  // progress lines while Python starts

  function onMessage(e) {
    const m = e.data;
    if (m.kind === "status") {
      listeners.forEach((f) => f(m.text));
      return;
    }
    const call = calls.get(m.call);
    if (!call) return;
    if (m.kind === "progress") {
      if (call.progress) call.progress(m.done, m.total);
      return;
    }
    calls.delete(m.call);
    if (m.kind === "error") call.reject(new Error(m.error));
    else call.resolve(m.result);
  }

  function ask(what, args, progress) {
    return new Promise((resolve, reject) => {
      const call = nextCall++;
      calls.set(call, { resolve, reject, progress });
      worker.postMessage({ call, what, args });
    });
  }

  // Python starts once per page (the browser caches its files for the next page). A start that
  // fails is forgotten (its worker ended): the next click starts afresh, with no reload.
  function startPython(status) {
    listeners.add(status);
    if (!started) {
      const t0 = performance.now();
      started = fetch(here + "meeple-site.json")
        .catch((e) => { throw new Error(`the site's settings (meeple-site.json) did not load (${e.message})`); })
        .then((r) => {
          if (!r.ok) throw new Error(`the site's settings (meeple-site.json) did not load (HTTP ${r.status})`);
          return r.json();
        })
        .then((site) => {
          worker = new Worker(here + "meeple-worker.js", { type: "module" });
          worker.onmessage = onMessage;
          worker.onerror = (e) => {  // e.g. the worker's script missing or offline: say so, and stop waiting
            const why = new Error("the worker (meeple-worker.js) did not load" + (e.message ? ` (${e.message})` : ""));
            calls.forEach((c) => c.reject(why));
            calls.clear();
          };
          return ask("start", { pyodide: here + site.pyodide_dir, wheel: here + site.wheel });
        })
        .then((info) => {
          info.seconds = (performance.now() - t0) / 1000;
          globalThis.meepleLive.started = info;
          whenReady.splice(0).forEach((f) => f(info));  // every widget waiting for Python on this page
          return info;
        }, (err) => {
          started = null;  // a later click tries again
          if (worker) worker.terminate();  // half-loaded Pyodide is not loaded twice in one worker
          worker = null;
          calls.forEach((c) => c.reject(err));
          calls.clear();
          throw err;
        });
    }
    return started.finally(() => listeners.delete(status));
  }

  // A failed start in one line: what failed, and what to do.
  function failure(err) {
    const what = String((err && err.message) || err).split("\n")[0].slice(0, 200);
    return `Python could not start: ${what}. Check your connection, then try again.`;
  }

  // `whenStarted(f)`: f() once Python runs on this page (now, if it does already): one click on any
  // "Start Python" or "Play live" makes every widget of the page live.
  const whenReady = [];
  function whenStarted(f) {
    if (globalThis.meepleLive.started) f(globalThis.meepleLive.started);
    else whenReady.push(f);
  }

  // Each site script writes its own small el(): the pages load each script on its own, with no module to share.
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function ticking(line, text) {
    // "say so and show progress": the stage from the worker and the seconds so far
    const t0 = performance.now();
    let stage = text;
    const show = () => { line.textContent = `${stage} (${((performance.now() - t0) / 1000).toFixed(0)} s)`; };
    show();
    const timer = setInterval(show, 500);
    return { set: (s) => { stage = s; show(); }, stop: () => clearInterval(timer) };
  }

  // --- every widget of the page that needs Python: one click starts it for all of them ---
  // Each offer (a Stepper, a lesson control) connects once Python runs on the page
  // (`whenStarted`), whichever "Start Python" was clicked (an Explorer's too).
  const offers = [];

  function offer(host, root, kind, connect) {
    root.dataset.meepleLive = "static";
    const bar = el("div", `meeple-live-bar meeple-${kind}-bar`);
    host.insertBefore(bar, root);
    const button = el("button", `meeple-control meeple-start-python${kind === "stepper" ? " meeple-play-live" : ""}`,
      "▶ Start Python to use this");
    const line = el("span", "meeple-live-status",
      "Saved when the site was built. One click starts Python in your browser for every widget of this page " +
      "(the first start downloads about 13 MB).");
    line.setAttribute("role", "status");
    bar.append(button, line);
    let done = false;
    let pending = null;  // a connect under way (the click and whenStarted both ask for it)
    const item = {
      connect: () => {
        if (done) return Promise.resolve();
        if (pending) return pending;
        root.dataset.meepleLive = "loading";
        pending = (async () => {
          try {
            await connect(bar);
            done = true;
            button.remove();
            line.textContent = `Live: Python is running in your browser (started in ${globalThis.meepleLive.started.seconds.toFixed(1)} s).`;
          } catch (err) {
            root.dataset.meepleLive = "static";
            button.disabled = false;
            button.textContent = "↻ Try again";
            line.textContent = "Could not open this widget: " + String(err.message || err).split("\n")[0];
            throw err;
          } finally {
            pending = null;
          }
        })();
        return pending;
      },
      done: () => done,
      line,
      button,
      root,
    };
    offers.push(item);
    button.addEventListener("click", async () => {
      const waiting = offers.filter((o) => !o.done());  // a widget already live keeps its line
      waiting.forEach((o) => { o.button.disabled = true; o.root.dataset.meepleLive = "loading"; });
      const ticks = waiting.map((o) => ticking(o.line, "Starting Python in your browser"));
      try {
        await startPython((s) => ticks.forEach((t) => t.set(s)));
        ticks.forEach((t) => t.stop());
        waiting.forEach((o) => o.connect().catch(() => {}));  // a retry after a widget failed to open
      } catch (err) {  // every offer of the page says what failed, and offers the click again
        ticks.forEach((t) => t.stop());
        waiting.forEach((o) => {
          o.button.disabled = false;
          o.button.textContent = "↻ Try again";
          o.root.dataset.meepleLive = "static";
          o.line.textContent = failure(err);
        });
      }
    });
    whenStarted(() => item.connect().catch(() => {}));  // its failure is said on its own line
    return bar;
  }

  // --- the Stepper: stepper.js calls this from its render() when no kernel is behind it ---
  function offerStepper({ model, el: host, root, render }) {
    const setup = model.get("setup");
    if (!setup || !setup.game) {  // saved by an older meeple: nothing to rebuild from
      root.dataset.meepleLive = "static";
      return;
    }
    if (!setup.portable) {
      root.dataset.meepleLive = "static";
      const bar = el("div", "meeple-live-bar meeple-stepper-bar");
      bar.appendChild(el("span", "meeple-note", "This game uses a bot written in the lesson: play it in JupyterLab."));
      host.insertBefore(bar, root);
      return;
    }
    const bar = offer(host, root, "stepper", async (b) => {
      const live = await openSession("stepper", setup);
      host.replaceChildren(b);
      render({ model: live, el: host });
      host.querySelector(".meeple-stepper").dataset.meepleLive = "live";
    });
    bar.dataset.meepleSetup = JSON.stringify(setup);  // what the game is rebuilt from (and tests read)
  }

  // --- a lesson control (panel.js): the same control rebuilt from its setup in the worker ---
  function offerControl({ model, el: host, root, render }) {
    const setup = model.get("setup");
    if (!setup || !setup.kind) return;
    const bar = offer(host, root, "control", async (b) => {
      const live = await openSession(setup.kind, setup);  // meeple.course.site.runtime.transport: the control's own kind
      host.replaceChildren(b);
      render({ model: live, el: host });
      host.querySelector(".meeple-panel").dataset.meepleLive = "live";
    });
    bar.dataset.meepleSetup = JSON.stringify(setup);
  }

  // --- any widget kind (meeple.course.site.runtime.transport): a session in the worker, a model on the page ---
  // `open(kind, setup)` starts Python if need be, rebuilds the session from its setup and
  // resolves to a stand-in for the anywidget model: get/set/on/off/save_changes/send as the
  // widget's own front end uses them. send(msg) goes to the session's handle(msg); its answer
  // (the new view, {trait: value}) changes the traits and fires change:<trait> for each that
  // changed; an "answer" key fires msg:custom. Messages of one session go in order.
  async function openSession(kind, setup, status) {
    await startPython(status || (() => {}));
    const first = JSON.parse(await ask("open", { kind, setup: JSON.stringify(setup) }));
    return sessionModel(first.id, first.view);
  }

  function sessionModel(id, traits) {
    const state = { ...traits };
    const handlers = new Map();
    const fire = (name, ...args) => (handlers.get(name) || new Set()).forEach((f) => f(...args));
    let queue = Promise.resolve();
    const apply = (view) => {
      const changed = [];
      Object.entries(view).forEach(([k, v]) => {
        if (k === "answer") return;
        if (JSON.stringify(v) !== JSON.stringify(state[k])) { state[k] = v; changed.push(k); }
      });
      changed.forEach((k) => fire("change:" + k, state[k]));
      if (view.answer) fire("msg:custom", view.answer);
    };
    return {
      meepleLive: true,
      sessionId: id,
      get: (k) => state[k],
      set: (k, v) => { state[k] = v; },
      save_changes: () => {},
      on: (name, f) => { name.split(/\s+/).forEach((n) => { if (!handlers.has(n)) handlers.set(n, new Set()); handlers.get(n).add(f); }); },
      off: (name, f) => { (name ? name.split(/\s+/) : [...handlers.keys()]).forEach((n) => { const h = handlers.get(n); if (h) f ? h.delete(f) : h.clear(); }); },
      send: (msg) => {
        queue = queue.then(async () => {
          apply(JSON.parse(await ask("send", { id, message: JSON.stringify(msg) })).view);
        }).catch((err) => {
          state.error = String(err.message || err);
          fire("change:error", state.error);
        });
        return queue;
      },
    };
  }

  // `call(what, args)`: ask the worker directly (tests/bench/bench_site.py: timed_simulate_point).
  const call = (what, args, progress) => startPython(() => {}).then(() => ask(what, args, progress));
  // `attach(id, view)`: a model for a session Python opened itself (a Stepper a lesson cell made, meeple-cells.js)
  globalThis.meepleLive = { offerStepper, offerControl, startPython, call, open: openSession, attach: sessionModel,
    whenStarted, failure, started: null };
})();
