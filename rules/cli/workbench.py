"""`meeple compare`, `meeple tune` and `meeple variant`: the designer's workbench.

    meeple variant save big-hands --game bucket-brigade --set hand_size=15 --out big-hands.toml
    meeple compare bucket-brigade --variant base: --variant big-hands.toml --variant 'bonus6:bonus=6' --games 500
    meeple tune bucket-brigade --field bonus --measure ender_win_rate --target 0.5 --values 0..8 --games 300

A `--variant` is `NAME:field=value,field=value` (any field, `field[i]` or
alias; a tuple's commas stay with its value: `flat:track=0,0,0,1,1,2,3`),
`NAME:` for the common rules unchanged, or a variant file (.json/.toml).
The first variant is the baseline. `--preset`, `--config` and `--set`
give the common rules every variant starts from. Bad input stops before
any game is played, with one line and exit code 2.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..comparison import on_common
from ..config import DECIMAL_NUMBER, show_value, MAX_VARIANT_NAME, VARIANT_SUFFIXES, read_variant, settings_list
from ..files import read_capped, shown_path, write_atomic
from ..registry import load_variant
from ..reproduce import NAME_RULE, VARIANT_NAME
from ..sim.runner import MAX_GAMES
from ..sim.text import lineup_text
from ..tune_measures import check_read
from ..workbench import compare_run, coupled, format_comparison, tune
from .common import (MAX_READ, TABLE_FORMATS, CliError, add_game_options, check_writable, checked_out, chosen_measures,
                     game_setup, interrupted, measure_option, parse_seed, partial_note, rotate_option, rotation,
                     run_options, save_table, show_progress, table_data, whole, workers_option)


_NAME = VARIANT_NAME


def said_players(args, mod, base) -> str | None:
    """Which option of the command line chose the player count ('--set players=3', '--bots ... (3 names)',
    '--preset NAME', '--config FILE'), or None when none did: then a variant may set its own. The bot
    names as given count, not the seats game_setup filled from one name (`--bots heuristic` chooses nothing)."""
    if any(s.partition("=")[0].strip() == "players" for s in args.settings):
        return f"--set players={base.players}"
    given = [b for b in args.bots.split(",") if b.strip()]
    if len(given) > 1:
        return f"--bots {args.bots} ({len(given)} names, one per seat)"
    if base.players != mod.Config().players:
        return f"--preset {args.preset}" if args.preset is not None else f"--config {shown_path(args.config)}"
    return None


def parse_variants(items: list[str], mod, base, said_players: str | None = None) -> dict:
    """{name: Config} from --variant options; CliError on the first bad one.

    One rule for every variant, inline or a file (issue 33), the one compare(config=) and the
    variant lab follow (comparison.on_common): `base` (what --preset, --config and --set made) is
    where each starts, and the variant's own fields win over it. A file for another game, or one
    whose player count differs from the one the command line gave (`said_players`: --set
    players=N, N bots named, or a --preset/--config with another count than the defaults'), is
    refused naming both, inline text alike (one rule for both doors)."""
    if len(items) < 2:
        raise CliError("compare needs a baseline and at least one more: --variant NAME:field=value,... (twice or more)")
    out = {}
    for item in items:
        if Path(item).suffix.lower() in VARIANT_SUFFIXES and ":" not in item:
            try:
                name, config = on_common(mod, Path(item), base, what=f"--variant {shown_path(item)}",
                                         said_players=bool(said_players), where=said_players or "the command line")
            except ValueError as e:
                raise CliError(str(e)) from None
        else:
            name, sep, text = item.partition(":")
            name = name.strip()
            shown = shown_path(repr(item), 80)  # echoed cut and printable (a megabyte, a terminal escape)
            if not sep:
                raise CliError(f"--variant {shown} is not NAME:field=value,... or a .json/.toml variant file")
            if not _NAME.fullmatch(name) or len(name) > MAX_VARIANT_NAME:
                raise CliError(f"--variant {shown}: the name {shown_path(repr(name), 60)} is not allowed: {NAME_RULE}, "
                               f"at most {MAX_VARIANT_NAME} characters")
            try:
                config = on_common(mod, settings_list(text), base, what=f"--variant {name}",
                                   said_players=bool(said_players), where=said_players or "the command line")[1]
            except ValueError as e:
                raise CliError(str(e)) from None
        if name in out:
            raise CliError(f"two variants are named {name!r}")
        out[name] = config
    return out


def _report_path(text: str | None, option: str) -> Path | None:
    """The report's path, checked before any game: it must end in .html and be writable."""
    if text is None:
        return None
    if Path(text).suffix.lower() not in (".html", ".htm"):
        raise CliError(f"{option} must end in .html; got {text!r}")
    return check_writable(text, option)


def cmd_check_report(args) -> int:
    return _check_report(args.file)


def _check_report(path: str) -> int:
    """meeple report --check FILE.html: does this install deal the games the report was made from?"""
    if not path.strip():  # not "cannot read .: is a folder"
        raise CliError("check-report needs a report's file name, got an empty one")
    report = _report_module()
    text = read_capped(path, MAX_READ, "report")
    shown = shown_path(path)
    try:
        made = report.read_stamp(text)
    except ValueError as e:
        raise CliError(f"{shown}: {e}") from None
    here = (report.package_version(), report.chance_fingerprint())
    print(f"{shown}: made with meeple {made[0]}, chance stream {made[1]}; here meeple {here[0]}, chance stream {here[1]}.")
    if made[1] != here[1]:
        print("The chance stream differs: its command will not deal the same games here, nor give the same figures.")
        return 1
    print("The same chance stream: its command deals the same games here"
          + (" (same package version: the same figures)." if made[0] == here[0] else
             "; another package version may play or count them otherwise (see its changelog)."))
    return 0


def cmd_compare(args) -> int:
    mod, base, names = game_setup(args)
    seed, games = parse_seed(args.seed), whole(args.games, "--games", 1, MAX_GAMES)
    workers = workers_option(args)
    if getattr(args, "report_only", False):  # meeple report: --out is the report
        if args.out is None:
            raise CliError("meeple report needs --out FILE.html (the report to write)")
        out, report = None, _report_path(args.out, "--out")
    else:
        out, report = checked_out(args.out, TABLE_FORMATS), _report_path(args.report, "--report")
    variants = parse_variants(args.variant, mod, base, said_players(args, mod, base))
    chosen = chosen_measures(args, mod)
    bots = names if len(set(names)) > 1 else [names[0]]  # one name fits variants with another player count
    # different bots in the seats: rotate unless told not to (a seat question is what a designer asks; the
    # output says it rotated and how to keep the bots in their seats)
    rotate = len(set(names)) > 1 if args.rotate is None else args.rotate
    try:
        result = compare_run(mod, variants, bots, games, seed, progress=show_progress(), workers=workers, rotate=rotate,
                          by=args.by, measures=chosen, rotate_default=args.rotate is None)
    except ValueError as e:
        raise CliError(str(e)) from None
    if base != mod.Config():
        result.common = base  # "Reproduce" (report) then gives the common rules as --set
    table = result.table
    print(format_comparison(table))
    if report is not None and not table.attrs.get("partial"):
        _report_module().write_report(result, report)
        print(f"Report saved to {report}")
    partial = bool(table.attrs.get("partial"))
    done = int(table["games"].min()) if len(table) else 0  # every variant's finished games
    asked = games * len(variants)
    note = partial_note(done * len(variants), asked) if partial else None
    saved = save_table(out, lambda p: table_data(table, p, note=note), done, asked, partial,
                  f"Table of {len(table)} rows (one per variant and {args.by})")
    if saved:
        print(saved)
    return interrupted(done * len(variants), asked, out) if partial else 0


def _report_module():
    try:
        from meeple.widgets import report
    except ImportError as e:
        raise CliError(f"a report needs meeple.widgets (the package is incomplete): {e}") from None
    return report


MAX_DIGITS = 18  # every rule number fits in 18 digits (a 64-bit integer); Python reads at most 4,300


def parse_values(text: str | None) -> list[int] | None:
    """'0..8' or '0,2,4' or '0..4,8' -> whole numbers; None when not given."""
    if text is None:
        return None
    out = []
    for part in text.split(","):
        m = re.fullmatch(r"\s*(-?[0-9]+)\s*(?:\.\.\s*(-?[0-9]+)\s*)?", part)  # ASCII digits, as --set
        if not m:
            raise CliError(f"--values must be whole numbers or ranges like 0..8, separated by commas; "
                           f"got {shown_path(repr(text))}")
        longest = max(len(g.lstrip("-")) for g in m.groups() if g is not None)
        if longest > MAX_DIGITS:  # int() of over 4,300 digits raises Python's own multi-line error
            raise CliError(f"--values holds a number of {longest:,} digits; no rule number has more than {MAX_DIGITS}")
        a, b = int(m.group(1)), int(m.group(2) if m.group(2) is not None else m.group(1))
        if b < a or b - a > 1000:
            raise CliError(f"--values range {shown_path(repr(part.strip()))} must go up, by at most 1,000 values")
        out.extend(range(a, b + 1))
    return out


def _number(text: str, option: str) -> float:
    value = float(text) if DECIMAL_NUMBER.fullmatch(text.strip()) else float("nan")  # ASCII digits, as --set
    if value != value or value in (float("inf"), float("-inf")):
        raise CliError(f"{option} must be a number, got {text!r}")
    return value


def cmd_tune(args) -> int:
    mod, config, names = game_setup(args)
    seed, games = parse_seed(args.seed), whole(args.games, "--games", 1, MAX_GAMES)
    workers, out = workers_option(args), checked_out(args.out, (".csv",))
    target = _number(args.target, "--target")
    seat = None if args.seat is None else whole(args.seat, "--seat", 1, config.players) - 1
    fields, values = args.field, args.values
    if len(values) > len(fields):
        raise CliError(f"--values is given {len(values)} times for {len(fields)} --field: one --values per field, "
                       "in the same order")
    if len(fields) == 1 and args.halving:
        raise CliError("--halving searches two numbers: give --field twice")
    if len(fields) == 2 and args.bisect:
        raise CliError("--bisect moves one number; for two use the grid (default) or --halving")
    parsed = [parse_values(v) for v in values] + [None] * (len(fields) - len(values))
    try:  # --seat or --bot that the measure does not read: refused (tune() refuses seat=/bot= alike)
        check_read(mod, args.measure, seat, args.bot, cli=True)
    except ValueError as e:
        raise CliError(str(e)) from None
    rotate, said = rotation(args, names)
    # one bot name fills every seat at every player count a value plays (--field players), as the API's
    # tune(bots="heuristic") does; the names game_setup resolved are the default player count's seats
    bots = names if len(set(names)) > 1 else names[0]
    try:
        if len(fields) == 1:
            result = tune(mod, config, fields[0], args.measure, target, bots, games, seed, progress=show_progress(),
                          values=parsed[0], method="bisect" if args.bisect else "grid", seat=seat,
                          bot=args.bot, workers=workers, rotate=rotate)
        else:  # two: every setting or --halving; three or more: NTBEA (rules/ntbea.py)
            result = tune(mod, config, tuple(fields), args.measure, target, bots, games, seed, progress=show_progress(),
                          values=None if all(p is None for p in parsed) else tuple(parsed),
                          method="halving" if args.halving else "grid", seat=seat, bot=args.bot, workers=workers,
                          rotate=rotate)
    except ValueError as e:
        raise CliError(str(e)) from None
    moves_players = any(config.path(f) == "players" for field in fields for f in coupled(field))
    shown_bots = f"{bots} in every seat" if isinstance(bots, str) and moves_players else lineup_text(names)
    print(f"{mod.TITLE}, bots {shown_bots}, rules: {config.describe()}")
    print(result)  # its message and the table of every value, as print(tune(...)) shows it
    if said:
        print(said)
    if out is not None:
        write_atomic(out, result.table.to_csv(index=False))
        print(f"Table saved to {out}")
    return 0


def cmd_variant_save(args) -> int:
    name = args.name.strip()
    if not _NAME.fullmatch(name):
        raise CliError(f"variant name {args.name!r} is not allowed: {NAME_RULE}")
    if args.game is None:
        if args.config is None:
            raise CliError("name the game: --game GAME (or start from a variant file with --config FILE)")
        try:
            args.game = read_variant(args.config)[0]
        except ValueError as e:
            raise CliError(str(e)) from None
    if args.out is not None and not args.out.strip():
        raise CliError("--out needs a file name, got an empty one")
    mod, config, _ = game_setup(args)
    out = Path(args.out) if args.out else Path(re.sub(r"[^A-Za-z0-9._+-]+", "-", name) + ".toml")
    if out.suffix.lower() not in VARIANT_SUFFIXES:
        raise CliError(f"--out must end in {' or '.join(VARIANT_SUFFIXES)}; got {str(out)!r}")
    # every number the reader named is kept, at its default too (a file and the same text then mean one
    # thing on common rules): --set's names and those of the --config file started from
    named = [s.partition("=")[0] for s in args.settings]
    if args.config is not None:
        try:
            named += list(read_variant(args.config)[2])
        except ValueError as e:
            raise CliError(str(e)) from None
    try:
        text = config.variant_text(name, out.suffix, named)
        kept = config.fields_named(named)
    except ValueError as e:
        raise CliError(str(e)) from None
    write_atomic(out, text)
    base = mod.Config()
    at_default = [f"{f}={show_value(getattr(config, f))}" for f in kept if getattr(config, f) == getattr(base, f)]
    rules = config.describe() if config != base else "the defaults"
    if at_default:  # said, not hidden: on the defaults this file changes nothing
        rules += f"; kept at their default: {', '.join(at_default)}"
    print(f"{mod.TITLE} variant {name!r} ({rules}) saved to {out}")
    return 0


def cmd_variant_show(args) -> int:
    if not args.file.strip():
        raise CliError("variant show needs a variant file's name, got an empty one")
    try:
        name, config = load_variant(args.file)
    except ValueError as e:
        raise CliError(str(e)) from None
    print(f"{config.game_name()} variant {name!r}: {config.describe()}")
    return 0


def register(sub) -> None:
    """Add compare, tune and variant to the `meeple` command's subparsers."""
    for command in ("compare", "report"):
        _compare_parser(sub, command)
    p = sub.add_parser("check-report", help="does this install deal the same games as a report was made from?")
    p.add_argument("file", help="a report written by meeple report or compare --report")
    p.set_defaults(func=cmd_check_report)

    p = sub.add_parser("tune", help="find the value of one number whose measure comes closest to a target")
    add_game_options(p)
    p.add_argument("--field", required=True, action="append",
                   help="the whole number to move: a field, field[i] or alias (e.g. bonus); A+B moves coupled "
                        "numbers together (best_face+max_steal); twice to tune two numbers at once (every setting, "
                        "or --halving); three or more times: a budgeted search (NTBEA, Lucas et al. 2018)")
    p.add_argument("--measure", default="win_rate",
                   help="ender_win_rate, win_rate, score, seat1_advantage (percentage points), bot_win_rate, turns, "
                        "rounds, or any measure `meeple rules GAME --measures` lists, design measures included "
                        "(default win_rate)")
    p.add_argument("--target", required=True, help="the value the measure should reach")
    p.add_argument("--values", action="append", default=[],
                   help="values to try: 0..8, or 0,2,4 (default: within 10 of the current); one per --field")
    p.add_argument("--bisect", action="store_true", help="halve the range (for a measure that moves one way)")
    p.add_argument("--halving", action="store_true",
                   help="two numbers: successive halving (play every setting a few games, keep the nearer half, "
                        "double the games) instead of every setting at --games")
    p.add_argument("--seat", default=None,
                   help="the seat for win_rate and score (1 = first player; default 1); refused with other measures")
    p.add_argument("--bot", default=None, help="the bot for bot_win_rate; refused with other measures")
    run_options(p, (".csv",), games="300", partial=False)
    rotate_option(p)
    p.set_defaults(func=cmd_tune)

    p = sub.add_parser("variant", help="save a variant as a file (JSON or TOML), or show one")
    vsub = p.add_subparsers(dest="variant_command", required=True, parser_class=type(p))
    v = vsub.add_parser("save", help="write the numbers that differ from the defaults to NAME.toml (or --out)")
    v.add_argument("name", help="the variant's name")
    v.add_argument("--game", default=None, help="the game (or take it from --config)")
    v.add_argument("--preset", default=None, help="a named edition to start from")
    v.add_argument("--config", default=None, metavar="FILE", help="a variant file to start from")
    v.add_argument("--set", dest="settings", action="append", default=[], metavar="FIELD=VALUE",
                   help="change one number: a field, field[i] or alias (repeatable)")
    v.add_argument("--out", default=None, metavar="FILE", help="the file to write (.toml or .json)")
    v.set_defaults(func=cmd_variant_save, bots="random", seed="0")
    v = vsub.add_parser("show", help="print what a variant file changes")
    v.add_argument("file", help="a variant file (.toml or .json)")
    v.set_defaults(func=cmd_variant_show)


def _compare_parser(sub, command: str) -> None:
    """compare, and report (the same run; --out is the HTML report)."""
    if command == "compare":
        p = sub.add_parser("compare", help="variants side by side on the same game seeds, with paired 95%% CIs")
    else:
        p = sub.add_parser("report", help="compare, written as one self-contained HTML file (--out FILE.html)")
    add_game_options(p)
    p.add_argument("--variant", action="append", default=[], metavar="NAME:FIELD=VALUE,...",
                   help="a variant (the first is the baseline): NAME:field=value,..., NAME: (the common rules), "
                        "or a .json/.toml variant file; repeat")
    if command == "compare":
        run_options(p, TABLE_FORMATS, games="500")
        p.add_argument("--report", default=None, metavar="FILE.html",
                       help="also write the comparison as one self-contained HTML file (charts, variant files, the "
                            "command that reproduces it)")
    else:
        run_options(p, (".html",), games="500", partial=False)
        p.set_defaults(report_only=True)
    rotate_option(p)
    p.add_argument("--by", choices=("seat", "bot"), default="seat", help="one row per seat (default) or per bot")
    measure_option(p)
    p.set_defaults(func=cmd_compare)
