"""`meeple simulate`, `meeple sweep` and `meeple balance`: many games at once.

    meeple simulate bucket-brigade --games 2000 --seed 1 --bots heuristic,random,random --out runs.csv
    meeple sweep bucket-brigade --vary bonus=0,3,6,9 --games 1000
    meeple sweep bucket-brigade --vary 'track=0,-1,-1,0,1,2,3;-1,-1,-1,0,1,2,3'
    meeple balance bucket-brigade --games 2000 --bots heuristic

`--vary FIELD=V1,V2,...` sweeps one parameter (repeat the option for a grid
of several). A tuple parameter's value itself holds commas, so its values
are separated by `;` (quote the argument for the shell), or give one
`--vary FIELD=VALUE` per value; `;` also works for plain parameters.
Bad input stops before any game is played, with one line and exit code 2;
output files are written whole or not at all. Ctrl-C prints what finished
(exit code 130).
"""

from __future__ import annotations

import math
import sys
import textwrap
import typing
from pathlib import Path

from .cli import (
    EXIT_INTERRUPTED,
    CliError,
    add_game_options,
    check_writable,
    game_setup,
    parse_seed,
    whole,
)
from .config import split_optional
from .extras import require
from .files import shown_path, write_atomic
from .registry import GAMES
from .sim import balance_report, simulate, sweep
from .sim.results import measure_columns, measure_name, measures
from .sim.runner import MAX_GAMES, MAX_WORKERS
from .sim.text import ci_pct, fmt_table, num, pct

TABLE_FORMATS = (".csv", ".parquet", ".json")


def _run_options(p, formats: tuple[str, ...], games: str = "1000") -> None:
    p.add_argument("--games", default=games, help=f"games to play (default {games}; at most {MAX_GAMES:,})")
    p.add_argument(
        "--workers", default=None,
        help=f"processes to use, 1 to {MAX_WORKERS} (default: every core; 1 = this process); "
             "never more processes are started than there are games",
    )
    p.add_argument("--out", default=None, metavar="FILE", help="also save the results: " + ", ".join(formats)
                   + ". An interrupted run never replaces an existing file: its partial results go to "
                   "FILE.partial.EXT (a CSV starts with a '# partial: ...' line)")


def _checked_out(path: str | None, formats: tuple[str, ...]) -> Path | None:
    """The output path, checked before any game is played."""
    if path is not None and Path(path).suffix.lower() not in formats:
        raise CliError(f"--out must end in {', '.join(formats)}; got {shown_path(path)!r}")
    if path is not None and Path(path).suffix.lower() == ".parquet":
        require("pyarrow", "--out FILE.parquet")  # before any game is played
    return check_writable(path, "--out")


def _workers(args) -> int | None:
    if args.workers is None:
        return None
    return whole(args.workers, "--workers", 1, MAX_WORKERS)


def partial_note(done: int, asked: int) -> str:
    return f"partial: {done} of {asked} games, interrupted"


def _table_data(table, path: Path, json_text=None, note: str | None = None) -> str | bytes:
    """A table as the bytes of a .csv, .parquet or .json file. A partial table is marked in
    each: a first line `# partial: ...` in CSV (read it with `pandas.read_csv(path,
    comment="#")`), `attrs["partial"]` in Parquet, `"partial"` in JSON."""
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return (f"# {note}\n" if note else "") + table.to_csv(index=False)
    if suffix == ".parquet":
        table = table.copy()
        table.attrs = {k: v for k, v in table.attrs.items() if isinstance(v, (str, int, float, bool))}
        table.attrs["partial"] = note or False
        return table.to_parquet(index=False)
    return json_text() if json_text else table.to_json(orient="records", indent=1)


def _save(out: Path | None, data, done: int, asked: int, partial: bool, what: str) -> str | None:
    """Write `data(path)` to `out` unless that would lose something; the line saying where it went.

    Nothing finished: nothing is written. An interrupted run never replaces an
    existing file (a good table with fewer games): it writes FILE.partial.EXT.
    """
    if out is None or not done:
        return None
    target, kept = out, ""
    if partial and out.exists():
        target = out.with_name(f"{out.stem}.partial{out.suffix}")
        kept = f"; {out} kept as it was"
    write_atomic(target, data(target))
    part = f" ({partial_note(done, asked)})" if partial else ""
    return f"{what} saved to {target}{part}{kept}"


def show_then_save(text: str, save) -> None:
    """Print the summary, then write the file (`save()`: the line saying where it went, or None).
    A file that cannot be written (a full disk) does not cost the summary, and a reader that
    has gone (`| head`) does not cost the file: it is still written, then the pipe ends the command."""
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:
        save()
        raise
    saved = save()
    if saved:
        print(saved)


def _progress() -> bool:
    return sys.stderr.isatty()


