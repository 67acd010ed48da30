"""Records stay byte for byte what they were: the engine may get faster, never different.

tests/data/records.json holds, for every game, preset and line-up below, a
hash of each of several hundred seeded games (the record's JSON, every
event sentence, and the game's own statistics), plus a few whole records.
They were made by `python tests/rules/test_records.py --write` from the engine as
it was before the speed work of issue 11 (random bots), and from a commit
with the fixed heuristic bots for the heuristic and lookahead line-ups.

`python tests/rules/test_records.py --game=bucket-king` checks one game's sets.
pytest plays the first CHECK games of every set (and the few whole records)
and compares; `python tests/rules/test_records.py` checks every stored game (what
a change to the engine must pass before it is committed). Game i of a set
has seed derive(seed, "game", i), so `simulate(game, config, bots, games,
seed, workers=1)` plays the same games: its scores, winners and action
counts are compared with the records too.

The stored games are chance version 1 (made before version 2 existed): every one is played
and replayed with chance=1, which this meeple keeps for them (a record without a "chance"
key replays as version 1). Version 2's games are checked in tests/rules/test_chance2.py. Bucket Brigade's lookahead sets were made
again for issue 35's lookahead on the core (with racing: other choices, other games); the others
are as they were. Duck, Duck, Bruce's sets were made again with `--write --game=duck-duck-bruce`
when its game_stats gained turns_taken and bust_rate (issue 36): the second hash of each game
(the statistics) changed, the first (the record and its events) did not.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from meeple.rules import GAMES, play, replay
from meeple.rules.chance import derive
from meeple.rules.core import resolve_bots
from meeple.rules.sim.play import play_game

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "records.json"
SEED = 20261130
# label: (bot in seat 1, bot in the other seats, games per preset, games pytest plays per preset).
# Lookahead takes seconds a game in the card games: a few games per preset, and pytest plays
# only the base preset's first game (the script checks them all).
LINEUPS = {
    "random": ("random", "random", 300, 20),
    "heuristic": ("heuristic", "heuristic", 300, 5),
    "lookahead": ("lookahead", "random", 4, 1),
}
PYTEST_PRESETS = {"lookahead": ("base",)}
FULL_RECORDS = 1  # whole records kept per game and line-up (the first game of the base preset)


def game_hash(rec) -> str:
    """The record's JSON and every event sentence."""
    text = rec.to_json() + "\n" + "\n".join(rec.events)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def stats_hash(mod, state) -> str:
    """The game's own statistics (game_stats and score_sources hooks), as simulate reads them."""
    stats = mod.game_stats(state) if hasattr(mod, "game_stats") else None
    sources = mod.score_sources(state) if hasattr(mod, "score_sources") else None
    return hashlib.sha256(json.dumps([stats, sources], sort_keys=True).encode()).hexdigest()[:12]


def _sets():
    for name, mod in GAMES.items():
        for preset, config in mod.Config.presets().items():
            for label, (first, others, games, _check) in LINEUPS.items():
                bots = ",".join([first] + [others] * (config.players - 1))
                yield name, mod, preset, config, label, bots, games


def generate(only_lineups=None, only_games=None) -> dict:
    sets, full = [], []
    for name, mod, preset, config, label, bots, games in _sets():
        if (only_lineups and label not in only_lineups) or (only_games and name not in only_games):
            continue
        hashes = []
        for i in range(games):
            rec = play(mod, config, bots, derive(SEED, "game", i), chance=1)
            hashes.append(f"{game_hash(rec)} {stats_hash(mod, rec.state)}")
            if preset == "base" and i < FULL_RECORDS and label != "lookahead":
                full.append({"lineup": label, "record": rec.to_dict(), "events": list(rec.events)})
        sets.append({"game": name, "preset": preset, "lineup": label, "bots": bots, "seed": SEED, "hashes": hashes})
        print(f"{name} {preset} {label}: {games} games", file=sys.stderr)
    return {"format": "meeple-record-hashes/1", "sets": sets, "full": full}


def _load() -> dict:
    return json.loads(FIXTURE.read_text())


def _check_set(entry: dict, games: int) -> None:
    mod = GAMES[entry["game"]]
    config = mod.Config.presets()[entry["preset"]]
    stored = entry["hashes"][:games]
    names, funcs = resolve_bots(mod, entry["bots"], config.players)
    for i, want in enumerate(stored):
        res = play_game(mod, config, names, funcs, entry["seed"], i, chance=1)  # what simulate's table reads
        rec = play(mod, config, entry["bots"], derive(entry["seed"], "game", i), chance=1)
        got = f"{game_hash(rec)} {stats_hash(mod, rec.state)}"
        where = f"{entry['game']} {entry['preset']} {entry['lineup']} game {i}"
        assert got.split()[0] == want.split()[0], f"{where}: record or events differ from the stored game"
        assert got.split()[1] == want.split()[1], f"{where}: game_stats / score_sources differ from the stored game"
        # simulate's game i plays the same game as play (same seed, same bots)
        assert (res.scores, res.winners, res.actions) == (rec.scores, rec.winners, len(rec.actions)), where
        # simulate's own quiet, in-place states keep the same statistics as play's
        assert (res.stats, res.sources) == _stats_of(mod, rec.state), f"{where}: simulate's game_stats differ from play's"


