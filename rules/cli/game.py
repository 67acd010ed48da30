"""`meeple play`, `meeple replay`, `meeple duel` and `meeple rules`: one game at a time,
one bot against the field, and a game's numbered rules with its parameters."""

from __future__ import annotations

import sys
from pathlib import Path

from ..core import MAX_BOT_NAME, game_module, parameter_info, play, replay, resolve_bots
from ..files import read_capped, shown_path, shown_text, write_atomic
from ..rulebook import UnknownRule, print_rules
from ..sim.balance import head_to_head
from ..sim.results import measure_listing
from ..sim.runner import MAX_GAMES
from ..sim.text import value_text
from .common import (GAME_HELP, MAX_READ, CliError, add_game_options, check_writable, exit_interrupted, game_setup, parse_seed,
                     whole)


def _print_record(rec, out=None) -> None:
    """The game's events, then its final scores and winners; a record saved mid-game (the Stepper
    saves those) says it is unfinished and prints the scores so far and whose turn it is instead."""
    out = out or sys.stdout
    for line in rec.events:
        print(line, file=out)
    print(file=out)
    # a record's names are checked (core.check_bot_name); escaped all the same, as every echo of a file's text
    seats = ", ".join(f"Player {i + 1} ({shown_text(b, MAX_BOT_NAME)}) {s}" for i, (b, s) in enumerate(zip(rec.bots, rec.scores)))
    if not rec.finished:
        print(f"Not finished: the record stops after {len(rec.actions)} action{'s' if len(rec.actions) != 1 else ''}, "
              "mid-game (no final result)", file=out)
        print("Scores so far: " + seats, file=out)
        print(f"To move: Player {rec.state.current_player + 1}", file=out)
        return
    print("Final scores: " + seats, file=out)
    print("Winner" + ("s" if len(rec.winners) > 1 else "") + ": " + ", ".join(f"Player {w + 1}" for w in rec.winners), file=out)


def cmd_play(args) -> int:
    mod, config, names = game_setup(args)
    seed = parse_seed(args.seed)
    record = check_writable(_record_name(args.record), "--record")
    bar = _move_counter(mod)
    try:
        rec = play(mod, config, names, seed, on_move=None if bar is None else (lambda state: bar.update(1)))
    finally:
        if bar is not None:
            bar.close()
    if record is not None:
        write_atomic(record, rec.to_json())
    print(f"{mod.TITLE}, seed {seed}, rules: {config.describe()}")
    _print_record(rec)
    if record is not None:
        print(f"Record saved to {record}")
    return 0


def _record_name(text: str | None) -> str | None:
    """--record's file name: a record is JSON, so it must end in .json (as --out and --report
    end in theirs); an empty name is left to check_writable, which says it needs one."""
    if text is not None and text.strip() and Path(text).suffix.lower() != ".json":
        raise CliError(f"--record must end in .json; got {shown_path(text)!r}")
    return text


def _move_counter(mod):
    """A tqdm counter of moves on a terminal's stderr (lookahead games take seconds), else None."""
    if not sys.stderr.isatty():
        return None
    from tqdm.auto import tqdm

    return tqdm(desc=f"{mod.TITLE}: playing", unit=" moves", leave=False)


def cmd_replay(args) -> int:
    if not args.file.strip():
        raise CliError("replay needs a record's file name, got an empty one")
    path = Path(args.file)
    text = read_capped(path, MAX_READ, "game record")
    try:
        rec = replay(text)
    except ValueError as e:
        raise CliError(f"{shown_path(path)}: {e}") from None
    mod = game_module(rec.game)
    print(f"{mod.TITLE}, seed {rec.seed}, rules: {rec.config.describe()}")
    _print_record(rec)
    return 0


