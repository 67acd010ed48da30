"""Variants side by side: `compare` plays every variant on the same game seeds (common
random numbers) and measures each difference game by game; `format_comparison` prints
it, with the rule-usage warnings (a changed number that could matter in under 1% of
the games). `meeple.rules.workbench` re-exports all of it next to `tune`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import os
import warnings
from concurrent.futures import Executor
from typing import Any, Mapping, Sequence

from .chance import check_seed
from .config import VARIANT_SUFFIXES, read_variant, settings_list, variant_config
from .files import shown_path
from .registry import game_module
from .core import split_bots
from .sim.design import duration_spread, wanted
from .sim.results import SHOWN_AS, Results, load_pandas, measure_name, measures, rate_row, shown_frame
from .sim.runner import Job, bot_refs, check_games, check_workers, run
from .sim.text import ci_paren, ci_pct, fmt_table, html_lines, num, pct
from .stats import mean_ci

__all__ = ["compare", "compare_run", "common_config", "on_common",
           "Comparison", "UnusedRuleWarning", "SamePlayWarning", "format_comparison", "comparison_lines",
           "usage_lines", "sameness_lines", "same_games", "games_print", "lineup",
           "paired_difference", "comparison", "rule_usage", "changed_numbers", "USAGE_FLOOR"]


# --- identical play --------------------------------------------------------------

def games_print(records) -> str:
    """A fingerprint of a run's games: every game's record (scores, winners, rounds, turns,
    decisions, the leader after each round and checkpoint, lead changes, the game's own counts
    and point sources), hashed. Two runs on the same seeds with equal prints played the same
    games as far as any figure meeple shows can tell."""

    h = hashlib.blake2b(digest_size=16)
    for g in records:
        h.update(repr(tuple(g)[2:]).encode())  # all but the index and seed (equal on the same seeds)
    return h.hexdigest()


def same_games(records, base) -> bool:
    """Whether two runs on the same seeds played identical games: every record equal, one by one, as
    games_print sees it (its repr: a NaN count equals itself), stopping at the first game that differs."""
    return len(records) == len(base) > 0 and all(repr(tuple(a)[2:]) == repr(tuple(b)[2:]) for a, b in zip(records, base))


def same_line(variant: str, base: str, many: bool = False) -> str:
    """The one line every surface prints for a variant (`many`: variants) that plays its baseline's games.
    Identical records show that the change had no effect in the games played, under these bots; not that
    it never has one (a case those games never reached may read it), so it says no more."""
    return (f"{variant} {'play' if many else 'plays'} the same games as {base}: in these games the change had no "
            "effect under these bots (every game's record is equal, game by game); more games may reach a case it "
            "changes.")


def equal_line(variant: str, base: str) -> str:
    """The line for a variant whose rules are its baseline's own (`same:bonus=3` on the defaults)."""
    return (f"{variant} has the same rules as {base} (every number equal): it changes nothing, and its rows "
            f"repeat {base}'s games.")


# --- compare ------------------------------------------------------------------

def _is_file(source) -> bool:
    """A variant source names a file: a path object, or text ending in .toml/.json with no '=' in it."""
    if isinstance(source, os.PathLike):
        return True
    return (isinstance(source, str) and "=" not in source
            and os.path.splitext(source.strip())[1].lower() in VARIANT_SUFFIXES)


def _own(mod, source, what: str) -> tuple[str, Any]:
    """(kind, what the source sets): ("file", path), ("config", Config), ("text", ['field=value', ...])."""
    cls = mod.Config
    if source is None:  # the common rules unchanged (None was "the defaults" before there were common rules)
        return "text", []
    if isinstance(source, cls):
        return "config", source
    if _is_file(source):
        return "file", source
    if isinstance(source, str):
        name = source.strip()
        presets = cls.presets()
        if name in presets and "=" not in name:
            return "config", presets[name]
        if name and "=" not in name:
            raise ValueError(f"{what} {shown_path(repr(source), 60)} is not allowed: a preset of {mod.NAME} "
                             f"({', '.join(presets)}), a variant file (.toml/.json) or field=value,... text")
        return "text", settings_list(source)
    if isinstance(source, (list, tuple)) and all(isinstance(s, str) for s in source):
        return "text", [s for s in source if s.strip()]
    other = source.game_name() if callable(getattr(source, "game_name", None)) else None  # another game's Config
    got = f"a {other} Config" if other else f"{type(source).__name__} {shown_path(repr(source), 60)}"
    raise ValueError(f"{what} must be a {mod.NAME} Config (or a preset's name, a variant file or field=value text), "
                     f"got {got}")


