"""The variant lab: one changed rule against the base game, as `meeple compare` measures it (issue 25).

    lab = VariantLab("bucket-brigade", ["hand_size=9", "bonus=6"], bots="heuristic", games=300, seed=1)
    while not lab.finished:
        lab.step(50)                 # plays the next games of both variants (the site shows progress)
    print(lab.text())                # format_comparison's table: paired, with intervals and rule usage
    VariantLab("bucket-brigade", ["big: hand_size=9", "bonus: bonus=6"])   # several variants at once
    VariantLab("bucket-king", ["pyramid_base=4"], common=["players=3"])    # common numbers: base and variants start there
    lab.link()                       # "?game=...&set=hand_size%3D9&...&meeple=0.2.0&chance=splitmix64-..."
    VariantLab.from_link(query)      # the same lab again (warnings when the version differs)
    lab.variant_file()               # TOML that `meeple compare --variant that.toml` reads
    lab.command()                    # the `meeple compare` command with the same figures
    lab.report()                     # the HTML report `meeple compare --report` writes for that command

Common numbers (`common=`) are what `meeple compare --set` gives: the base rules and every variant
start from them, and a variant's own numbers win over them (comparison.on_common, the one rule of
the CLI and compare(config=), issue 33); the printed command gives them as --set.
The rule numbers are named as `--set` names them (fields, `hand_sizes[1]`, aliases such as
`hand_size`) and parsed by Config.with_text. The games are played on compare's seeds (game i
from `game_seed(seed, i)` for every variant) and the figures are workbench.comparison's:
no second copy of compare's logic. Standard library only: the course site runs this class in
the reader's browser (`lab_*` below are what its worker calls, JSON text in and out), the
HTML report included (widgets/report.py draws its charts with the standard library).
"""

from __future__ import annotations

import json
import math
import re
import time
from urllib.parse import parse_qs, urlencode

from meeple.rules import GAMES
from meeple.rules.core import game_module, resolve_bots
from meeple.rules.reproduce import chance_fingerprint, compare_command, package_version, stamp_warnings
from meeple.rules.sim import MAX_GAMES, Results
from meeple.rules.sim.play import playing
from meeple.rules.comparison import common_config, on_common, sameness_lines
from meeple.rules.sim.design import wanted
from meeple.rules.sim.results import measure_name
from meeple.rules.sim.results import measures as all_measures
from meeple.rules.workbench import comparison, format_comparison, lineup, usage_lines

from .controls import strict
from .report import report_html, seat_chart

BASE = "base"
LINK_KEYS = ("game", "set", "common", "name", "bots", "games", "seed", "measure", "meeple", "chance")