def _interrupted(done: int, asked: int, out: Path | None = None) -> int:
    if done:
        print(f"meeple: interrupted: results of the {done} finished games of {asked}", file=sys.stderr)
    else:
        kept = f" ({out} kept as it was)" if out is not None and out.exists() else ""
        nothing = f"; nothing written{kept}" if out is not None else ""
        print(f"meeple: interrupted before any of the {asked} games finished{nothing}", file=sys.stderr)
    return EXIT_INTERRUPTED


class _Run(typing.NamedTuple):
    mod: object
    config: object
    names: tuple
    seed: int
    games: int
    workers: int | None
    out: Path | None


def _run_setup(args, formats) -> _Run:
    """What simulate, sweep and balance all read first; every option checked before any game."""
    mod, config, names = game_setup(args)
    return _Run(mod, config, names, parse_seed(args.seed), whole(args.games, "--games", 1, MAX_GAMES),
                _workers(args), _checked_out(args.out, formats))


# --- simulate -----------------------------------------------------------------

def _measures(args, mod) -> list[str] | None:
    """The --measure names, each checked (and given its measures() name) before any game."""
    if not args.measure:
        return None
    known = list(measures(mod))
    try:
        return [measure_name(known, m) for m in args.measure]
    except ValueError:
        bad = next(m for m in args.measure if m.strip() not in known and f"mean_{m.strip()}" not in known)
        names = ", ".join(m.removeprefix("mean_") for m in known)
        raise CliError(f"unknown measure {bad!r} for {mod.NAME}; known: {names}") from None


def _measure_help(p) -> None:
    """--measure, and a help page that lists every game's measures (computed only when shown)."""
    p.add_argument(
        "--measure", action="append", default=[], metavar="NAME",
        help="show this measure with its 95%% CI (repeatable): win_rate, score, turns, rounds, "
             "lead_changes, or one of the game's own figures listed below",
    )
    plain = p.format_help

    def format_help():
        lines = ["", "measures (--measure NAME; the game's own figures, as columns of the table):"]
        for name, mod in GAMES.items():
            lines.append(f"  {name}:")
            for m, what in measures(mod).items():
                if m.startswith("mean_"):
                    lines.append(textwrap.fill(what, 100, initial_indent=f"    {m.removeprefix('mean_'):<24}",
                                               subsequent_indent=" " * 28))
        return plain() + "\n".join(lines) + "\n"

    p.format_help = format_help


def cmd_simulate(args) -> int:
    mod, config, names, seed, games, workers, out = _run_setup(args, TABLE_FORMATS)
    chosen = _measures(args, mod)
    res = simulate(mod, config, names, games, seed, progress=_progress(), workers=workers, rotate=args.rotate)
    note = partial_note(res.completed, games) if res.partial else None
    show_then_save(res.summary(chosen), lambda: _save(
        out, lambda p: _table_data(res.table, p, res.to_json, note), res.completed, games, res.partial,
        f"Table of {len(res.table)} rows (one per game and seat)"))
    return _interrupted(res.completed, games, out) if res.partial else 0


# --- sweep --------------------------------------------------------------------

def parse_vary(items: list[str], mod) -> dict[str, list[str]]:
    """{field: [value texts]} from --vary options (see the module docstring)."""
    if not items:
        raise CliError("sweep needs at least one --vary FIELD=V1,V2,... (e.g. --vary bonus=0,3,6)")
    types_ = mod.Config.field_types()
    grid: dict[str, list[str]] = {}
    for item in items:
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise CliError(f"--vary {item!r} is not of the form FIELD=V1,V2,...")
        hint = types_.get(name) or (mod.Config().kind(name) if name in mod.Config().parameters() else None)  # field[i], aliases
        is_tuple = hint is not None and typing.get_origin(split_optional(hint)[0]) is tuple
        values = text.split(";") if is_tuple else text.replace(";", ",").split(",")
        grid.setdefault(name, []).extend(values)
    base = mod.Config()
    for name, values in grid.items() if hasattr(base, "value_for") else ():  # a value twice would be played twice
        seen = {}
        for text in values:
            try:
                key = base.value_for(name, text)
            except (ValueError, TypeError):
                continue  # sweep names every bad value at once
            if key in seen:
                raise CliError(f"--vary {name} gives {seen[key].strip()!r} and {text.strip()!r}: the same value twice")
            seen[key] = text
    return grid


