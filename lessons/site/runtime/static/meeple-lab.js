// The variant lab page of the course site (issue 25): one changed rule against the base game,
// played in the reader's browser and measured as `meeple compare` measures it.
//
// Python (the page's Pyodide worker, meeple-live.js) does everything that decides: it parses
// the rule numbers (Config.with_text, the names --set takes), plays the games on compare's
// seeds and makes the figures (meeple.widgets.lab.VariantLab -> workbench.comparison). This
// file only carries the form, the progress, Cancel, and the link / file / command Python made.
// The page's address holds the lab (?game=...&set=...&meeple=<version>&chance=<fingerprint>):
// opening it restores the lab and says so when this site's meeple differs.
(function () {
  "use strict";
  const root = document.getElementById("meeple-lab");
  if (!root) return;
  // lab_call answers {ok} or {error: one line}: a refused setting or link reads as its message, no traceback
  const call = (op, request) => globalThis.meepleLive.call("lab", { op: "lab_call",
    request: JSON.stringify({ op, request: request === undefined ? "" : JSON.stringify(request) }) })
    .then((text) => { const r = JSON.parse(text); if ("error" in r) throw new Error(r.error); return r.ok; });
  const oneLine = (err) => String((err && err.message) || err).trim().split("\n").filter(Boolean).pop();
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const field = (label, input) => { const l = el("label", "meeple-lab-field"); l.append(el("span", "", label), input); return l; };

  const game = el("select", "meeple-lab-game");
  const settings = el("textarea", "meeple-lab-settings");
  settings.rows = 3;
  settings.placeholder = "one rule number a line, as --set names it: hand_size=9, hand_sizes[1]=12, bonus=6; " +
    "several variants: NAME: field=value lines (big: hand_size=9)";
  const common = el("textarea", "meeple-lab-common");  // `meeple compare --set`: the base and every variant start there
  common.rows = 1;
  common.placeholder = "numbers the base rules and every variant share, one a line, as --set names them: players=3";
  const names = el("datalist");
  names.id = "meeple-lab-names";
  const bots = el("input", "meeple-lab-bots");
  bots.value = "random";
  const games = el("input", "meeple-lab-games");
  // text fields, not number inputs: a number input reports "" for "abc" (Number("") is 0, so an
  // empty seed played seed 0); the text as typed goes to Python, which says what is wrong with it
  games.type = "text"; games.inputMode = "numeric"; games.value = "300";
  const seed = el("input", "meeple-lab-seed");
  seed.type = "text"; seed.inputMode = "numeric"; seed.value = "1";
  const measures = el("input", "meeple-lab-measures");  // names as `meeple rules GAME --measures` lists them
  measures.placeholder = "e.g. drama, margin";
  const play = el("button", "meeple-control meeple-lab-play", "▶ Play");
  const cancel = el("button", "meeple-control meeple-lab-cancel", "■ Cancel");
  cancel.disabled = true;
  const status = el("div", "meeple-live-status meeple-lab-status",
    "Python runs in your browser: the first start downloads about 13 MB. Press Play to load it.");
  const warn = el("div", "meeple-lab-warnings");
  const out = el("div", "meeple-lab-out");
  const nameList = el("div", "meeple-lab-names");
  const form = el("div", "meeple-lab-form");
  form.append(field("game", game), field("rule numbers", settings), field("common numbers", common),
    field("bots", bots), field("games", games),
    field("seed", seed), field("measures", measures));
  const buttons = el("div", "meeple-lab-buttons");
  buttons.append(play, cancel);
  root.replaceChildren(form, nameList, buttons, status, warn, out);
  root.dataset.meepleLab = "static";

  const style = document.createElement("style");
  style.textContent = `
.meeple-lab-form{display:grid;grid-template-columns:repeat(auto-fit,minmax(10em,1fr));gap:.5em 1em;margin:.5em 0}
.meeple-lab-field{display:flex;flex-direction:column;font-size:.9em;min-width:0}
.meeple-lab-field textarea,.meeple-lab-field input,.meeple-lab-field select{font:inherit;font-family:SFMono-Regular,Menlo,Consolas,monospace;max-width:100%;box-sizing:border-box}
.meeple-lab-field:has(textarea){grid-column:1/-1}
.meeple-lab-status{color:var(--pst-color-text-muted,#555)}
.meeple-lab-names{font-size:.8em;color:var(--pst-color-text-muted,#555);overflow-wrap:anywhere;margin:.2em 0 .6em}
.meeple-lab-buttons{display:flex;gap:.5em;flex-wrap:wrap}
.meeple-lab-warnings{color:#a04000;margin:.4em 0}
.meeple-lab-out pre{white-space:pre;overflow-x:auto;font-size:.78em;max-width:100%}
.meeple-lab-share{display:flex;flex-wrap:wrap;gap:.5em;align-items:center;margin:.6em 0}
.meeple-lab-share input{flex:1 1 16em;min-width:0;font-size:.8em}
.meeple-lab-out code{overflow-wrap:anywhere}
.meeple-lab-chart svg{max-width:100%;height:auto;display:block}
.meeple-lab-warnings{white-space:pre-line}
html[data-theme=dark] .meeple-lab-warnings{color:#ffb86b}
html[data-theme=dark] .meeple-lab-chart svg{background:#fff;border-radius:4px}`;
  document.head.appendChild(style);

  let info = null;
  let cancelled = false;

  function showNames() {
    const g = info && info.games[game.value];
    if (!g) return;
    nameList.textContent = `Numbers you can set for ${g.title}: ${g.numbers.join(", ")}; whole lists too: ` +
      g.names.filter((n) => !g.numbers.includes(n) && !n.includes("[")).join(", ") + `. Bots: ${g.bots.join(", ")}.`;
  }

  async function ready() {
    if (info) return info;
    status.textContent = "Starting Python in your browser";
    await globalThis.meepleLive.startPython((s) => { status.textContent = s; });
    info = await call("lab_games");
    const chosen = game.value;
    game.replaceChildren(...Object.entries(info.games).map(([k, g]) => { const o = el("option", "", g.title); o.value = k; return o; }));
    if (chosen) game.value = chosen;
    showNames();
    return info;
  }

  function download(name, text, type) {
    const a = el("a");
    a.href = URL.createObjectURL(new Blob([text], { type }));
    a.download = name;
    document.body.appendChild(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }

  function showResult(started, r) {
    const text = el("pre", "meeple-lab-table", r.text);
    const share = el("div", "meeple-lab-share");
    const link = el("input", "meeple-lab-link");
    link.readOnly = true;
    link.value = location.href.split("?")[0] + started.link;
    const file = el("button", "meeple-control meeple-lab-file", "⤓ Variant file (.toml)");
    file.addEventListener("click", () => download(`${started.name}.toml`, started.file, "application/toml"));
    const report = el("button", "meeple-control meeple-lab-report", "⤓ Download report (.html)");
    report.title = "One self-contained HTML file (charts drawn in it, no script, opens offline) to share";
    report.addEventListener("click", () => download(`${started.name}-report.html`, r.report, "text/html"));
    share.append(el("span", "", "Link to this lab:"), link, file, report);
    const cmd = el("p", "meeple-lab-command");
    cmd.append("The same figures from the command line (", el("code", "", "--report report.html"),
      " writes the same report): ", el("code", "", r.command));
    const chart = el("figure", "meeple-lab-chart");
    chart.innerHTML = r.chart;  // the report's own SVG (widgets/report.py escapes every label)
    chart.prepend(el("figcaption", "", "Each seat against base, paired game by game (95% CI):"));
    out.replaceChildren(share, cmd, chart, text);
    warn.textContent = [warn.textContent, ...r.same.map((w) => "⚠ " + w)].filter(Boolean).join("\n");
    out.dataset.rows = JSON.stringify(r.rows);  // compare's table, exactly (tests read it)
    out.dataset.text = r.text;
  }

  async function run(request) {
    play.disabled = true;
    cancel.disabled = false;
    cancelled = false;
    warn.textContent = "";
    // the last run's figures, links and command go: they are not this run's (a failed run left
    // them under its error, as if they were)
    out.replaceChildren();
    delete out.dataset.rows;
    delete out.dataset.text;
    root.dataset.meepleLab = "running";
    try {
      await ready();
      const started = await call("lab_start", request);
      game.value = started.game; showNames();
      settings.value = started.settings.join("\n");
      common.value = started.common.join("\n");
      bots.value = started.bots; games.value = String(started.games); seed.value = String(started.seed);
      measures.value = started.measures.join(", ");
      history.replaceState(null, "", started.link);  // the address is the lab: reload or share it
      warn.textContent = started.warnings.map((w) => "⚠ " + w[0].toUpperCase() + w.slice(1)).join("\n");
      let done = 0;
      const t0 = performance.now();
      // each step ends after ~0.3 s, inside a game of slow bots if need be: Cancel is seen within a second
      while (done < started.games && !cancelled) {
        const step = await call("lab_step", { games: started.games, seconds: 0.3 });
        done = step.done;
        status.textContent = `Playing ${started.games} games of each rule set: ${done} of ${started.games}` +
          `${step.playing ? ", the next one under way" : ""} (${((performance.now() - t0) / 1000).toFixed(0)} s)`;
      }
      const r = await call("lab_result");
      showResult(started, r);
      status.textContent = cancelled
        ? `Cancelled after ${r.done} of ${r.games} games: the figures cover the games played.`
        : `Played ${r.games} games of each rule set in your browser in ${((performance.now() - t0) / 1000).toFixed(1)} s.`;
      root.dataset.meepleLab = cancelled ? "cancelled" : "done";
    } catch (err) {
      status.textContent = "Could not play: " + oneLine(err);
      root.dataset.meepleLab = "error";
    } finally {
      play.disabled = false;
      cancel.disabled = true;
    }
  }

  play.addEventListener("click", () => {
    run({ game: game.value || "bucket-brigade", settings: settings.value.split("\n"), common: common.value.split("\n"),
      bots: bots.value.trim(),  // as typed: an emptied field is named by Python, not played as "random"
      games: games.value, seed: seed.value, name: "variant", measures: measures.value });  // as typed: Python checks them
  });
  cancel.addEventListener("click", () => { cancelled = true; cancel.disabled = true; });
  game.addEventListener("change", showNames);
  ["bucket-brigade", "bucket-king", "duck-duck-bruce", "piggyback-brigade"].forEach((g) => {
    const o = el("option", "", g); o.value = g; game.appendChild(o);  // until Python lists them with titles
  });

  if (location.protocol === "file:") {
    play.disabled = true;
    status.textContent = "The lab needs the site served by a web server (browsers start no Python worker from a " +
      "file:// page): python -m http.server --directory <the site folder>, then open http://localhost:8000/lab.html.";
  } else if (location.search.includes("game=")) {
    run({ link: location.search });  // a shared link: restore the lab and play it
  }
  globalThis.meepleLab = { run };
})();
