// meeple Stepper: draws the `view` the Python side computes; sends clicks back.
// No rules here: the buttons offered are exactly the legal actions Python listed.
// One front end, two transports: in JupyterLab `model` is the anywidget model of
// meeple.widgets.Stepper; on the course site, meeple-live.js hands this same
// `render` a model fed by Python running in a Web Worker (StepperSession).

// Each front end writes its own small h(): anywidget loads one self-contained ES module a widget (no shared import).
function h(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// WCAG's relative luminance of "#rrggbb" (null for anything else: a joker's gradient)
function luminance(colour) {
  const m = /^#([0-9a-f]{6})$/i.exec(colour || "");
  if (!m) return null;
  const lin = (i) => { const c = parseInt(m[1].slice(i, i + 2), 16) / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * lin(0) + 0.7152 * lin(2) + 0.0722 * lin(4);
}

function cardEl(card, cls) {
  const c = h("span", "meeple-card " + (cls || ""), card.text);
  c.style.background = card.colour;
  // the card's name in white or near-black, whichever reads better on its colour (at least 4.5:1
  // on each of the suits' colours; white on yellow was 2:1); a gradient keeps white with its shadow
  const l = luminance(card.colour);
  if (l !== null) {
    const dark = (l + 0.05) / (0.0056 + 0.05) > 1.05 / (l + 0.05);  // #111's luminance is 0.0056
    c.style.color = dark ? "#111" : "#fff";
    c.style.textShadow = "none";
  }
  return c;
}

function drawTrack(board) {
  const wrap = h("div", "meeple-board");
  const track = h("div", "meeple-track");
  board.spaces.forEach((sp, i) => {
    const space = h("div", `meeple-space tone-${sp.tone}` + (sp.finish ? " meeple-finish" : ""));
    space.dataset.space = i;
    space.appendChild(h("div", "meeple-space-value", sp.label));
    const here = h("div", "meeple-tokens");
    board.tokens.filter((t) => t.space === i).forEach((t) => {
      const tok = h("span", "meeple-token");
      tok.style.background = t.colour;
      tok.title = t.name;
      tok.dataset.token = t.name;
      here.appendChild(tok);
    });
    space.appendChild(here);
    track.appendChild(space);
  });
  wrap.appendChild(track);
  if (board.pile && board.pile.length) {
    const pile = h("div", "meeple-pile");
    pile.appendChild(h("span", "meeple-label", "Played: "));
    board.pile.forEach((c) => pile.appendChild(cardEl(c, "small")));
    wrap.appendChild(pile);
  }
  if (board.note) wrap.appendChild(h("div", "meeple-note", board.note));
  drawHands(board, wrap);
  return wrap;
}

function drawHands(board, wrap) {
  if (!board.hands) return;
  board.hands.forEach((hand, i) => {
    const row = h("div", "meeple-hand-row");
    row.appendChild(h("span", "meeple-label", `Player ${i + 1}: `));
    hand.forEach((c) => row.appendChild(cardEl(c, "small")));
    wrap.appendChild(row);
  });
}

function drawPyramids(board) {
  const wrap = h("div", "meeple-board");
  const all = h("div", "meeple-pyramids");
  board.pyramids.forEach((p) => {
    const box = h("div", "meeple-pyramid" + (p.out ? " out" : ""));
    box.appendChild(h("div", "meeple-pyramid-name", `${p.name}: ${p.buckets} bucket${p.buckets === 1 ? "" : "s"}`));
    [...p.rows].reverse().forEach((row) => {  // top row first on screen
      const r = h("div", "meeple-pyramid-row");
      row.forEach((c) => {
        const b = h("span", "meeple-bucket" + (c ? "" : " gone"));
        if (c) b.style.background = c;
        r.appendChild(b);
      });
      box.appendChild(r);
    });
    const front = h("div", "meeple-front");
    p.front.forEach((c) => front.appendChild(cardEl(c, "small")));
    box.appendChild(front);
    all.appendChild(box);
  });
  wrap.appendChild(all);
  if (board.note) wrap.appendChild(h("div", "meeple-note", board.note));
  drawHands(board, wrap);
  return wrap;
}

function drawRows(board) {
  const wrap = h("div", "meeple-board");
  board.rows.forEach((row) => {
    const r = h("div", "meeple-card-row");
    r.appendChild(h("span", "meeple-label", row.label + ": "));
    if (!row.cards.length) r.appendChild(h("span", "meeple-note", "—"));
    row.cards.forEach((c) => r.appendChild(cardEl(c, "small")));
    wrap.appendChild(r);
  });
  if (board.note) wrap.appendChild(h("div", "meeple-note", board.note));
  return wrap;
}

function drawTable(board) {
  const t = h("table", "meeple-kv");
  board.rows.forEach(([k, v]) => {
    const tr = h("tr");
    tr.appendChild(h("th", "", k));
    tr.appendChild(h("td", "", v));
    t.appendChild(tr);
  });
  return t;
}

const START = "Start Python to use this";

function render({ model, el }) {
  const root = h("div", "meeple-stepper");
  el.appendChild(root);
  // On the course site before Python starts, the saved position is drawn but nothing behind it
  // can move: the buttons say so (meeple-live.js offers the one click that starts Python).
  const locked = !!(globalThis.meepleLive && !model.meepleLive);
  let focusKey = null;  // the button to give keyboard focus back to after the move is drawn
  const active = () => root.getRootNode().activeElement;  // marimo draws widgets in a shadow root
  const send = (msg, key) => {
    if (locked) return;
    focusKey = key || null;
    model.send(msg);
  };
  root.setAttribute("role", "group");

  function draw() {
    const v = model.get("view");
    if (focusKey === null && root.contains(active())) focusKey = active().dataset.key || null;
    root.replaceChildren();
    if (!v || !v.title) return;
    root.setAttribute("aria-label", `${v.title}, round ${v.round}, step ${v.step}`);
    root.dataset.meepleStep = v.step;  // for tests and for the site's live adapter
    const head = h("div", "meeple-head");
    head.appendChild(h("span", "meeple-title", v.title));
    head.appendChild(h("span", "meeple-sub", ` · round ${v.round} · step ${v.step} · ${v.subtitle}`));
    root.appendChild(head);

    const scores = h("div", "meeple-players");
    v.players.forEach((p) => {
      const s = h("div", "meeple-player" + (p.current ? " current" : "") + (p.winner ? " winner" : ""));
      s.appendChild(h("div", "meeple-player-name", p.name));
      s.appendChild(h("div", "meeple-player-bot", p.bot));
      s.appendChild(h("div", "meeple-player-score", String(p.score)));
      scores.appendChild(s);
    });
    root.appendChild(scores);

    const b = v.board;
    const drawers = { track: drawTrack, pyramids: drawPyramids, rows: drawRows, table: drawTable };
    root.appendChild((drawers[b.kind] || drawTable)(b));

    const status = h("div", "meeple-status" + (v.your_turn ? " yours" : ""), v.status);
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    root.appendChild(status);
    const err = model.get("error");
    if (err) {
      const e = h("div", "meeple-error", err);
      e.setAttribute("role", "alert");
      root.appendChild(e);
    }

    if (b.hand && b.hand.length && !v.watching) {  // your cards, also while you choose
      const hand = h("div", "meeple-hand");
      hand.appendChild(h("span", "meeple-label", "Your hand: "));
      b.hand.forEach((c) => hand.appendChild(cardEl(c)));
      root.appendChild(hand);
    }
    if (v.your_turn) {
      const acts = h("div", "meeple-actions");
      v.actions.forEach((a) => {
        const btn = h("button", "meeple-action", a);
        btn.dataset.action = a;
        btn.dataset.key = "act";  // after a card is played, focus goes to the next choice
        const card = (b.hand || []).find((c) => a.startsWith(c.text) || a.startsWith("play " + c.text));
        if (card) btn.style.borderColor = card.colour;
        if (locked) { btn.disabled = true; btn.title = START; }
        btn.addEventListener("click", () => send({ do: "act", action: a }, "act"));
        acts.appendChild(btn);
      });
      root.appendChild(acts);
    }

    const bar = h("div", "meeple-controls");
    bar.setAttribute("role", "toolbar");
    bar.setAttribute("aria-label", "game controls");
    const mk = (label, cls, msg, enabled, title) => {
      const btn = h("button", "meeple-control " + cls, label);
      btn.dataset.key = cls;
      btn.disabled = locked || !enabled;
      btn.title = locked ? START : title || "";
      btn.addEventListener("click", () => send(msg, cls));
      bar.appendChild(btn);
    };
    mk("Next ▶", "meeple-next", { do: "step" }, !v.over && !v.your_turn);
    mk(v.watching ? "Play the round ▶▶" : "Play to my turn ▶▶", "meeple-fast", { do: "to-my-turn" }, !v.over && !v.your_turn);
    mk("Undo", "meeple-undo", { do: "undo" }, v.can_undo);
    mk("New game", "meeple-new", { do: "new-game" }, true, "Deal the next game (the next seed)");
    mk("Replay this deal", "meeple-restart", { do: "restart" }, true, "The same cards again, from the start");
    mk("Save record", "meeple-save", { do: "record" }, true);
    root.appendChild(bar);
    if (locked) root.appendChild(h("div", "meeple-note meeple-locked", `${START}: the moves run in Python, which starts in your browser with one click above.`));

    const log = h("ol", "meeple-events");
    log.setAttribute("aria-label", "what happened");
    log.start = v.first_event;  // numbered from the start of the game, not of this window
    const first = v.events.length - v.new_events;
    v.events.forEach((e, i) => log.appendChild(h("li", i >= first ? "new" : "", e)));
    root.appendChild(log);
    log.scrollTop = log.scrollHeight;  // the newest events are the ones to read
    if (focusKey) {  // keyboard focus stays in the widget after a move
      const again = root.querySelector(`[data-key="${focusKey}"]:not([disabled])`)
        || root.querySelector(".meeple-action:not([disabled]), .meeple-control:not([disabled])");
      if (again) again.focus();
    }
    focusKey = null;
  }

  // Python answers {do: "record"} with the game as JSON: offer it as a file.
  function save(msg) {
    if (!msg || typeof msg.record !== "string") return;
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([msg.record], { type: "application/json" }));
    a.download = msg.name || "meeple-record.json";
    a.className = "meeple-download";
    a.textContent = "download the record";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  }

  model.on("change:view", draw);
  model.on("change:error", draw);
  model.on("msg:custom", save);
  draw();
  // On the course site (no kernel) the page's live runtime offers "Play live".
  const live = globalThis.meepleLive;
  if (live && !model.meepleLive) live.offerStepper({ model, el, root, render });
}

export default { render };