def common_config(mod, source=None, what: str = "config") -> tuple[Any, bool]:
    """(the common rules every variant starts from, whether they choose the player count) from
    None (the defaults), a Config, a preset's name, a variant file or field=value text: the API's
    `compare(..., config=)` and the variant lab's common numbers (the CLI's are --preset, --config
    and --set, read by game_setup). The player count is chosen when the source names `players`
    (text, a file's [set]) or, for a Config or preset, differs from the defaults'."""
    if source is None:
        return mod.Config(), False
    kind, own = _own(mod, source, what)
    if kind == "text":
        config = mod.Config().with_text(own)
        return config, any(s.partition("=")[0].strip() == "players" for s in own)
    if kind == "file":
        game, _name, settings = read_variant(own)
        if game != mod.NAME:
            raise ValueError(f"{what} {shown_path(own)} is a {game} variant, but the game is {mod.NAME}")
        return variant_config(mod.Config, own, settings), "players" in settings
    return own, own.players != mod.Config().players


def on_common(mod, source, common, *, what: str, said_players: bool = False,
              where: str = "the common config") -> tuple[str | None, Any]:
    """One rule for every variant source (issue 33): (the name a variant file gives itself, else None;
    the variant's Config). The common rules `common` are where every variant starts, and the
    variant's own fields win over them. Its own fields: what its text or its file's [set] names,
    or, for a Config or preset, every field that differs from the game's defaults (so a Config
    cannot set a number back to its default over a common one: name it in text or a file; and
    a Config is resolved already: an alias such as pyramid_base was read at its own player
    count, where text and a file are read on the common rules). A
    variant file for another game, or (when `said_players`: the common rules choose the player
    count) one whose player count differs, is refused in one line naming both (`what`: how the
    variant is named, `where`: how the common rules are). `meeple compare`/`report`, compare()
    and the variant lab all call this."""
    kind, own = _own(mod, source, what)
    name = None
    if kind == "config":
        if common == mod.Config():
            return None, own  # nothing in common: the Config as given
        config = variant_config(mod.Config, what, own.differences(), common)
    elif kind == "text":
        try:
            config = common.with_text(own) if own else common
        except (ValueError, TypeError) as e:
            raise ValueError(f"{what}: {' '.join(str(e).split())}") from None
    else:
        game, name, settings = read_variant(own)
        if game != mod.NAME:
            raise ValueError(f"{what} is a {game} variant, but {where} plays {mod.NAME}")
        config = variant_config(mod.Config, own, settings, common)
    # One rule for text, files and Configs (judgement call): a variant may play another player count
    # (its paired differences are then no narrower than separate runs, and compare says so), unless the
    # common rules chose the count; then a variant with another is refused, naming where each came from.
    if said_players and config.players != common.players:
        raise ValueError(f"{what} sets players={config.players}, but the common rules play {common.players} players "
                         f"({where}): drop one of them")
    return name, config


def _variant_configs(mod, variants, config=None) -> tuple[dict[str, Any], Any]:
    """({name: Config}, the common Config or None): each value is a variant source (on_common) on
    the common rules `config` (common_config)."""
    if not isinstance(variants, Mapping) or len(variants) < 2:
        raise ValueError("variants must be a {name: Config} mapping with a baseline and at least one variant")
    common, said = common_config(mod, config)
    where = f"config={shown_path(repr(config), 60)}" if config is not None else "the common config"
    out = {}
    for name, source in variants.items():
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"a variant needs a name (text), got {name!r}")
        shown = f"variant {name!r}" if not _is_file(source) else f"variant {name!r} ({shown_path(source)})"
        out[name] = on_common(mod, source, common, what=shown, said_players=said, where=where)[1]
    return out, (common if config is not None else None)


def lineup(mod, bots, players: int) -> tuple:
    """Bots for `players` seats: one name for every seat, one per seat, or two
    names "A,B" for A in seat 1 against B in every other seat (as the Explorer)."""
    if not isinstance(bots, (str, list, tuple)) or not all(isinstance(b, str) for b in bots):
        raise ValueError(f"bots={bots!r} is not allowed: bot names, e.g. 'heuristic' or ['heuristic', 'random']")
    names = split_bots(mod, bots) if isinstance(bots, str) else list(bots)
    if len(names) == 2 and players > 2:
        names = [names[0]] + [names[1]] * (players - 1)
    return bot_refs(mod, names, players)


