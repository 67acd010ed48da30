// meeple's Web Worker on the course site: Python (Pyodide) off the page's thread.
//
// Started by meeple-live.js on the first "Start Python to use this" or "Simulate in your browser".
// Everything it loads comes from this site: Pyodide's files (vendored from npm at
// build time, hashes checked) and the meeple wheel built with the site, installed
// with pyodide.loadPackage(url) (micropip would resolve dependencies on other hosts).
// Messages: {call, what, args} in; {call, kind: "result"|"error"|"progress", ...} out,
// and {kind: "status", text} while Python starts.
// Any widget kind (meeple.course.site.runtime.transport: the Stepper, the Explorer, ...) is opened with
// {what: "open", args: {kind, setup}} and driven with {what: "send", args: {id, message}}:
// JSON text both ways, answered with the session's new view.

let py = null;
let live = null;  // the Python module meeple.course.site.runtime.live
let transport = null;  // the Python module meeple.course.site.runtime.transport

const status = (text) => postMessage({ kind: "status", text });

async function start({ pyodide, wheel }) {
  if (live) return { ready: true };
  const t0 = performance.now();
  // each stage says what failed in its own words (the page shows one line and offers "Try again";
  // it ends this worker and starts a new one: Pyodide half-loaded is not loaded twice in one worker)
  const stage = async (what, f) => {
    try {
      return await f();
    } catch (err) {
      throw new Error(`${what} (${String((err && err.message) || err).split("\n")[0]})`);
    }
  };
  status("Loading Python (Pyodide, about 13 MB the first time; then from the browser's cache)");
  const { loadPyodide } = await stage("Pyodide (pyodide.mjs) did not load",
    () => import(pyodide + "pyodide.mjs"));  // the folder is named by its version
  // A download cut off inside Pyodide's wasm loader is thrown where loadPyodide's promise never
  // hears of it (it would wait for ever, "Starting Python (0 s)"): the worker's own unhandled
  // rejection or error ends this stage instead, said as the failure it is.
  const crashed = new Promise((_, reject) => {
    const fail = (e) => {
      e.preventDefault();
      reject(e.reason || e.error || new Error(e.message || "the download failed"));
    };
    self.addEventListener("unhandledrejection", fail, { once: true });
    self.addEventListener("error", fail, { once: true });
  });
  crashed.catch(() => {});
  // Pyodide's own wasm hook (getInstantiateWasmFunc, Pyodide 314) catches a failed download or
  // instantiation, writes console.warn("wasm instantiation failed!") and the error, and never
  // settles loadPyodide: the rejection above reaches this worker only when the fetch fails before
  // its handler is attached (a race a test lost once in many runs, and always lost when the file
  // came cut short). That warning is the loader's one word of it, so it ends the stage too, with
  // the error it is followed by.
  const warn = console.warn;
  const warned = new Promise((_, reject) => {
    let failed = false;
    console.warn = (...args) => {
      warn.apply(console, args);
      if (failed) {
        reject(args[0] instanceof Error ? args[0] : new Error(String(args[0])));
      } else if (String(args[0]).startsWith("wasm instantiation failed")) {
        failed = true;
        setTimeout(() => reject(new Error("the wasm file did not load")), 0);  // if no error follows
      }
    };
  });
  warned.catch(() => {});
  try {
    py = await stage("Pyodide's files did not download",
      () => Promise.race([loadPyodide({ indexURL: pyodide, fullStdLib: false }), crashed, warned]));
  } finally {
    console.warn = warn;
  }
  const tPython = performance.now();
  status("Installing meeple");
  let wheelError = "";  // loadPackage reports a failed download here, and resolves
  await stage("the meeple wheel did not install",
    () => py.loadPackage(wheel, { messageCallback: () => {}, errorCallback: (m) => { wheelError = m; status(m); } }));
  status("Importing the rules");
  [live, transport] = await stage(wheelError ? `the meeple wheel did not install: ${wheelError}` : "meeple did not import",
    () => [py.pyimport("meeple.course.site.runtime.live"), py.pyimport("meeple.course.site.runtime.transport")]);
  const tReady = performance.now();
  return {
    ready: true,
    python_seconds: (tPython - t0) / 1000,
    meeple_seconds: (tReady - tPython) / 1000,
    ready_seconds: tReady / 1000,  // a worker's performance.now() counts from the worker's creation
    version: py.runPython("import sys; sys.version.split()[0]"),
  };
}

const handlers = {
  start,
  open: ({ kind, setup }) => transport.open_json(kind, setup),
  send: ({ id, message }) => transport.send_json(id, message),
  close: ({ id }) => transport.close(id),
  simulate_point: ({ setup, value, games }, call) =>
    live.simulate_point(setup, value, games, (done, total) => postMessage({ call, kind: "progress", done, total })),
  // tests/bench/bench_site.py: games/s by the worker's own clocks (JSON text: the rows and the seconds)
  timed_simulate_point: ({ setup, value, games }) => live.timed_simulate_point(setup, value, games),
  // A lesson's code cells (meeple-cells.js): meeple.course.site.runtime.cells, one namespace per page.
  cell: ({ op, page, code }) => {
    if (!["prepare", "run", "context"].includes(op)) throw new Error(`unknown cell request ${op}: prepare, run or context`);
    // callPromising where the browser can switch stacks (JSPI): a graded site's sealed check then waits for
    // WebCrypto's PBKDF2 (run_sync); elsewhere a plain call, and graded.py falls back to its Python loop
    const f = cells()[op];
    return typeof WebAssembly.Suspending === "function" ? f.callPromising(page, code) : f(page, code);
  },
};
// The variant lab page (meeple-lab.js): meeple.widgets.lab, compare's own figures.
const LAB_OPS = ["lab_games", "lab_start", "lab_step", "lab_result", "lab_call"];
handlers.lab = ({ op, request }) => {
  if (!LAB_OPS.includes(op)) throw new Error(`unknown lab request ${op}: ${LAB_OPS.join(", ")}`);
  labModule = labModule || py.pyimport("meeple.widgets.lab");
  return labModule[op](request || "");
};
let labModule = null;
let cellsModule = null;
const cells = () => (cellsModule = cellsModule || py.pyimport("meeple.course.site.runtime.cells"));

// One call at a time, in order: Python here is single-threaded and a session's moves must not interleave.
let queue = Promise.resolve();
onmessage = (e) => {
  const { call, what, args } = e.data;
  queue = queue.then(async () => {
    try {
      const handler = handlers[what];
      if (!handler) throw new Error(`unknown request ${what}`);
      if (what !== "start" && !live) throw new Error("Python has not started");
      const result = await handler(args, call);
      postMessage({ call, kind: "result", result });
    } catch (err) {
      postMessage({ call, kind: "error", error: String(err && err.message ? err.message : err) });
    }
  });
};