class VariantLab:
    """A variant of one game against its base rules, played in steps on compare's seeds."""

    def __init__(self, game: str, settings=(), *, bots: str = "random", games: int = 500, seed: int = 1,
                 name: str = "variant", measures=(), common=()):
        if not isinstance(game, str) or game not in GAMES:
            raise ValueError(f"unknown game {shown(game)}; games: {', '.join(GAMES)}")
        self.mod = game_module(game)
        self.settings = _lines(settings)
        if not self.settings:
            raise ValueError("set at least one rule number, e.g. " + _example(self.mod))
        self.common = _lines(common)  # `meeple compare --set` lines: where the base and every variant start
        try:
            self.base = common_config(self.mod, self.common, "common numbers")[0]
        except (ValueError, TypeError) as e:
            raise ValueError(f"common numbers: {' '.join(str(e).split())}{_names_hint(self.mod, self.common)}") from None
        self.name = check_name(name)
        groups = variant_lines(self.settings, self.name)  # "NAME: field=value" lines make more variants
        self.variants = {}
        for key, lines in groups.items():
            try:
                config = on_common(self.mod, lines, self.base, what=key)[1]
            except (ValueError, TypeError) as e:
                text = " ".join(str(e).split())
                text = text.removeprefix(f"{key}: ") if len(groups) == 1 else text
                raise ValueError(f"{text}{_names_hint(self.mod, lines)}") from None
            if config == self.base:
                raise ValueError(f"{', '.join(lines)} leaves the rules as they are"
                                 f"{' (with the common numbers)' if self.common else ''}: change a number")
            self.variants[key] = config
        self.name = next(iter(self.variants))
        self.variant = self.variants[self.name]
        if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
            raise ValueError(f"games={games!r} is not allowed: a whole number from 1 to {MAX_GAMES:,}")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"seed={seed!r} is not allowed: a whole number, 0 or more")
        if isinstance(bots, str) and not bots.strip():  # an emptied field: said, never read as some default
            raise ValueError(f"bots is empty: name one bot for every seat (e.g. random) or one a seat; known bots: "
                             f"{', '.join(self.mod.BOTS)}")
        self.games, self.seed, self.bots = games, seed, bots
        self.configs = {BASE: self.base, **self.variants}
        self.refs = {k: lineup(self.mod, bots, c.players) for k, c in self.configs.items()}
        self._bots = {k: resolve_bots(self.mod, r, self.configs[k].players) for k, r in self.refs.items()}
        # as `meeple compare` does by default: different bots in the seats are seated in turn
        self.rotate = any(len(set(names)) > 1 for names, _ in self._bots.values())
        self.records: dict[str, list] = {k: [] for k in self.configs}
        self._playing: dict = {}  # variant -> the game a step left unfinished (sim.play.playing), resumed next step
        self._until: float | None = None  # the running step's end (perf_counter), None: no bound
        # the measures to add (names as `meeple rules GAME --measures` lists them); design ones are played
        # only when named (rules/sim/design.py)
        names = [m.strip() for m in (measures.split(",") if isinstance(measures, str) else measures) if m.strip()]
        known = list(all_measures(self.mod))
        self.measures = [m.removeprefix("mean_") for m in dict.fromkeys(measure_name(known, m) for m in names)]
        self.chosen = [measure_name(known, m) for m in self.measures if measure_name(known, m) not in ("win_rate", "score")]
        self.design = wanted(self.chosen)

    # --- playing ------------------------------------------------------------------

    @property
    def done(self) -> int:
        return min(len(r) for r in self.records.values())

    @property
    def finished(self) -> bool:
        return self.done >= self.games

    def step(self, games: int = 50, seconds: float | None = None) -> int:
        """Play the next `games` games of every variant (the same game numbers, game by game across the
        variants); with `seconds`, stop at the first decision that ends past that time, in the middle of
        a game if need be (it goes on from there at the next step): the page asks for 0.3 s a step, so
        Cancel is seen within a second however slow the bots (a lookahead game takes seconds in the
        browser). The games are the same however they are cut into steps. Returns games done."""
        stop = min(self.games, self.done + max(1, int(games)))
        self._until = None if seconds is None else time.perf_counter() + float(seconds)
        for i in range(self.done, stop):
            for key, config in self.configs.items():
                if len(self.records[key]) > i:
                    continue
                game = self._playing.pop(key, None)
                if game is None:
                    names, funcs = self._bots[key]
                    game = playing(self.mod, config, names, funcs, self.seed, i, self.rotate, self.design,
                                   pause=self._past)
                try:
                    next(game)
                except StopIteration as over:
                    self.records[key].append(over.value)
                else:  # paused between two decisions: the time is up
                    self._playing[key] = game
                    return self.done
                if self._past():
                    return self.done
        return self.done

    def _past(self) -> bool:
        """Whether the running step's time is up (`playing`'s pause)."""
        return self._until is not None and time.perf_counter() >= self._until

    @property
    def playing(self) -> bool:
        """Whether a game was left unfinished by the last step (it goes on at the next)."""
        return bool(self._playing)

    def comparison(self):
        """workbench.comparison of the games played so far (partial when they are fewer than asked)."""
        partial = not self.finished
        results = {k: Results(self.mod, c, self.refs[k], self.seed, self.games, self.rotate, self.records[k], partial)
                   for k, c in self.configs.items()}
        return comparison(self.mod, self.configs, results, self.refs, seed=self.seed, games=self.games,
                          interrupted=partial, rotate=self.rotate, rotate_default=self.rotate, chosen=self.chosen,
                          common=self.base if self.common else None)

    def text(self) -> str:
        return format_comparison(self.comparison().table)

    def summary(self) -> dict:
        """What the page draws: the rows of compare's table, the usage lines, the command."""
        cmp = self.comparison()
        rows = [{k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in r.items()}
                for r in cmp.table.to_dict(orient="records")]
        return {"rows": rows, "usage": usage_lines(cmp.table), "text": format_comparison(cmp.table),
                "command": self.command(), "done": self.done, "games": self.games, "partial": not self.finished,
                "same": sameness_lines(cmp.table), "chart": seat_chart(cmp.table.to_dict(orient="records"), "seat")
                if self.done else ""}

    def report(self) -> str:
        """The HTML report of the games played (the one `meeple compare --report` writes for `command()`:
        the same builder, meeple.widgets.report, so the same figures, byte for byte)."""
        return report_html(self.comparison(), self.command())

    def command(self) -> str:
        """The `meeple compare` command that plays these games and prints these figures (as the report's): a
        cancelled run's games played, not those asked (game i is dealt from the same seed either way)."""
        games = self.games if self.finished or not self.done else self.done
        bots = Results(self.mod, self.configs[BASE], self.refs[BASE], self.seed, games, self.rotate, []).bots
        return compare_command(self.mod.NAME, self.configs, bots, games, self.seed, rotate=self.rotate,
                               measures=self.measures, common=self.base if self.common else None)

    # --- sharing ------------------------------------------------------------------

    def link(self) -> str:
        """The query string that restores this lab, stamped with the package version and chance fingerprint."""
        pairs = [("game", self.mod.NAME), *(("set", s) for s in self.settings), *(("common", s) for s in self.common),
                 ("name", self.name),
                 ("bots", self.bots), ("games", str(self.games)), ("seed", str(self.seed)),
                 *(("measure", m) for m in self.measures),
                 ("meeple", package_version()), ("chance", chance_fingerprint())]
        return "?" + urlencode(pairs)

    @classmethod
    def from_link(cls, query: str) -> "tuple[VariantLab, list[str]]":
        """(the lab a link describes, warnings); ValueError naming what is wrong with the link."""
        q = parse_qs(query.lstrip("?"), keep_blank_values=True)
        unknown = sorted(set(q) - set(LINK_KEYS))
        if unknown:
            raise ValueError(f"the link has unknown part(s) {', '.join(unknown)}; a lab link has {', '.join(LINK_KEYS)}")
        for key in ("game", "set"):
            if not q.get(key):
                raise ValueError(f"the link names no {key}: it is not a variant lab link")
        one = {k: v[-1] for k, v in q.items()}
        numbers = {}
        for key, default in (("games", "500"), ("seed", "1")):
            try:
                numbers[key] = int(one.get(key, default))
            except ValueError:
                raise ValueError(f"the link's {key}={one[key]!r} is not a whole number") from None
        games, seed = numbers["games"], numbers["seed"]
        lab = cls(one["game"], q["set"], bots=one.get("bots", "random"), games=games, seed=seed,
                  name=one.get("name", "variant"), measures=q.get("measure", []), common=q.get("common", []))
        return lab, stamp_warnings(one.get("meeple"), one.get("chance"), "link")

    def variant_file(self) -> str:
        """The variant as a file `meeple compare --variant FILE.toml` reads, with its stamp."""
        text = self.variant.variant_text(self.name, ".toml")
        head, _, rest = text.partition("\n[set]")
        return (f"# Made by the meeple variant lab (meeple {package_version()}; chance {chance_fingerprint()}).\n"
                f"# Replays with this package version: `meeple compare --variant` warns when yours differs.\n"
                f"{head}\nmeeple = {json.dumps(package_version())}\nchance = {json.dumps(chance_fingerprint())}\n"
                f"\n[set]{rest}")


