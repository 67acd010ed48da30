// meeple on the course site: the widgets come alive without a server.
//
// The pages are static: each widget is drawn from the state saved when the site
// was built. This script (loaded before the widgets are drawn) lets them play:
//  - every Stepper gets "Play live": Python (Pyodide, served by this site) starts
//    in a Web Worker, rebuilds the Stepper's game from its saved setup
//    (meeple.widgets.session.StepperSession) and feeds the same stepper.js;
//  - every Explorer gets "Simulate in your browser": another number of games,
//    played by meeple.rules in the worker, with a progress line.
// No rule and no widget logic lives here: this file only carries messages.
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

  // Python starts once per page (the browser caches its files for the next page).
  function startPython(status) {
    listeners.add(status);
    if (!started) {
      const t0 = performance.now();
      started = fetch(here + "meeple-site.json")
        .then((r) => r.json())
        .then((site) => {
          worker = new Worker(here + "meeple-worker.js", { type: "module" });
          worker.onmessage = onMessage;
          worker.onerror = (e) => {  // e.g. a file missing from the site: say so, and stop waiting
            const why = "Python could not start: " + (e.message || "the worker failed to load");
            listeners.forEach((f) => f(why));
            calls.forEach((c) => c.reject(new Error(why)));
            calls.clear();
            started = null;  // a later click tries again
          };
          return ask("start", { pyodide: here + site.pyodide_dir, wheel: here + site.wheel });
        })
        .then((info) => {
          info.seconds = (performance.now() - t0) / 1000;
          globalThis.meepleLive.started = info;
          return info;
        });
    }
    return started.finally(() => listeners.delete(status));
  }

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

  // --- the Stepper: stepper.js calls this from its render() when no kernel is behind it ---
  function offerStepper({ model, el: host, root, render }) {
    const setup = model.get("setup");
    root.dataset.meepleLive = "static";
    const bar = el("div", "meeple-live-bar meeple-stepper-bar");
    bar.dataset.meepleSetup = JSON.stringify(setup || null);  // what the game is rebuilt from (and tests read)
    host.insertBefore(bar, root);
    if (!setup || !setup.game) return;  // saved by an older meeple: nothing to rebuild from
    if (!setup.portable) {
      bar.appendChild(el("span", "meeple-note", "This game uses a bot written in the lesson: play it in JupyterLab."));
      return;
    }
    const button = el("button", "meeple-control meeple-play-live", "▶ Play live");
    const line = el("span", "meeple-live-status",
      "Saved position. Play live runs this game in your browser (the first start downloads Python, about 13 MB).");
    bar.append(button, line);
    button.addEventListener("click", async () => {
      button.disabled = true;
      root.dataset.meepleLive = "loading";
      const tick = ticking(line, "Starting Python in your browser");
      try {
        await startPython((s) => tick.set(s));
        tick.set("Dealing this game again from its seed");
        const live = await openSession("stepper", setup);
        tick.stop();
        host.replaceChildren(bar);
        render({ model: live, el: host });
        const liveRoot = host.querySelector(".meeple-stepper");
        liveRoot.dataset.meepleLive = "live";
        button.remove();
        line.textContent = `Live: Python is running in your browser (started in ${globalThis.meepleLive.started.seconds.toFixed(1)} s). Same seed, same game as in JupyterLab.`;
      } catch (err) {
        tick.stop();
        root.dataset.meepleLive = "static";
        button.disabled = false;
        line.textContent = "Could not start: " + err.message;
      }
    });
  }

  // --- any widget kind (meeple.widgets.transport): a session in the worker, a model on the page ---
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

  // --- the Explorer: its chart moves without Python; other game counts run in the worker ---
  function fmtPct(x) { return (100 * x).toFixed(1) + "%"; }
  function fmtNum(x) { return x.toFixed(2); }

  function offerExplorer(box) {
    if (box.dataset.meepleOffered) return;
    box.dataset.meepleOffered = "1";
    const setup = JSON.parse(box.dataset.meepleSetup);
    const form = el("div", "meeple-live-bar");
    const value = el("select", "meeple-live-value");
    setup.values.forEach((v) => {
      const o = el("option", "", String(v));
      o.value = JSON.stringify(v);
      value.appendChild(o);
    });
    if ("start" in setup) value.value = JSON.stringify(setup.start);  // where the chart's slider starts
    const games = el("input", "meeple-live-games");
    games.type = "number";
    games.min = "1";
    games.step = "100";
    games.value = String(setup.games);
    const run = el("button", "meeple-control meeple-live-run", "Simulate in your browser");
    const line = el("div", "meeple-live-status",
      `The chart above was simulated when the site was built (${setup.games} games per value, seed ${setup.seed}). ` +
      "Try another number of games: Python plays them in your browser.");
    const out = el("div", "meeple-live-numbers");
    const label = (t) => el("span", "meeple-label", t);
    form.append(label(`${setup.field} `), value, label(" games "), games, run);
    box.append(form, line, out);
    run.addEventListener("click", async () => {
      const n = Number(games.value);
      if (!Number.isInteger(n) || n < 1 || n > 20000) {
        line.textContent = `games=${games.value} is not allowed: a whole number from 1 to 20000.`;
        return;
      }
      run.disabled = true;
      box.dataset.meepleLive = "loading";
      const tick = ticking(line, "Starting Python in your browser");
      try {
        await startPython((s) => tick.set(s));
        box.dataset.meepleLive = "live";
        tick.set(`Playing ${n} games of ${setup.field} = ${value.selectedOptions[0].textContent}: 0 of ${n}`);
        const t0 = performance.now();
        const rows = JSON.parse(await ask("simulate_point",
          { setup: JSON.stringify(setup), value: value.value, games: n },
          (done, total) => tick.set(`Playing ${total} games of ${setup.field} = ${value.selectedOptions[0].textContent}: ${done} of ${total}`)));
        tick.stop();
        const secs = (performance.now() - t0) / 1000;
        // a coarse browser clock (privacy settings round it to 100 ms) can read 0 s: no "Infinity games/s"
        const pace = secs > 0 ? ` (${(n / secs).toFixed(0)} games/s)` : "";
        line.textContent = `Simulated in your browser: ${n} games in ${secs.toFixed(1)} s${pace}, seed ${setup.seed}.`;
        showRows(out, setup.field, rows);
      } catch (err) {
        tick.stop();
        line.textContent = "Could not simulate: " + err.message;
      } finally {
        run.disabled = false;
      }
    });
  }

  function showRows(out, field, rows) {
    const t = el("table", "meeple-numbers");
    const head = el("tr");
    ["seat", "win rate", "95% CI", "mean score", "95% CI"].forEach((c) => head.appendChild(el("th", "", c)));
    t.appendChild(head);
    rows.forEach((r) => {
      const tr = el("tr");
      tr.dataset.seat = r.seat;
      [`Player ${r.seat + 1} (${r.bot})`, fmtPct(r.win_rate), `${fmtPct(r.win_low)} to ${fmtPct(r.win_high)}`,
        fmtNum(r.score), `${fmtNum(r.score_low)} to ${fmtNum(r.score_high)}`].forEach((c) => tr.appendChild(el("td", "", c)));
      t.appendChild(tr);
    });
    const caption = el("caption", "", `${field} = ${rows.length ? rows[0][field] : ""}, ${rows.length ? rows[0].games : 0} games`);
    t.prepend(caption);
    out.replaceChildren(t);
    out.dataset.rows = JSON.stringify(rows);  // the exact numbers, for tests
  }

  // Explorers are HTML drawn by the widget manager after the page loads: watch for them.
  function scan() { document.querySelectorAll(".meeple-explorer-live").forEach(offerExplorer); }
  new MutationObserver(scan).observe(document.documentElement, { childList: true, subtree: true });
  document.addEventListener("DOMContentLoaded", scan);

  // `call(what, args)`: ask the worker directly (tests/bench/bench_site.py times simulate_point with it).
  const call = (what, args, progress) => startPython(() => {}).then(() => ask(what, args, progress));
  globalThis.meepleLive = { offerStepper, startPython, call, open: openSession, started: null };
})();