def _per_game(records, n: int, by: str) -> dict:
    """{key: {"share": {game: share}, "score": {game: score}, "bots": [names in order]}}: a seat's
    (or a bot's, averaged over the seats it holds) win share and score in each game, from the
    records themselves (no pandas: compare runs in the site's Python too)."""
    out: dict = {}
    for g in records:
        shares = [(1.0 / len(g.winners) if s in g.winners else 0.0) for s in range(n)]
        keys = range(n) if by == "seat" else list(dict.fromkeys(g.bots[:n]))
        for key in keys:
            seats = [key] if by == "seat" else [s for s in range(n) if g.bots[s] == key]
            cell = out.setdefault(key, {"share": {}, "score": {}, "bots": []})
            cell["share"][g.index] = math.fsum(shares[s] for s in seats) / len(seats)
            cell["score"][g.index] = math.fsum(g.scores[s] for s in seats) / len(seats)
            for s in seats:
                if g.bots[s] not in cell["bots"]:
                    cell["bots"].append(g.bots[s])
    return {k: out[k] for k in sorted(out)}


def paired_difference(values: dict, base: dict) -> tuple[float, float, float]:
    """Mean difference over the games both played ({game: value} each, or Series indexed by game,
    as tune's measures give them), with its 95% interval."""
    values, base = (v.to_dict() if hasattr(v, "to_dict") else v for v in (values, base))
    both = sorted(set(values) & set(base))
    if not both:
        return (math.nan,) * 3
    return mean_ci([values[i] - base[i] for i in both])


@dataclasses.dataclass
class Comparison:
    """What compare measured: the table it returns, and the games behind it (for a report)."""

    table: Any  # DataFrame: compare's table
    configs: dict  # {variant: Config}, the baseline first
    results: dict  # {variant: Results}
    per_game: dict  # {variant: DataFrame indexed by game: turns, rounds, first_seat_adv, each measure}
    measures: list  # the --measure names, as measures() names them
    common: Any = None  # the common rules every variant started from (compare's config=, the CLI's --set...), or None


def _game_figures(res: Results, chosen: list[str]) -> dict:
    """{figure: {game: value}}: each game's length, seat 1's win share minus the fair share, and each
    chosen measure (mean_<column>: a game is the unit, its seats' mean), from the records."""
    n = res.config.players
    out: dict = {"turns": {}, "rounds": {}, "lead_changes": {}, "first_seat_adv": {}}
    out |= {m: {} for m in chosen}
    for g in res.records:
        out["turns"][g.index] = float(g.turns)
        out["rounds"][g.index] = float(g.rounds)
        out["lead_changes"][g.index] = float(g.lead_changes)
        out["first_seat_adv"][g.index] = (1.0 / len(g.winners) if 0 in g.winners else 0.0) - 1 / n
        for m in chosen:
            if m in ("turns", "rounds", "lead_changes", *RUN_FIGURES):
                continue  # filled above (a run's figure: in comparison)
            v = g.stats.get(m[len("mean_"):])
            if v is None:
                continue  # not a figure of this game: left out (as a missing value)
            vals = [float(x) for x in v[:n]] if isinstance(v, (list, tuple)) else [float(v)] * n
            out[m][g.index] = math.fsum(vals) / len(vals)
    return out


def _figure_frames(figures: dict):
    """The per-game figures as DataFrames indexed by game (what Comparison.per_game holds with
    pandas); the plain dicts without it."""
    try:
        pd = load_pandas()
    except ImportError:
        return figures
    out = {}
    for name, fig in figures.items():
        games = sorted(next(iter(fig.values())).keys()) if fig else []
        frame = pd.DataFrame({col: [vals.get(i, math.nan) for i in games] for col, vals in fig.items()}, index=games)
        frame.index.name = "game"
        out[name] = frame
    return out


def _compare_measures(mod, measures_) -> list[str]:
    """The chosen measures by their measures() names (per game figures; win rate and score are always shown)."""

    if measures_ is None:
        return []
    if isinstance(measures_, str) or not hasattr(measures_, "__iter__"):
        raise ValueError(f"measures={measures_!r} is not allowed: a list of names, e.g. ['turns', 'steals_tried']")
    names = [measure_name(list(measures(mod)), m) for m in measures_]
    return list(dict.fromkeys(m for m in names if m not in ("win_rate", "score")))  # those two: every row has them