def _stats_of(mod, state):
    """What simulate's play_game keeps of a finished game's own statistics."""
    stats = dict(mod.game_stats(state)) if hasattr(mod, "game_stats") else {}
    sources = tuple(dict(d) for d in mod.score_sources(state)) if hasattr(mod, "score_sources") else None
    return stats, sources


def _cases():
    if not FIXTURE.exists():
        return []
    return [
        (e, LINEUPS[e["lineup"]][3]) for e in _load()["sets"]
        if e["lineup"] in LINEUPS and e["preset"] in PYTEST_PRESETS.get(e["lineup"], (e["preset"],))
    ]


@pytest.mark.parametrize(
    "entry,games", _cases(), ids=lambda v: f"{v['game']}:{v['preset']}:{v['lineup']}" if isinstance(v, dict) else ""
)
def test_seeded_games_are_byte_for_byte_the_stored_ones(entry, games):
    _check_set(entry, games)


def test_every_game_preset_and_lineup_is_stored():
    stored = {(e["game"], e["preset"], e["lineup"]) for e in _load()["sets"]}
    wanted = {(name, preset, label) for name, _m, preset, _c, label, _b, _g in _sets()}
    assert wanted <= stored, f"not in {FIXTURE.name}: {sorted(wanted - stored)}"
    assert all(len(e["hashes"]) >= min(100, LINEUPS[e["lineup"]][2]) for e in _load()["sets"])


def test_whole_records_replay_to_the_same_json_and_events():
    for item in _load()["full"]:
        text = json.dumps(item["record"], indent=1)
        rec = replay(text)
        assert rec.to_json() == text
        assert list(rec.events) == item["events"]
        # and playing it again with its bots makes the same record
        mod = GAMES[item["record"]["game"]]
        again = play(mod, mod.Config.from_dict(item["record"]["config"]), item["record"]["bots"], item["record"]["seed"],
                     chance=1)
        assert again.to_json() == text and list(again.events) == item["events"]


def _in_place(old: list, made: list, key, mine) -> list:
    """`old` with the entries `mine` picks replaced by `made`'s of the same key, where they stood
    (a small diff); made's new keys at the end, old ones `made` lacks dropped."""
    fresh = {key(e): e for e in made}
    out = [fresh.pop(key(e)) if key(e) in fresh else e for e in old if key(e) in fresh or not mine(e)]
    return out + list(fresh.values())


def main(argv: list[str]) -> int:
    if "--write" in argv:
        only = [a.split("=", 1)[1] for a in argv if a.startswith("--lineups=")]
        only_games = [g for a in argv if a.startswith("--game=") for g in a.split("=", 1)[1].split(",")]
        data = generate(only[0].split(",") if only else None, only_games or None)
        if (only or only_games) and FIXTURE.exists():  # add or replace these line-ups / games, keep the others
            old, labels = _load(), only[0].split(",") if only else None
            mine = (lambda lineup, game: (not labels or lineup in labels) and (not only_games or game in only_games))
            data["sets"] = _in_place(old["sets"], data["sets"], lambda e: (e["game"], e["preset"], e["lineup"]),
                                     lambda e: mine(e["lineup"], e["game"]))
            data["full"] = _in_place(old["full"], data["full"], lambda f: (f["lineup"], f["record"]["game"]),
                                     lambda f: mine(f["lineup"], f["record"]["game"]))
        FIXTURE.parent.mkdir(exist_ok=True)
        FIXTURE.write_text(json.dumps(data, indent=0) + "\n")
        return 0
    games = [a.split("=", 1)[1] for a in argv if a.startswith("--game=")]  # e.g. --game=bucket-king
    bad = 0
    for entry in _load()["sets"]:
        if games and entry["game"] not in games:
            continue
        try:
            _check_set(entry, len(entry["hashes"]))
            print(f"ok   {entry['game']} {entry['preset']} {entry['lineup']}: {len(entry['hashes'])} games", file=sys.stderr)
        except AssertionError as e:
            bad += 1
            print(f"FAIL {e}", file=sys.stderr)
    test_whole_records_replay_to_the_same_json_and_events()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