def cmd_sweep(args) -> int:
    mod, config, names, seed, games, workers, out = _run_setup(args, TABLE_FORMATS)
    grid = parse_vary(args.vary, mod)
    chosen = _measures(args, mod) or []
    bots = [b.strip() for b in args.bots.split(",")]  # one name fits every player count a sweep may try
    try:
        table = sweep(mod, config, grid, bots, games, seed, progress=_progress(), workers=workers, rotate=args.rotate)
    except ValueError as e:
        raise CliError(str(e)) from None
    fields = list(grid)
    print(f"{mod.TITLE} sweep over {', '.join(fields)}: {games} games a point, seed {seed}, rules: {config.describe()}")
    rows = []
    if chosen:
        print("Each measure per seat: mean (95% CI)")
        heads = [m.removeprefix("mean_") for m in chosen]
        for r in table.to_dict(orient="records"):
            done = int(r["games"])
            cells = []
            for m in chosen:
                value, low, high = (r.get(c) for c in measure_columns(m))
                if not done or value is None:
                    cells.append("n/a")
                elif m == "win_rate":
                    cells.append(f"{pct(value)} ({ci_pct(low, high)})")
                else:
                    cells.append(f"{num(value)} ({num(low)} to {num(high)})")
            rows.append([str(r[f]) for f in fields] + [f"Player {int(r['seat']) + 1}", str(r["bot"]), str(done)] + cells)
    else:
        print("Win rate and mean score per seat, turns per game: each with its 95% CI")
        heads = ["win rate", "95% CI", "mean score", "95% CI", "turns"]
        for r in table.to_dict(orient="records"):
            done = int(r["games"])
            rows.append(
                [str(r[f]) for f in fields]
                + [f"Player {int(r['seat']) + 1}", str(r["bot"]), str(done)]
                + (
                    [pct(r["win_rate"]), ci_pct(r["win_low"], r["win_high"]),
                     num(r["score"]), f"{num(r['score_low'])} to {num(r['score_high'])}",
                     f"{num(r['turns'], 1)} ({num(r['turns_low'], 1)} to {num(r['turns_high'], 1)})"]
                    if done else ["n/a"] * 5
                )
            )
    partial = bool(table.attrs.get("partial"))
    done = int(table.drop_duplicates("point")["games"].sum()) if len(table) else 0
    asked = games * math.prod(len(v) for v in grid.values())  # a point with no finished game has no rows
    note = partial_note(done, asked) if partial else None

    def sweep_json():
        import json

        return json.dumps({"format": "meeple-sweep/1", "game": mod.NAME, "config": config.to_dict(), "seed": seed,
                           "games": games, "completed": done, "partial": partial,
                           "rows": json.loads(table.to_json(orient="records"))}, indent=1)

    show_then_save(fmt_table(fields + ["seat", "bot", "games", *heads], rows), lambda: _save(
        out, lambda p: _table_data(table, p, sweep_json, note), done, asked, partial,
        f"Table of {len(table)} rows (one per point and seat)"))
    return _interrupted(done, asked, out) if partial else 0


# --- balance ------------------------------------------------------------------

def cmd_balance(args) -> int:
    import json

    mod, config, names, seed, games, workers, out = _run_setup(args, (".json",))
    skill = None
    if args.skill is not None:
        skill = tuple(s.strip() for s in args.skill.split(","))
        if len(skill) != 2 or not all(skill):
            raise CliError(f"--skill needs two bot names, STRONG,WEAK; got {args.skill!r}")
    try:
        report = balance_report(mod, config, names, games, seed, progress=_progress(), workers=workers, skill=skill)
    except ValueError as e:
        raise CliError(str(e)) from None
    show_then_save(str(report), lambda: _save(
        out, lambda p: json.dumps(report.to_dict(), indent=1, default=str), report.games, games, report.partial,
        "Report"))
    return _interrupted(report.games, games, out) if report.partial else 0


def register(sub) -> None:
    """Add simulate, sweep and balance to the `meeple` command's subparsers."""
    p = sub.add_parser("simulate", help="play many games and print win rates and scores with 95%% CIs")
    add_game_options(p)
    _run_options(p, TABLE_FORMATS)
    p.add_argument("--rotate", action="store_true", help="seat the bots in turn so each holds each seat equally often")
    _measure_help(p)
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("sweep", help="simulate a grid of rule values and print one table")
    add_game_options(p)
    p.add_argument(
        "--vary", action="append", default=[], metavar="FIELD=V1,V2,...",
        help="values to try for one parameter; repeatable. Tuple parameters: separate values with ';'",
    )
    _run_options(p, TABLE_FORMATS)
    p.add_argument("--rotate", action="store_true", help="seat the bots in turn so each holds each seat equally often")
    _measure_help(p)
    p.set_defaults(func=cmd_sweep)

    p = sub.add_parser("balance", help="seat advantage, length, decisiveness, point sources, skill vs luck")
    add_game_options(p)
    _run_options(p, (".json",))
    p.add_argument("--skill", default=None, metavar="STRONG,WEAK",
                   help="bots for the skill-vs-luck figure when the lineup has one bot (default heuristic,random)")
    p.set_defaults(func=cmd_balance)