RUN_FIGURES = ("duration_spread",)  # a figure of a run, not of a game: shown per variant, never paired


# The keyword list simulate, sweep, compare and balance_report share is written out in each on
# purpose: a public signature help() and an editor show (a **kwargs pass-through would hide it).
def compare(
    game,
    variants: Mapping[str, Any],
    bots="random",
    games: int = 1000,
    seed: int = 0,
    executor: Executor | None = None,
    progress: bool = True,
    *,
    workers: int | None = None,
    rotate: bool = False,
    by: str = "seat",
    measures: Sequence[str] | None = None,
    config=None,
):
    """Play every variant on the same game seeds and put them side by side.

    `variants`: {name: variant}, the first is the baseline; a variant is a
    Config, a preset's name, a variant file's path or field=value,... text
    ("" for the common rules unchanged). `config`: the common rules every
    variant starts from (None for the defaults, a Config, a preset's name,
    a variant file or field=value,... text), as `meeple compare`'s --preset,
    --config and --set: a variant's own fields win over them (a variant
    file's [set], the text's names, a Config's differences from the
    defaults); a variant file for another game, or with another player
    count than a `config` that names one, is refused (issue 33).
    One row per variant and seat (`by="bot"`: per bot, averaged over the
    seats it holds): games, win_rate, win_low, win_high (Wilson), score,
    score_low, score_high; the paired difference from the baseline, game by
    game, with its 95% interval: diff_win_rate, diff_win_low, diff_win_high,
    diff_score, diff_score_low, diff_score_high; game length (turns, rounds
    and diff_turns, diff_rounds, each with _low/_high); first_seat_adv: seat
    1's win rate minus the fair share 1/players, with first_seat_adv_low/_high,
    and diff_first_seat_adv (paired, game by game, with _low/_high). With
    different bots in the seats, seat figures mix seat and bot skill: pass
    rotate=True. `measures`: more per-game figures (names from
    `simulate.measures(game)`, e.g. "steals_tried"), each as <name>,
    <name>_low, <name>_high and diff_<name> with _low/_high.
    `changes`: what the variant sets, relative to the rules' defaults.
    Rule usage, in `table.attrs`: "usage" {variant: {number: [games it could
    matter in, occasions]}} from the game's rule_usage hook, "changed"
    {variant: [numbers it sets otherwise than the baseline]};
    compare (an UnusedRuleWarning) and format_comparison warn when a changed
    number could matter in under 1% of a variant's games (the comparison then
    says nothing about it).
    """
    table = compare_run(game, variants, bots, games, seed, executor, progress, workers=workers, rotate=rotate, by=by,
                     measures=measures, config=config).table
    equal = table.attrs.get("equal") or []
    for variant in equal:
        warnings.warn(equal_line(variant, table.attrs["baseline"]), SamePlayWarning, stacklevel=2)
    for variant in (v for v in table.attrs.get("same") or () if v not in equal):
        warnings.warn(same_line(variant, table.attrs["baseline"]), SamePlayWarning, stacklevel=2)
    for line in usage_lines(table):  # a notebook reader sees it without printing the table
        if line.startswith("Warning: "):
            warnings.warn(line.removeprefix("Warning: "), UnusedRuleWarning, stacklevel=2)
    return table


class UnusedRuleWarning(UserWarning):
    """A variant changes a number that could matter in under 1% of its games."""


def compare_run(game, variants, bots="random", games=1000, seed=0, executor=None, progress=True, *, workers=None,
             rotate=False, by="seat", measures=None, rotate_default=False, config=None) -> Comparison:
    """compare's work, as a Comparison (which keeps the games, for a report: `meeple compare --report`).
    `rotate_default`: the rotation was chosen by `meeple compare`'s default (rotate when the seats hold
    different bots), and the output says so."""
    mod = game_module(game)
    configs, common = _variant_configs(mod, variants, config)
    games = check_games(games)
    seed = check_seed(seed)
    workers = check_workers(workers)
    if by not in ("seat", "bot"):
        raise ValueError(f"by={by!r} is not allowed: 'seat' or 'bot'")
    chosen = _compare_measures(mod, measures)
    refs = {}
    for name, cfg in configs.items():  # all checked first
        try:
            refs[name] = lineup(mod, bots, cfg.players)
        except ValueError as e:  # 'need 5 bots, got 4' named no variant
            raise ValueError(f"variant {name!r} has {cfg.players} players: {e}") from None
    design = wanted(chosen)  # a design measure: played only when asked for (rules/sim/design.py)
    jobs = [Job(name, mod, cfg, refs[name], seed, games, rotate, "games", design) for name, cfg in configs.items()]
    out, interrupted = run(jobs, executor, workers, progress, f"{mod.TITLE} compare")
    results = {name: Results(mod, cfg, refs[name], seed, games, rotate, out[name], interrupted)
               for name, cfg in configs.items()}
    return comparison(mod, configs, results, refs, seed=seed, games=games, by=by, chosen=chosen, rotate=rotate,
                      interrupted=interrupted, rotate_default=rotate_default, common=common)


