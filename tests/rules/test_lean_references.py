"""The lean references of tests/bench (issue 21) decide as meeple's heuristic bots do, decision by decision.

`make bench` compares meeple's speed with lean hand-written loops of the same
games; a ratio means something only if the lean heuristic is meeple's
heuristic. Each lean loop can log what the mover saw at every decision and
what it chose; here every logged decision of a few hundred lean games is
rebuilt as a meeple state and put to meeple's own heuristic bot, which must
choose the same (ties: meeple's first equally good choice, the one the lean
loop takes). The games are the lean loop's own, so every situation it meets is
checked, not only those meeple's games reach.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import lean_ddb  # noqa: E402 - after the sys.path line that makes it importable
import lean_piggyback  # noqa: E402 - after the sys.path line that makes it importable

from meeple.rules import duck_duck_bruce as ddb  # noqa: E402 - after the sys.path line that makes it importable
from meeple.rules import piggyback_brigade as pb  # noqa: E402 - after the sys.path line that makes it importable

GAMES = 100  # Duck, Duck, Bruce: about 60 decisions a game
RACES = 1500  # Piggyback: a heuristic declines a reroll in about one race in 50


class _FirstOfTies(random.Random):
    """A bot rng that picks the first of equally good choices (the lean loops' order) and counts the ties."""

    def __init__(self):
        super().__init__(0)
        self.ties = 0

    def randrange(self, n, *args):  # noqa: D102 - the bots break ties with randrange(len(best))
        self.ties += 1
        return 0


def test_lean_piggyback_heuristic_decides_as_meeple_heuristic_bot():
    cfg = pb.Config()  # the lean loop's game: base rules, 4 players, one piglet each
    assert cfg.players == 4 and cfg.piglets_per_player == 1 and cfg.sections == lean_piggyback.SECTIONS
    assert cfg.faces == lean_piggyback.FACES
    rng, seen = random.Random(5), Counter()
    for _ in range(RACES):
        log = []
        lean_piggyback.play(rng, 4, "heuristic", log)
        for kind, p, where, stacks, chose in log:
            s = pb.new_game(cfg, 0, events=False)
            s.current_player, s.piglet, s.pending, s.rerolls = p, p, (), 0
            s.where, s.stacks = tuple(where), tuple(map(tuple, stacks))
            s.phase = pb.TURN if kind == "extend" else pb.REROLL
            meeple = pb.heuristic_bot(pb.observation(s, p), pb.legal_actions(s), _FirstOfTies())
            want = {("extend", True): pb.EXTEND, ("extend", False): pb.ROLL,
                    ("reroll", True): pb.ROLL_AGAIN, ("reroll", False): pb.STOP}[kind, chose]
            assert meeple == want, f"{kind} for seat {p} at {where}, stacks {stacks}: lean {want}, meeple {meeple}"
            seen[str(want)] += 1
    # every kind of decision was met, many times (a log that stayed empty would prove nothing)
    assert min(seen[k] for k in ("extend the track", "roll", "reroll")) >= 500 and seen["stop"] >= 10, seen


def _card(c: int):
    return ddb.BRUCE if c < 0 else ddb.Duck(ddb.SUITS[c >> 3], c & 7)


def test_lean_ddb_heuristic_decides_as_meeple_heuristic_bot():
    cfg = ddb.Config()
    assert cfg.players == 4 and cfg.die == lean_ddb.DIE and cfg.minus_one == "steal-back"
    card = {c: _card(c) for c in lean_ddb.DECK}
    assert Counter(map(card.get, lean_ddb.DECK)) == Counter(cfg.deck())
    deck = Counter(lean_ddb.DECK)
    bot = ddb.BOTS["heuristic"]
    fresh = ddb.new_game(cfg, 0, events=False)
    rng, seen, ties = random.Random(5), Counter(), 0
    for _ in range(GAMES):
        log = []
        lean_ddb.play(rng, 4, "heuristic", log)
        for i, (kind, p, row, pile, nests, chose) in enumerate(log):
            s = fresh._copy()
            s.row = tuple(map(card.get, row))
            s.pile = tuple(map(card.get, pile))  # the lean pile's last card is flipped next, as meeple's
            s.nests = tuple(tuple(map(card.get, n)) for n in nests)
            s.discard = tuple(map(card.get, (deck - Counter(pile + row + sum(nests, []))).elements()))
            s.current_player, s.phase = p, ddb.DECIDE if kind == "stop" else ddb.STEAL
            if i % 16 == 0:
                ddb.check_state(s)  # the rebuilt states are real ones: every card in one place
            tie_rng = _FirstOfTies()
            meeple = bot(ddb.observation(s, p), ddb.legal_actions(s), tie_rng)
            ties += tie_rng.ties
            if kind == "stop":
                want = ddb.STOP if chose else ddb.FLIP
            else:
                want = ddb.NO_STEAL if chose is None else ddb.Steal(*chose)
            assert meeple == want, f"{kind} for seat {p}, row {s.row}, nests {s.nests}: lean {want}, meeple {meeple}"
            seen[kind if kind == "steal" else str(want)] += 1
            seen["declined" if want == ddb.NO_STEAL else "stole"] += kind == "steal"
    assert min(seen[k] for k in ("flip", "stop", "steal", "declined", "stole")) >= 50, seen
