"""The `meeple` command line: play, replay (and simulate, sweep, balance).

Bad input ends with one line on stderr and a non-zero exit, never a
traceback; files are written whole or not at all.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .chance import check_seed
from .config import WHOLE_NUMBER
from .core import game_module, parameter_info, play, replay, resolve_bots
from .extras import MissingExtra
from .files import FileError, read_capped, shown_path, write_all, write_atomic
from .files import check_writable as check_file
from .protocol import check_whole
from .sim.balance import head_to_head
from .sim.runner import MAX_GAMES
from .sim.text import show_value

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, what `yes | head -c 1` leaves in the shell
MAX_READ = 64 * 2**20  # a record or notebook larger than this is not one of ours (and /dev/zero never ends)


class CliError(Exception):
    """A user mistake: printed as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse prints usage + message; keep it to one line
        raise CliError(message)


def add_game_options(p: argparse.ArgumentParser) -> None:
    """The options every game command shares: game, seed, bots, preset, settings."""
    p.add_argument("game", help="bucket-brigade, bucket-king, piggyback-brigade or duck-duck-bruce")
    p.add_argument("--seed", default="0", help="whole number >= 0 (default 0)")
    p.add_argument("--bots", default="random", help="comma-separated bot names, one per player (or one for all)")
    p.add_argument("--preset", default=None, help="a named edition or variant (see `meeple rules GAME`)")
    p.add_argument(
        "--set", dest="settings", action="append", default=[], metavar="FIELD=VALUE",
        help="change one rule number, e.g. --set bonus=6 (repeatable)",
    )
    p.add_argument("--config", default=None, metavar="FILE", help="a variant file (.toml/.json, `meeple variant save`) to start from")


def variant_file(mod, args):
    """The config a --config file holds (not with --preset: one starting point)."""
    if args.preset is not None:
        raise CliError("give --preset or --config, not both")
    return mod.Config.load(args.config)


def ascii_whole(text) -> int:
    """A whole number written in ASCII digits (an optional sign), as --set reads one:
    int() would also take '1_000' and other scripts' digits ('٣'). ValueError otherwise."""
    if not isinstance(text, str) or not WHOLE_NUMBER.fullmatch(text.strip()):
        raise ValueError(f"not a whole number: {text!r}")
    return int(text, 10)


def parse_seed(text: str) -> int:
    try:
        return check_seed(ascii_whole(text))
    except ValueError:
        raise CliError(f"--seed must be a whole number >= 0, got {text!r}") from None


def game_setup(args):
    """(module, config, bot names) from parsed options; CliError on bad input."""
    try:
        mod = game_module(args.game)
        presets = mod.Config.presets()
        if args.preset is not None and args.preset not in presets:
            raise CliError(f"unknown preset {args.preset!r} for {mod.NAME}; known: {', '.join(presets)}")
        config = presets[args.preset or "base"] if getattr(args, "config", None) is None else variant_file(mod, args)
        settings = list(args.settings)
        bots = [b.strip() for b in args.bots.split(",")]
        implied = len(bots) > 1 and not any(s.partition("=")[0].strip() == "players" for s in settings)
        if implied:
            settings.insert(0, f"players={len(bots)}")  # three bots named: a three-player game
        if settings:
            try:
                config = config.with_text(settings)
            except ValueError as e:
                if implied and str(e).startswith("players="):
                    raise ValueError(f"--bots names {len(bots)} bots, one per player, so {e} "
                                     "(name one bot for every seat, or one per seat)") from None
                raise
        names, _ = resolve_bots(mod, args.bots, config.players)
    except ValueError as e:
        raise CliError(str(e)) from None
    return mod, config, names


def whole(text: str, option: str, low: int, high: int) -> int:
    """A whole-number option from low to high, or CliError naming the option and the range."""
    try:
        return check_whole(ascii_whole(text), option, low, high)
    except ValueError:
        raise CliError(f"{option} must be a whole number from {low:,} to {high:,}, got {text!r}") from None


def check_writable(path: str | None, option: str) -> Path | None:
    """A file name the command will write, checked before any game is played."""
    if path is None:
        return None
    if not path.strip():
        raise CliError(f"{option} needs a file name, got an empty one")
    return check_file(path)


def _print_record(rec, out=None) -> None:
    out = out or sys.stdout
    for line in rec.events:
        print(line, file=out)
    print(file=out)
    print("Final scores: " + ", ".join(f"Player {i + 1} ({b}) {s}" for i, (b, s) in enumerate(zip(rec.bots, rec.scores))), file=out)
    print("Winner" + ("s" if len(rec.winners) > 1 else "") + ": " + ", ".join(f"Player {w + 1}" for w in rec.winners), file=out)