class Rows(list):
    """compare's table where pandas is missing (the site's Python): a list of row dicts with the
    few DataFrame calls format_comparison and usage_lines make (attrs, to_dict, drop_duplicates)."""

    def __init__(self, rows=()):
        super().__init__(rows)
        self.attrs: dict = {}

    @property
    def empty(self) -> bool:
        return not self

    def to_dict(self, orient: str = "records") -> list[dict]:
        if orient != "records":
            raise ValueError("Rows.to_dict: only orient='records'")
        return [dict(r) for r in self]

    def __repr__(self) -> str:  # shown as compare's table, as a DataFrame of it is
        return format_comparison(self)

    def _repr_html_(self) -> str:
        return html_lines(comparison_lines(self))

    def drop_duplicates(self, column: str) -> "Rows":
        seen, out = set(), Rows()
        for r in self:
            if r[column] not in seen:
                seen.add(r[column])
                out.append(r)
        out.attrs = self.attrs
        return out


def comparison(mod, configs: dict, results: dict, refs: dict, *, seed: int, games: int, by: str = "seat",
               chosen: Sequence[str] = (), rotate: bool = False, interrupted: bool = False,
               rotate_default: bool = False, common=None) -> Comparison:
    """The Comparison of runs already played ({variant: Results}, the baseline first, every run on
    the same game seeds): what compare prints, from the games' records. The site's variant lab
    plays its games in steps and calls this too, so its figures are compare's."""
    chosen = list(chosen)
    baseline = next(iter(results))
    base_res = results[baseline]
    base_games = _per_game(base_res.records, base_res.config.players, by) if base_res.completed else {}
    figures = {name: _game_figures(res, chosen) for name, res in results.items() if res.completed}
    base_fig = figures.get(baseline)
    nan3 = (math.nan,) * 3
    rows = []
    for name, res in results.items():
        if not res.completed:
            continue
        fig = figures[name]
        per_variant = {}
        for col in (c for c in chosen if c in RUN_FIGURES):
            v = duration_spread([g.turns for g in res.records])
            per_variant |= {col: v[0], f"{col}_low": v[1], f"{col}_high": v[2], f"diff_{col}": math.nan,
                            f"diff_{col}_low": math.nan, f"diff_{col}_high": math.nan}
        for col in ["turns", "rounds", *(c for c in chosen if c not in RUN_FIGURES)]:
            v = mean_ci([fig[col][i] for i in sorted(fig[col])])
            d = paired_difference(fig[col], base_fig[col]) if base_fig is not None else nan3
            per_variant |= {col: v[0], f"{col}_low": v[1], f"{col}_high": v[2],
                            f"diff_{col}": d[0], f"diff_{col}_low": d[1], f"diff_{col}_high": d[2]}
        n = res.config.players
        rate0, lo0, hi0 = rate_row([1.0 / len(g.winners) if 0 in g.winners else 0.0 for g in res.records])
        dadv = paired_difference(fig["first_seat_adv"], base_fig["first_seat_adv"]) if base_fig is not None else nan3
        per_variant |= {"first_seat_adv": rate0 - 1 / n, "first_seat_adv_low": lo0 - 1 / n,
                        "first_seat_adv_high": hi0 - 1 / n, "diff_first_seat_adv": dadv[0],
                        "diff_first_seat_adv_low": dadv[1], "diff_first_seat_adv_high": dadv[2]}
        for key, part in _per_game(res.records, n, by).items():
            shares = [part["share"][i] for i in sorted(part["share"])]
            rate, lo, hi = rate_row(shares)
            score = mean_ci([part["score"][i] for i in sorted(part["score"])])
            base = base_games.get(key)
            dwin = paired_difference(part["share"], base["share"]) if base is not None else nan3
            dscore = paired_difference(part["score"], base["score"]) if base is not None else nan3
            bot = ",".join(part["bots"]) if by == "seat" else key
            row = {
                "variant": name, "baseline": name == baseline, "changes": res.config.describe(),
                "seat": key if by == "seat" else None, "bot": bot, "games": len(shares),
                "win_rate": rate, "win_low": lo, "win_high": hi,
                "score": score[0], "score_low": score[1], "score_high": score[2],
                "diff_win_rate": dwin[0], "diff_win_low": dwin[1], "diff_win_high": dwin[2],
                "diff_score": dscore[0], "diff_score_low": dscore[1], "diff_score_high": dscore[2],
                **per_variant,
            }
            if by == "bot":
                del row["seat"]
            rows.append(row)
    try:
        table = shown_frame(load_pandas().DataFrame(rows), "compare")
    except ImportError:
        table = Rows(rows)
    names = list(results[baseline].bots)
    usage = {name: rule_usage(mod, res) for name, res in results.items()}
    keys = {k for u in usage.values() for k in u}
    changed = {name: changed_numbers(configs[baseline], cfg, keys) for name, cfg in configs.items() if name != baseline}
    table.attrs.update(usage=usage, changed=changed, completed={n: r.completed for n, r in results.items()},
                       usage_words=dict(getattr(mod, "USAGE", {})), always_applies=dict(getattr(mod, "ALWAYS_APPLIES", {})))
    base_records = results[baseline].records
    same = [name for name, res in results.items() if name != baseline and same_games(res.records, base_records)]
    table.attrs.update(same=same, chance=_chance_only(rows, baseline, same, chosen),
                       players={name: cfg.players for name, cfg in configs.items()},
                       equal=[name for name, cfg in configs.items() if name != baseline and cfg == configs[baseline]])
    table.attrs.update(game=mod.NAME, seed=seed, games=games, baseline=baseline, by=by, partial=interrupted,
                       bots=", ".join(names), rotate=bool(rotate), rotate_default=bool(rotate_default),
                       measures=list(chosen),
                       mixed=len(set(b for r in refs.values() for b in _names(r))) > 1)
    return Comparison(table, configs, results, _figure_frames(figures), chosen, common)


