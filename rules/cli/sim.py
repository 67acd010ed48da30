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

import json
import math
import typing

from ..config import split_optional
from ..sim import balance_report, simulate, sweep
from ..sim.balance import same_bot_twice
from ..sim.results import measure_columns
from ..sim.text import ci_num, ci_paren, ci_pct, fmt_table, num, pct
from .common import (TABLE_FORMATS, CliError, add_game_options, interrupted, measure_option, partial_note, rotate_option,
                     rotation, run_options, run_setup, chosen_measures, save_table, show_progress, show_then_save,
                     table_data)


def cmd_simulate(args) -> int:
    mod, config, names, seed, games, workers, out = run_setup(args, TABLE_FORMATS)
    chosen = chosen_measures(args, mod)
    rotate, said = rotation(args, names)
    res = simulate(mod, config, names, games, seed, progress=show_progress(), workers=workers, rotate=rotate,
                   measures=chosen)
    note = partial_note(res.completed, games) if res.partial else None
    show_then_save(str(res.summary(chosen)) + (f"\n{said}" if said else ""), lambda: save_table(
        out, lambda p: table_data(res.table, p, res.to_json, note), res.completed, games, res.partial,
        f"Table of {len(res.table)} rows (one per game and seat)"))
    return interrupted(res.completed, games, out) if res.partial else 0


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
    mod, config, names, seed, games, workers, out = run_setup(args, TABLE_FORMATS)
    grid = parse_vary(args.vary, mod)
    chosen = chosen_measures(args, mod) or []
    bots = [b.strip() for b in args.bots.split(",")]  # one name fits every player count a sweep may try
    rotate, said = rotation(args, bots)
    try:
        table = sweep(mod, config, grid, bots, games, seed, progress=show_progress(), workers=workers, rotate=rotate,
                      measures=chosen)
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
                    cells.append(f"{num(value)} {ci_paren(low, high)}")
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
                     num(r["score"]), f"{ci_num(r['score_low'], r['score_high'])}",
                     f"{num(r['turns'], 1)} {ci_paren(r['turns_low'], r['turns_high'], 1)}"]
                    if done else ["n/a"] * 5
                )
            )
    partial = bool(table.attrs.get("partial"))
    done = int(table.drop_duplicates("point")["games"].sum()) if len(table) else 0
    asked = games * math.prod(len(v) for v in grid.values())  # a point with no finished game has no rows
    note = partial_note(done, asked) if partial else None

    def sweep_json():
        return json.dumps({"format": "meeple-sweep/1", "game": mod.NAME, "config": config.to_dict(), "seed": seed,
                           "games": games, "completed": done, "partial": partial,
                           "rows": json.loads(table.to_json(orient="records"))}, indent=1)

    show_then_save(fmt_table(fields + ["seat", "bot", "games", *heads], rows) + (f"\n{said}" if said else ""), lambda: save_table(
        out, lambda p: table_data(table, p, sweep_json, note), done, asked, partial,
        f"Table of {len(table)} rows (one per point and seat)"))
    return interrupted(done, asked, out) if partial else 0


def cmd_balance(args) -> int:
    mod, config, names, seed, games, workers, out = run_setup(args, (".json",))
    skill = None
    if args.skill is not None:
        skill = tuple(s.strip() for s in args.skill.split(","))
        if len(skill) != 2 or not all(skill):
            raise CliError(f"--skill needs two bot names, STRONG,WEAK; got {args.skill!r}")
        if skill[0] == skill[1]:  # refused, as balance_report refuses it (see there)
            raise CliError(same_bot_twice("--skill", skill[0], "--skill heuristic,random"))
        if len(set(names)) > 1:  # refused, as balance_report refuses it: the lineup's own pair would be measured
            raise CliError(f"--skill is used only when --bots names one bot; --bots names {', '.join(dict.fromkeys(names))} "
                           "(their strongest and weakest are the pair): leave --skill out, or give one bot")
    try:
        report = balance_report(mod, config, names, games, seed, progress=show_progress(), workers=workers, skill=skill,
                                measures=chosen_measures(args, mod))
    except ValueError as e:
        raise CliError(str(e)) from None
    show_then_save(str(report), lambda: save_table(
        out, lambda p: json.dumps(report.to_dict(), indent=1, default=str), report.games, games, report.partial,
        "Report"))
    return interrupted(report.games, games, out) if report.partial else 0


def _table_options(p) -> None:
    """The options simulate and sweep share: run options with a table format, --rotate and --measure."""
    run_options(p, TABLE_FORMATS)
    rotate_option(p)
    measure_option(p)


def register(sub) -> None:
    """Add simulate, sweep and balance to the `meeple` command's subparsers."""
    p = sub.add_parser("simulate", help="play many games and print win rates and scores with 95%% CIs")
    add_game_options(p)
    _table_options(p)
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("sweep", help="simulate a grid of rule values and print one table")
    add_game_options(p)
    p.add_argument(
        "--vary", action="append", default=[], metavar="FIELD=V1,V2,...",
        help="values to try for one parameter; repeatable. Tuple parameters: separate values with ';'",
    )
    _table_options(p)
    p.set_defaults(func=cmd_sweep)

    p = sub.add_parser("balance", help="seat advantage, length, decisiveness, point sources, skill vs luck")
    add_game_options(p)
    run_options(p, (".json",))
    p.add_argument("--skill", default=None, metavar="STRONG,WEAK",
                   help="two different bots for the skill-vs-luck figure when the lineup has one bot (default heuristic,random)")
    measure_option(p)
    p.set_defaults(func=cmd_balance)