def shown(value, limit: int = 60) -> str:
    """User text as an error echoes it: its repr (printable, escapes shown), cut to `limit` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _lines(value) -> list[str]:
    """Rule-number lines from text (one a line) or a list of texts; blank ones dropped."""
    if isinstance(value, str):
        value = value.splitlines()
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"rule numbers are text, one a line, or a list of texts; got {shown(value)}")
    return [s.strip() for s in value if isinstance(s, str) and s.strip()]


MAX_NAME = 24  # a variant's name: a table column and a file name, so short


def check_name(name) -> str:
    """A variant's name, stripped: 1 to MAX_NAME letters, digits, '-', '_' or '.', not 'base'; else ValueError."""
    text = name.strip() if isinstance(name, str) else ""
    if not text or text == BASE or len(text) > MAX_NAME or not all(c.isalnum() or c in "-_." for c in text):
        shown = repr(name) if not isinstance(name, str) or len(name) <= 40 else repr(name[:37] + "...")
        raise ValueError(f"name={shown} is not allowed: 1 to {MAX_NAME} letters, digits, '-', '_' or '.', "
                         f"other than {BASE!r}")
    return text


def variant_lines(lines: list[str], default: str) -> dict[str, list[str]]:
    """{variant name: its rule lines}: a line "NAME: field=value" belongs to NAME (as `meeple compare
    --variant NAME:...` names one), any other line to `default`; in the order the names first come."""
    out: dict[str, list[str]] = {}
    for line in lines:
        head, colon, rest = line.partition(":")
        if colon and "=" not in head:
            key, line = check_name(head), rest.strip()
            if not line:
                raise ValueError(f"{key}: names no rule number (e.g. {key}: field=value)")
        else:
            key = default
        out.setdefault(key, []).append(line)
    return out


def _names_hint(mod, lines) -> str:
    """The pointer to the list of names, for an error where a line is not `name=value` with a name the game
    has; "" where every name is known (the rule's own message says what the value may be: a pointer
    to the names there read as if the name were wrong)."""
    known = set(mod.Config().parameters())
    if all("=" in line and line.split("=", 1)[0].strip() in known for line in lines):
        return ""
    return f" (names: see the list; e.g. {_example(mod)})"