def _chance_only(rows: list, baseline: str, same: list, chosen) -> list[str]:
    """Variants (not identical to the baseline) every paired difference of which holds 0 in its
    95% interval: win rate and score of every row, first-seat advantage, turns, rounds, each measure."""
    cols = ["diff_win", "diff_score", "diff_first_seat_adv", "diff_turns", "diff_rounds", *(f"diff_{m}" for m in chosen)]
    out = []
    for name in dict.fromkeys(r["variant"] for r in rows):
        if name == baseline or name in same:
            continue
        ok, seen = True, False  # seen: an interval exists at all (one game has none: every bound infinite)
        for r in (r for r in rows if r["variant"] == name):
            for c in cols:
                lo, hi = r[f"{c}_low"], r[f"{c}_high"]
                if math.isnan(lo) or (math.isinf(lo) and math.isinf(hi)):
                    continue
                seen = True
                if not lo <= 0 <= hi:
                    ok = False
        if ok and seen:
            out.append(name)
    return out


def sameness_lines(table) -> list[str]:
    """One line per variant that plays the baseline's games, and one for the variants whose every
    difference is within chance."""
    a = table.attrs
    base = a.get("baseline")
    equal = a.get("equal") or []
    lines = [equal_line(v, base) for v in equal]
    lines += [same_line(v, base) for v in a.get("same") or () if v not in equal]
    players = a.get("players") or {}
    for v, n in players.items():
        if base in players and n != players[base]:
            lines.append(f"{v} plays {n} players, {base} {players[base]}: its games are dealt for another table, so "
                         "its paired differences are no narrower than separate runs would give, and a seat's win rate "
                         "has another fair share (the first seat's advantage is measured from each one's own).")
    if a.get("games") == 1 and len(players) > 1:  # no interval at all: saying "only by chance" would claim one
        lines.append("1 game per variant: no paired interval exists, so nothing here says whether the variants differ "
                     "(play 2 or more games: --games).")
    chance = a.get("chance") or []
    if chance:
        lines.append(f"{', '.join(chance)} differ{'s' if len(chance) == 1 else ''} from {base} only by chance at this "
                     "many games: every paired 95% interval below holds 0 (no difference shown; more games may show one).")
    return lines


class SamePlayWarning(UserWarning):
    """A variant plays exactly its baseline's games: in those games the change had no effect under these bots."""


