// meeple Stepper: draws the `view` the Python side computes; sends clicks back.
// No rules here: the buttons offered are exactly the legal actions Python listed.

function h(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function cardEl(card, cls) {
  const c = h("span", "meeple-card " + (cls || ""), card.text);
  c.style.background = card.colour;
  return c;
}

function drawTrack(board) {
  const wrap = h("div", "meeple-board");
  const track = h("div", "meeple-track");
  board.spaces.forEach((value, i) => {
    const space = h("div", "meeple-space");
    space.dataset.space = i;
    space.appendChild(h("div", "meeple-space-value", i === 0 ? board.start_label : (value > 0 ? "+" : "") + value));
    space.classList.add(value > 0 ? "pos" : value < 0 ? "neg" : "zero");
    if (i === board.spaces.length - 1) space.classList.add("meeple-finish");
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
    pile.appendChild(h("span", "meeple-note", " " + board.note));
    wrap.appendChild(pile);
  }
  if (board.hands) {
    board.hands.forEach((hand, i) => {
      const row = h("div", "meeple-hand-row");
      row.appendChild(h("span", "meeple-label", `Player ${i + 1}: `));
      hand.forEach((c) => row.appendChild(cardEl(c, "small")));
      wrap.appendChild(row);
    });
  }
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

function render({ model, el }) {
  const root = h("div", "meeple-stepper");
  el.appendChild(root);
  const send = (msg) => model.send(msg);

  function draw() {
    const v = model.get("view");
    root.replaceChildren();
    if (!v || !v.title) return;
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
    root.appendChild(b.kind === "track" ? drawTrack(b) : drawTable(b));

    const status = h("div", "meeple-status" + (v.your_turn ? " yours" : ""), v.status);
    root.appendChild(status);
    const err = model.get("error");
    if (err) root.appendChild(h("div", "meeple-error", err));

    if (v.your_turn) {
      const acts = h("div", "meeple-actions");
      v.actions.forEach((a) => {
        const btn = h("button", "meeple-action", a);
        btn.dataset.action = a;
        const card = (b.hand || []).find((c) => a.startsWith(c.text));
        if (card) btn.style.borderColor = card.colour;
        btn.addEventListener("click", () => send({ do: "act", action: a }));
        acts.appendChild(btn);
      });
      root.appendChild(acts);
    } else if (b.hand && b.hand.length && !v.watching) {
      const hand = h("div", "meeple-hand");
      hand.appendChild(h("span", "meeple-label", "Your hand: "));
      b.hand.forEach((c) => hand.appendChild(cardEl(c)));
      root.appendChild(hand);
    }

    const bar = h("div", "meeple-controls");
    const mk = (label, cls, msg, enabled) => {
      const btn = h("button", "meeple-control " + cls, label);
      btn.disabled = !enabled;
      btn.addEventListener("click", () => send(msg));
      bar.appendChild(btn);
    };
    mk("Next ▶", "meeple-next", { do: "step" }, !v.over && !v.your_turn);
    mk(v.watching ? "Play the round ▶▶" : "Play to my turn ▶▶", "meeple-fast", { do: "to-my-turn" }, !v.over && !v.your_turn);
    mk("Undo", "meeple-undo", { do: "undo" }, v.can_undo);
    mk("New game", "meeple-restart", { do: "restart" }, true);
    root.appendChild(bar);

    const log = h("ol", "meeple-events");
    const first = v.events.length - v.new_events;
    v.events.forEach((e, i) => log.appendChild(h("li", i >= first ? "new" : "", e)));
    root.appendChild(log);
  }

  model.on("change:view", draw);
  model.on("change:error", draw);
  draw();
}

export default { render };