def cmd_play(args) -> int:
    mod, config, names = game_setup(args)
    seed = parse_seed(args.seed)
    record = check_writable(args.record, "--record")
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
    from .course import print_rules

    try:
        mod = game_module(args.game)
    except ValueError as e:
        raise CliError(str(e)) from None
    if args.rule is not None and args.full:
        raise CliError("give --rule or --full, not both")
    print_rules(mod, args.rule, args.full)
    if args.rule is not None or args.full:
        return 0
    print()
    base = mod.Config()
    rows = []
    for name in base.to_dict():
        what, rule = parameter_info(mod, name)
        rows.append((name, _value_text(getattr(base, name)), f"{what} ({rule})"))
    aliases = mod.Config.aliases() if hasattr(mod.Config, "aliases") else {}
    named = [(name, _value_text(base.get(name)), parameter_info(mod, name)[0]) for name in aliases]
    print(f"{mod.TITLE} parameters (set with --set FIELD=VALUE; the rule each comes from, as above):")
    _print_parameters(rows)
    if named:
        print("Named numbers (set with --set NAME=VALUE too):")
        _print_parameters(named)
    print("Presets: " + ", ".join(mod.Config.presets()))
    print("Bots: " + ", ".join(mod.BOTS))
    return 0


def _value_text(value) -> str:
    """A value as --set takes it: 15,13,11 / true / none."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(show_value(value))


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
        return EXIT_INTERRUPTED
    low, high = r["ci95"]
    part = f" (interrupted: {r['games']} of {games})" if r["games"] < games else ""
    print(
        f"{mod.TITLE} ({config.describe()}): {args.bot} vs {args.others} x{config.players - 1}, "
        f"{r['games']} games{part}, seat-balanced: win share {r['win_share']:.3f} "
        f"(95% CI {low:.3f}-{high:.3f}; fair share {r['fair_share']:.3f})"
    )
    if part:
        print(f"meeple: interrupted: results of the {r['games']} finished games of {games}", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


def scrub_notebook(text: str, name: str = "notebook") -> tuple[str, int]:
    """A notebook's JSON with every cell tagged "solution" removed (and outputs cleared).

    Anything that is not an nbformat 4 notebook (JSON object, a list of cells,
    each an object with a cell_type and a source) is a CliError naming the
    first thing wrong; nothing is written for it.
    """
    import json

    try:
        nb = json.loads(text)
    except RecursionError:
        raise CliError(f"{name} is not a notebook: its JSON is nested too deeply") from None
    except ValueError as e:
        raise CliError(f"{name} is not a notebook: not JSON ({e})") from None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise CliError(f"{name} is not a notebook: no JSON object with a 'cells' list")
    cells = nb["cells"]
    for i, c in enumerate(cells):
        problem = None
        if not isinstance(c, dict):
            problem = f"is {type(c).__name__}, not an object"
        elif not isinstance(c.get("cell_type"), str):
            problem = "has no 'cell_type' text"
        elif "source" not in c:
            problem = "has no 'source'"
        elif not (isinstance(c["source"], str) or isinstance(c["source"], list) and all(isinstance(s, str) for s in c["source"])):
            problem = "has a 'source' that is neither text nor a list of lines"
        elif not isinstance(c.get("metadata", {}), dict):
            problem = "has 'metadata' that is not an object"
        elif not isinstance(c.get("metadata", {}).get("tags", []), list):
            problem = "has 'tags' that are not a list"
        if problem:
            raise CliError(f"{name} is not a notebook: cell {i + 1} {problem}")
    kept = [c for c in cells if "solution" not in c.get("metadata", {}).get("tags", [])]
    for c in kept:
        if c["cell_type"] == "code":
            c["outputs"], c["execution_count"] = [], None
    nb["cells"] = kept
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n", len(cells) - len(kept)


def cmd_scrub(args) -> int:
    """Copy lessons for students: the cells tagged "solution" are left out.

    Every notebook is read and checked, and every target checked, before the
    first file is written; the copies are then renamed into place together."""
    src, out = Path(args.lessons), Path(args.out)
    if not src.is_dir():
        raise CliError(f"{shown_path(src)} is not a folder of notebooks")
    books = sorted(b for b in src.glob("*.ipynb"))
    if not books:
        raise CliError(f"{shown_path(src)} holds no .ipynb notebooks")
    try:
        same = out.resolve() == src.resolve()
    except (OSError, RuntimeError) as e:
        raise CliError(f"cannot use {shown_path(out)} for the copies: {e}") from None
    if same:
        raise CliError("the student copy must go to another folder than the lessons")
    scrubbed = [(b, *scrub_notebook(read_capped(b, MAX_READ, "notebook"), b.name)) for b in books]  # all checked first
    try:
        if out.exists() and not out.is_dir():
            raise CliError(f"cannot write the copies to {shown_path(out)}: it is a file, not a folder")
        for book, _, _ in scrubbed:
            if (out / book.name).is_dir():
                raise CliError(f"cannot write {shown_path(out / book.name)}: it is a folder")
        made = not out.exists()
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CliError(f"cannot make the folder {shown_path(out)}: {e.strerror or e}") from None
    try:
        write_all({out / book.name: text for book, text, _ in scrubbed})
    except BaseException:
        if made:
            try:
                out.rmdir()  # only if we made it and it is still empty
            except OSError:
                pass
        raise
    for book, _, removed in scrubbed:
        print(f"{book.name}: {removed} solution cell(s) removed")
    return 0


def cmd_answers(args) -> int:
    """The teacher's answer key: every exercise's answer, for one student, a class or the defaults."""
    from meeple.widgets import exercises

    try:
        names = ([args.student] if args.student is not None else
                 exercises.read_roster(read_capped(Path(args.roster), MAX_READ, "roster")) if args.roster else [None])
        for name in names:
            print(f"== {name} (id {exercises.normalise(name)!r})" if name is not None else "== the lessons' own numbers")
            for key, text in exercises.answer_key(name):
                print(f"{key}: {text}")
    except ValueError as e:
        raise CliError(str(e)) from None
    return 0


def build_parser() -> argparse.ArgumentParser:
    from .course import version

    parser = _Parser(prog="meeple", description="Play, replay and study four small tabletop games.")
    parser.add_argument("--version", action="version", version=f"meeple {version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("play", help="play one game with bots and print it turn by turn")
    add_game_options(p)
    p.add_argument("--record", metavar="FILE.json", help="save the game record as JSON")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("replay", help="replay a saved game record and print it")
    p.add_argument("file")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("duel", help="measure one bot against another (seat-balanced win share with a 95%% CI)")
    p.add_argument("game")
    p.add_argument("--bot", required=True, help="the bot measured")
    p.add_argument("--others", default="random", help="the bot in every other seat")
    p.add_argument("--games", default="400", help="games to play (default 400; at most 10,000,000)")
    p.add_argument("--seed", default="0")
    p.add_argument("--preset", default=None)
    p.add_argument("--set", dest="settings", action="append", default=[], metavar="FIELD=VALUE")
    p.add_argument("--config", default=None, metavar="FILE", help="a variant file (.toml/.json) to start from")
    p.set_defaults(func=cmd_duel)

    p = sub.add_parser("scrub", help="copy the lessons for students, without the cells tagged 'solution'")
    p.add_argument("lessons", help="folder of lesson notebooks")
    p.add_argument("out", help="folder for the student copies")
    p.set_defaults(func=cmd_scrub)

    p = sub.add_parser("answers", help="print the teacher's answer key: every exercise, for a student or a class")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--student", metavar="NAME", help="the name or id the student passes to student(...)")
    who.add_argument("--class", dest="roster", metavar="ROSTER.csv", help="a CSV with a column 'name' or 'id'")
    p.set_defaults(func=cmd_answers)

    p = sub.add_parser("rules", help="a game's numbered rules, then its parameters, presets and bots")
    p.add_argument("game")
    p.add_argument("--rule", default=None, metavar="ID", help="one rule, e.g. BB-8, with its numbers and judgement calls")
    p.add_argument("--full", action="store_true", help="the whole rule text: judgement calls, bots, sources")
    p.set_defaults(func=cmd_rules)
    __import__("meeple.rules.course", fromlist=["register"]).register(sub)  # lessons

    from .sim_cli import register  # simulate, sweep, balance

    register(sub)
    __import__("meeple.rules.workbench_cli", fromlist=["register"]).register(sub)  # compare, tune, variant
    return parser


def main(argv: list[str] | None = None) -> int:
    import signal
    import threading

    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # from here on, Ctrl-C is handled below
    try:
        args = build_parser().parse_args(argv)
        code = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
        return code
    except (CliError, FileError, MissingExtra) as e:  # a missing extra: one line naming `pip install 'meeple[...]'`
        print(f"meeple: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("meeple: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # the reader (`| head`) has gone: stop quietly, as Unix tools do; point stdout at
        # /dev/null so Python's own flush at exit does not complain again
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return EXIT_BROKEN_PIPE


if __name__ == "__main__":
    # `python -m meeple.rules.cli` (no `meeple` on PATH, e.g. after `pip install --user`): run the
    # package's copy of this module, whose CliError is the one the other command modules raise
    from meeple.rules.cli import main as package_main

    sys.exit(package_main())