USAGE_FLOOR = 0.01  # a changed number used in fewer of the games than this gets a warning


def rule_usage(mod, res: Results) -> dict[str, list[int]]:
    """{number: [games in which it could matter, occasions in all]} for a run, from the game's
    rule_usage hook (per-player-count tables by entry: "hand_sizes[1]"); {} without the hook."""
    hook = getattr(mod, "rule_usage", None)
    out: dict[str, list[int]] = {}
    if hook is None:
        return out
    for g in res.records:
        for key, count in hook(res.config, g).items():
            cell = out.setdefault(key, [0, 0])
            cell[0] += count > 0
            cell[1] += count
    return out


def changed_numbers(base, config, usage: dict) -> list[str]:
    """The numbers `config` sets otherwise than `base`, as rule_usage names them (`usage`'s
    keys): a field, or the entries of a per-player-count table that differ ("extensions[2]")."""
    by_entry = {k.split("[", 1)[0] for k in usage if "[" in k}
    out = []
    for f in dataclasses.fields(config):
        a, b = getattr(base, f.name), getattr(config, f.name)
        if a == b:
            continue
        if f.name in by_entry and isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
            out += [f"{f.name}[{i}]" for i, (x, y) in enumerate(zip(a, b)) if x != y]
        else:
            out.append(f.name)
    return out


def usage_lines(table) -> list[str]:
    """compare's rule-usage section: each changed number's use per variant, and a one-line
    warning for each number a variant changed that could matter in under 1% of its games."""
    a = table.attrs
    usage, changed = a.get("usage") or {}, a.get("changed") or {}
    words, always = a.get("usage_words") or {}, a.get("always_applies") or {}
    keys = list(dict.fromkeys(k for v in changed.values() for k in v))
    if not keys or not usage:
        return []
    done = {v: int(n) for v, n in (a.get("completed") or {}).items()}
    rows = []
    for key in keys:
        field = key.split("[", 1)[0]
        row = [key]
        for variant in usage:
            if field in always:
                row.append("always")
                continue
            got = _usage(key, usage[variant], always)
            if got is None:  # an entry of a per-player-count table the hook leaves out: another count's
                row.append("n/a (another player count)" if "[" in key else "n/a")
                continue
            row.append(f"{got[0]:,} of {done.get(variant, 0):,} games ({got[1] / max(1, done.get(variant, 0)):.2f} a game)")
        row.append(always.get(field) or words.get(field, ""))
        rows.append(row)
    lines = ["Rule usage: games in which each changed number could matter (occasions a game), per variant:",
             fmt_table(["number", *usage, "what is counted"], rows)]
    for variant, keys_ in changed.items():
        n = done.get(variant, 0)
        # entries of per-player-count tables for other counts: one line for them all, not one each
        other = [k for k in keys_ if "[" in k and k.split("[", 1)[0] not in always
                 and _usage(k, usage.get(variant, {}), always) is None]
        if other and n:
            lines.append(f"Warning: {variant} changes {', '.join(other)}: "
                         f"{'an entry' if len(other) == 1 else 'entries'} for another player count, never read in "
                         f"these games: this comparison says nothing about {'it' if len(other) == 1 else 'them'}.")
        for key in keys_:
            got = None if key.split("[", 1)[0] in always else _usage(key, usage.get(variant, {}), always)
            if got is not None and n and got[0] < USAGE_FLOOR * n:
                lines.append(f"Warning: {variant} changes {key}, but it could matter in only {got[0]:,} of its {n:,} "
                             f"games ({words.get(key.split('[', 1)[0], 'counted by the game')}): this comparison says "
                             "nothing about that rule; try other bots.")
    return lines


def _usage(key, usage, always):
    if key in usage:
        return tuple(usage[key])
    parts = [v for k, v in usage.items() if k.split("[", 1)[0] == key]
    return (max((p[0] for p in parts), default=0), sum(p[1] for p in parts)) if parts else None


def _names(refs) -> list[str]:
    return [getattr(r, "__name__", r) if not isinstance(r, str) else r for r in refs]