def _example(mod) -> str:
    names = mod.Config().parameters(numbers_only=True)
    return f"{names[0]}=... (one per line)" if names else "field=value"


# --- what the site's worker calls (JSON text in and out) ----------------------------------

_labs: dict[str, VariantLab] = {}


def _answer(lab: VariantLab, extra: dict | None = None) -> str:
    return json.dumps({"done": lab.done, "games": lab.games, "playing": lab.playing, **(extra or {})})


def lab_games(_request: str = "") -> str:
    """The games and the names each can set (as --set names them), with their default values."""
    out = {}
    for name, mod in GAMES.items():
        config = mod.Config()
        out[name] = {"title": mod.TITLE, "bots": sorted(getattr(mod, "BOTS", {})) or ["random"],
                     "names": config.parameters(), "numbers": config.parameters(numbers_only=True)}
    return json.dumps({"games": out, "meeple": package_version(), "chance": chance_fingerprint()})


def typed_whole(key: str, value, allowed: str):
    """A whole number the reader typed in the lab's form (the text as typed; a number passes as it is,
    for VariantLab to judge): ValueError naming what is wrong with the text and what is allowed.
    (The page sent Number(text): an empty seed or "abc" played seed 0, letters in games said "games=".)"""
    if not isinstance(value, str):
        return value
    typed = value.strip()
    if not typed:
        raise ValueError(f"{key} is empty: type {allowed}")
    if not re.fullmatch(r"[+-]?[0-9]+", typed):
        raise ValueError(f"{key}={shown(value)} is not a whole number: type {allowed}")
    if len(typed) > 100:  # no game count or seed is that long (and int() of 5,000 digits fails)
        raise ValueError(f"{key}={shown(value)} is not allowed: {allowed}")
    return int(typed)


def lab_start(request: str) -> str:
    """A new lab from {"game", "settings": [...], "bots", "games", "seed", "name"} or {"link": query}
    (games and seed: numbers, or the text the reader typed)."""
    r = json.loads(request)
    warnings: list[str] = []
    if "link" in r:
        lab, warnings = VariantLab.from_link(r["link"])
    else:
        games = typed_whole("games", r.get("games", 500), f"a whole number from 1 to {MAX_GAMES:,}")
        seed = typed_whole("seed", r.get("seed", 1), "a whole number, 0 or more")
        lab = VariantLab(r["game"], r.get("settings", []), bots=r.get("bots", "random"), games=games,
                         seed=seed, name=r.get("name", "variant"), measures=r.get("measures", []),
                         common=r.get("common", []))
    _labs["page"] = lab
    return _answer(lab, {"warnings": warnings, "link": lab.link(), "file": lab.variant_file(),
                         "command": lab.command(), "game": lab.mod.NAME, "settings": lab.settings,
                         "common": lab.common,
                         "bots": lab.bots, "seed": lab.seed, "name": lab.name, "measures": lab.measures})


def _page_lab() -> VariantLab:
    if "page" not in _labs:
        raise ValueError("no lab is open: start one first (lab_start)")
    return _labs["page"]


def lab_step(request: str) -> str:
    lab = _page_lab()
    r = json.loads(request)
    lab.step(r.get("games", 50), r.get("seconds"))
    return _answer(lab)


def one_line(error: BaseException) -> str:
    """An error as the page shows it: one line naming what is wrong (never a traceback)."""
    text = " ".join(str(error).split()) or type(error).__name__
    return text if isinstance(error, ValueError) else f"{type(error).__name__}: {text}"


def lab_call(request: str) -> str:
    """The page's one entry, {"op": "lab_start", "request": JSON text}: {"ok": the answer} or {"error": one
    line} (a refused link or setting reads as its message, not a Python traceback)."""
    ops = {"lab_games": lab_games, "lab_start": lab_start, "lab_step": lab_step, "lab_result": lab_result}
    try:
        try:
            r = json.loads(request)
        except ValueError as e:
            raise ValueError(f"the lab's request is not JSON text ({e})") from None
        op = r["op"]
        if op not in ops:
            raise ValueError(f"unknown lab request {op!r}: {', '.join(ops)}")
        # strict JSON: a browser's JSON.parse reads no NaN or Infinity (a run cancelled after one game has
        # infinite intervals; Python's json wrote them as -Infinity, and the page said "No number after minus sign")
        return json.dumps({"ok": strict(json.loads(ops[op](r.get("request") or "")))}, allow_nan=False)
    except (ValueError, KeyError, TypeError) as e:
        return json.dumps({"error": one_line(e)})


def lab_result(_request: str = "") -> str:
    """The summary, and the HTML report the page offers as a download."""
    lab = _page_lab()
    return json.dumps(strict({**lab.summary(), "report": lab.report()}), allow_nan=False)