def cmd_rules(args) -> int:
    """A game's numbered rules (from the package), then its parameters (each with what it is
    and its rule number), presets and bots; `--rule BB-8` one rule, `--full` the whole text."""
    try:
        mod = game_module(args.game)
    except ValueError as e:
        raise CliError(str(e)) from None
    if sum((args.rule is not None, args.full, args.measures)) > 1:
        raise CliError("give one of --rule, --full and --measures")
    if args.measures:  # the names --measure takes, each once, as every surface shows them (issue 36)
        for name, what in measure_listing(mod).items():
            print(f"{name:<22} {what}")
        return 0
    try:
        print_rules(mod, args.rule, args.full)
    except UnknownRule as e:  # an unknown rule number: one line
        raise CliError(str(e)) from None
    if args.rule is not None or args.full:
        return 0
    print()
    base = mod.Config()
    rows = []
    for name in base.field_types():  # every field, an empty seat handicap too (to_dict leaves it out)
        what, rule = parameter_info(mod, name)
        rows.append((name, value_text(getattr(base, name)) or "(empty)", f"{what} ({rule})"))  # (empty): no handicap
    aliases = mod.Config.aliases() if hasattr(mod.Config, "aliases") else {}
    named = [(name, value_text(base.get(name)), parameter_info(mod, name)[0]) for name in aliases]
    print(f"{mod.TITLE} parameters (set with --set FIELD=VALUE; the rule each comes from, as above):")
    _print_parameters(rows)
    if named:
        print("Named numbers (set with --set NAME=VALUE too):")
        _print_parameters(named)
    print("Presets: " + ", ".join(mod.Config.presets()))
    print("Bots: " + ", ".join(mod.BOTS))
    return 0


def _print_parameters(rows) -> None:
    """`name = value   what it is (rule)`, names and short values in columns."""
    width = max(len(n) for n, _, _ in rows)
    value_width = min(24, max(len(str(v)) for _, v, _ in rows))
    for name, value, text in rows:
        print(f"  {name:<{width}} = {str(value):<{value_width}}   {text}")


def cmd_duel(args) -> int:
    """One bot against another in every other seat, seat-balanced, with a CI."""
    if "," in args.others:
        raise CliError(f"--others takes one bot name (it sits in every other seat), got {args.others!r}")
    args.bots = args.others
    mod, config, _ = game_setup(args)
    try:
        resolve_bots(mod, [args.bot], 1)  # validates the name
    except ValueError as e:
        raise CliError(str(e)) from None
    games = whole(args.games, "--games", 1, MAX_GAMES)
    r = head_to_head(mod, config, args.bot, args.others, games, parse_seed(args.seed), progress=sys.stderr.isatty())
    if not r["games"]:
        print(f"meeple: interrupted: no game of {games} finished", file=sys.stderr)
        return exit_interrupted()
    low, high = r["ci95"]
    part = f" (interrupted: {r['games']} of {games})" if r["games"] < games else ""
    print(
        f"{mod.TITLE} ({config.describe()}): {args.bot} vs {args.others} x{config.players - 1}, "
        f"{r['games']} games{part}, seat-balanced: win share {r['win_share']:.3f} "
        f"(95% CI {low:.3f}-{high:.3f}; fair share {r['fair_share']:.3f})"
    )
    if part:
        print(f"meeple: interrupted: results of the {r['games']} finished games of {games}", file=sys.stderr)
        return exit_interrupted()
    return 0


def register(sub) -> None:
    """Add play, replay, duel and rules to the `meeple` command's subparsers."""
    p = sub.add_parser("play", help="play one game with bots and print it turn by turn")
    add_game_options(p)
    p.add_argument("--record", metavar="FILE.json", help="save the game record as JSON")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("replay", help="replay a saved game record and print it")
    p.add_argument("file", help="a record saved by `meeple play --record FILE.json`")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("duel", help="measure one bot against another (seat-balanced win share with a 95%% CI)")
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--bot", required=True, help="the bot measured")
    p.add_argument("--others", default="random", help="the bot in every other seat")
    p.add_argument("--games", default="400", help="games to play (default 400; at most 10,000,000)")
    p.add_argument("--seed", default="0", help="whole number >= 0 (default 0)")
    p.add_argument("--preset", default=None, help="a named edition or variant (see `meeple rules GAME`)")
    p.add_argument("--set", dest="settings", action="append", default=[], metavar="FIELD=VALUE",
                   help="change one rule number, e.g. --set bonus=6 (repeatable)")
    p.add_argument("--config", default=None, metavar="FILE", help="a variant file (.toml/.json) to start from")
    p.set_defaults(func=cmd_duel)

    p = sub.add_parser("rules", help="a game's numbered rules, then its parameters, presets and bots")
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--rule", default=None, metavar="ID", help="one rule, e.g. BB-8, with its numbers and judgement calls")
    p.add_argument("--full", action="store_true", help="the whole rule text: judgement calls, bots, sources")
    p.add_argument("--measures", action="store_true",
                   help="the measures --measure takes (simulate, sweep, balance, compare, tune), with what each means")
    p.set_defaults(func=cmd_rules)