def _rotation_lines(a) -> list[str]:
    """What compare says about the seating when the seats hold different bots."""
    if not a.get("mixed"):
        return []
    if not a.get("rotate"):
        return [f"The seats hold different bots ({a.get('bots')}), each kept in its seat: each seat's figures, and the "
                "first-seat advantage, mix the bot's skill with the seat's. --rotate (rotate=True) seats the bots in "
                "turn, so each holds each seat equally often; then seat figures measure the seat."]
    why = (" (meeple compare's default when the seats hold different bots; --no-rotate keeps each bot in its seat)"
           if a.get("rotate_default") else "")
    return [f"Bots rotated{why}: each holds each seat equally often, so seat figures measure the seat (averaged over "
            "the bots); --by bot shows each bot's own figures."]


def format_comparison(table) -> str:
    """The compare table as text, one line per variant and seat (or bot)."""
    return "\n".join(comparison_lines(table))


def comparison_lines(table) -> list[str]:
    """format_comparison's lines, its tables as fmt_table's (what the table's HTML shows)."""
    a = table.attrs
    by = a.get("by", "seat")
    lines = [f"{a.get('game', '')}: {a.get('games')} game{'' if a.get('games') == 1 else 's'} per variant, seed {a.get('seed')}, the same game seeds "
             f"for every variant; differences are paired, game by game, from {a.get('baseline')!r} (95% CIs)"]
    lines += sameness_lines(table)
    def diff(r, col, lo, hi, scale, digits, unit=""):
        if r["baseline"]:
            return "baseline"
        if col.removeprefix("diff_") in RUN_FIGURES:
            return "a figure of the run: not paired"
        if math.isnan(r[col]):
            return "n/a (not in the baseline)"
        if math.isinf(r[lo]) and math.isinf(r[hi]):  # one game: no interval (ci_paren)
            return f"{scale * r[col]:+.{digits}f} {ci_paren(r[lo], r[hi])}{unit}"
        return f"{scale * r[col]:+.{digits}f} ({scale * r[lo]:+.{digits}f} to {scale * r[hi]:+.{digits}f}){unit}"

    def interval(r, col, digits=2):
        return f"{num(r[col], digits)} {ci_paren(r[col + '_low'], r[col + '_high'], digits)}"

    rows = []
    for r in table.to_dict(orient="records"):
        who = f"Player {int(r['seat']) + 1} ({r['bot']})" if by == "seat" else r["bot"]
        rows.append([
            r["variant"], who, pct(r["win_rate"]), ci_pct(r["win_low"], r["win_high"]),
            diff(r, "diff_win_rate", "diff_win_low", "diff_win_high", 100, 1),
            interval(r, "score"),
            diff(r, "diff_score", "diff_score_low", "diff_score_high", 1, 2),
        ])
    lines.append(fmt_table(["variant", "seat" if by == "seat" else "bot", "win rate", "95% CI", "vs baseline (% points)",
                             "mean score", "vs baseline"], rows))
    per = table.drop_duplicates("variant").to_dict(orient="records")
    lines.append("What each variant changes:")
    lines.append(fmt_table(["variant", "changes"], [[r["variant"], r["changes"]] for r in per]))
    lines.append("First-seat advantage (seat 1's win rate minus the fair share, % points) and game length:")
    lines.append(fmt_table(
        ["variant", "first seat", "vs baseline", "turns", "vs baseline", "rounds", "vs baseline"],
        [[r["variant"],
          f"{100 * r['first_seat_adv']:+.1f} ({100 * r['first_seat_adv_low']:+.1f} to {100 * r['first_seat_adv_high']:+.1f})",
          diff(r, "diff_first_seat_adv", "diff_first_seat_adv_low", "diff_first_seat_adv_high", 100, 1),
          interval(r, "turns", 1), diff(r, "diff_turns", "diff_turns_low", "diff_turns_high", 1, 1),
          interval(r, "rounds"), diff(r, "diff_rounds", "diff_rounds_low", "diff_rounds_high", 1, 2)]
         for r in per],
    ))
    for m in a.get("measures", []):
        lines.append(f"{m} (a figure of the run: the sd of turns per game, 95% CI; not paired):" if m in RUN_FIGURES
                     else f"{m.removeprefix('mean_')} (per game; mean with 95% CI, paired difference from the baseline):")
        lines.append(fmt_table(["variant", "mean", "vs baseline"],
                                [[r["variant"], interval(r, m), diff(r, f"diff_{m}", f"diff_{m}_low", f"diff_{m}_high", 1, 2)]
                                 for r in per]))
    lines += usage_lines(table)
    lines += _rotation_lines(a)
    if a.get("partial"):
        lines.append("Interrupted: the figures cover only the games that finished.")
    return lines


SHOWN_AS["compare"] = comparison_lines
