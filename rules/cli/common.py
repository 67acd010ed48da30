"""What every `meeple` command module shares: the one-line error (CliError), the
options of a game command (game, seed, bots, preset, --set, --config), whole-number
options, output files checked before any game, tables saved whole, and the Ctrl-C
report. A command module imports this and registers its commands in `register(sub)`.
"""

from __future__ import annotations

import argparse
import re
import signal
import sys
import textwrap
import typing
from pathlib import Path

from ..chance import check_seed
from ..config import WHOLE_NUMBER
from ..core import game_module, resolve_bots, split_bots
from ..extras import require
from ..files import check_writable as check_file
from ..files import shown_path, write_atomic
from ..protocol import check_whole
from ..registry import GAMES
from ..sim.results import measure_name, measures
from ..sim.runner import MAX_GAMES, MAX_WORKERS


EXIT_USAGE = 2


EXIT_INTERRUPTED = 130


EXIT_TERMINATED = 143  # 128 + SIGTERM: a scheduler's time limit, `timeout`


SIGNALLED: list = []  # the signals (SIGINT, SIGTERM) this command was sent (main() sets the handlers)


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled as a Ctrl-C is (what finished is printed and saved), with exit status 143."""


EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, what `yes | head -c 1` leaves in the shell


MAX_READ = 64 * 2**20  # a record or notebook larger than this is not one of ours (and /dev/zero never ends)


class CliError(Exception):
    """A user mistake: printed as one line, exit code 2."""


class Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse prints usage + message; keep it to one line
        option = re.fullmatch(r"argument (--[\w-]+)(?:/-\w)?: expected one argument", message)
        if option:  # `--values -3..2`: argparse takes '-3..2' for an option, not for the value
            message += f" (a value that starts with '-' is joined with '=': {option.group(1)}=VALUE)"
        raise CliError(message)


GAME_HELP = "bucket-brigade, bucket-king, piggyback-brigade or duck-duck-bruce"


def add_game_options(p: argparse.ArgumentParser) -> None:
    """The options every game command shares: game, seed, bots, preset, settings."""
    p.add_argument("game", help=GAME_HELP)
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
        raise CliError(f"--seed must be a whole number >= 0, got {shown_path(repr(text))}") from None


def game_setup(args):
    """(module, config, bot names) from parsed options; CliError on bad input."""
    try:
        mod = game_module(args.game)
        presets = mod.Config.presets()
        if args.preset is not None and args.preset not in presets:
            raise CliError(f"unknown preset {args.preset!r} for {mod.NAME}; known: {', '.join(presets)}")
        config = presets[args.preset or "base"] if getattr(args, "config", None) is None else variant_file(mod, args)
        settings = list(args.settings)
        try:  # 'heuristic,' was read as two bots: '2 bots, so players=2'
            bots = split_bots(mod, args.bots, "--bots")
        except ValueError as e:
            raise CliError(str(e)) from None
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
        raise CliError(f"{option} must be a whole number from {low:,} to {high:,}, got {shown_path(repr(text))}") from None


def check_writable(path: str | None, option: str) -> Path | None:
    """A file name the command will write, checked before any game is played."""
    if path is None:
        return None
    if not path.strip():
        raise CliError(f"{option} needs a file name, got an empty one")
    return check_file(path)


# --- commands that play many games: simulate, sweep, balance, compare, tune ----------------

TABLE_FORMATS = (".csv", ".parquet", ".json")


def run_options(p, formats: tuple[str, ...], games: str = "1000", partial: bool = True) -> None:
    """--games, --workers and --out. `partial`: an interrupted run saves what finished
    (simulate, sweep, balance, compare); else it writes nothing (tune, report)."""
    p.add_argument("--games", default=games, help=f"games to play (default {games}; at most {MAX_GAMES:,})")
    p.add_argument(
        "--workers", default=None,
        help=f"processes to use, 1 to {MAX_WORKERS} (default: every core; 1 = this process); "
             "never more processes are started than there are games",
    )
    if not partial:
        interrupted = "An interrupted run writes nothing (an existing file is kept as it was)"
    else:
        interrupted = ("An interrupted run never replaces an existing file: its partial results go to "
                       "FILE.partial.EXT" + (" (a CSV starts with a '# partial: ...' line)" if ".csv" in formats else ""))
    p.add_argument("--out", default=None, metavar="FILE",
                   help="also save the results: " + ", ".join(formats) + ". " + interrupted)


def checked_out(path: str | None, formats: tuple[str, ...]) -> Path | None:
    """The output path, checked before any game is played."""
    if path is not None and Path(path).suffix.lower() not in formats:
        raise CliError(f"--out must end in {', '.join(formats)}; got {shown_path(path)!r}")
    if path is not None and Path(path).suffix.lower() == ".parquet":
        require("pyarrow", "--out FILE.parquet")  # before any game is played
    return check_writable(path, "--out")


def workers_option(args) -> int | None:
    if args.workers is None:
        return None
    return whole(args.workers, "--workers", 1, MAX_WORKERS)


def partial_note(done: int, asked: int) -> str:
    return f"partial: {done} of {asked} games, interrupted"


def table_data(table, path: Path, json_text=None, note: str | None = None) -> str | bytes:
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


def save_table(out: Path | None, data, done: int, asked: int, partial: bool, what: str) -> str | None:
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


def show_progress() -> bool:
    return sys.stderr.isatty()


def interrupted(done: int, asked: int, out: Path | None = None) -> int:
    if done:
        print(f"meeple: interrupted: results of the {done} finished games of {asked}", file=sys.stderr)
    else:
        kept = f" ({out} kept as it was)" if out is not None and out.exists() else ""
        nothing = f"; nothing written{kept}" if out is not None else ""
        print(f"meeple: interrupted before any of the {asked} games finished{nothing}", file=sys.stderr)
    return exit_interrupted()


def exit_interrupted() -> int:
    """130 after a Ctrl-C, 143 after a SIGTERM."""
    return EXIT_TERMINATED if signal.SIGTERM in SIGNALLED else EXIT_INTERRUPTED


class RunArgs(typing.NamedTuple):
    mod: object
    config: object
    names: tuple
    seed: int
    games: int
    workers: int | None
    out: Path | None


def run_setup(args, formats) -> RunArgs:
    """What simulate, sweep and balance all read first; every option checked before any game."""
    mod, config, names = game_setup(args)
    return RunArgs(mod, config, names, parse_seed(args.seed), whole(args.games, "--games", 1, MAX_GAMES),
                workers_option(args), checked_out(args.out, formats))


ROTATE_HELP = ("seat the bots in turn so each holds each seat equally often. The default when the seats hold different "
               "bots (else seat figures mix skill and seat); --no-rotate keeps each bot in its seat (e.g. to measure "
               "one bot in seat 1 against the others)")


def rotate_option(p) -> None:
    """--rotate / --no-rotate, as compare has it: rotate by default when the seats hold different bots."""
    p.add_argument("--rotate", action=argparse.BooleanOptionalAction, default=None, help=ROTATE_HELP)


def rotation(args, bots) -> tuple[bool, str | None]:
    """(rotate, the line that says which was done) for --rotate/--no-rotate and the bot names.
    Different bots in the seats rotate unless --no-rotate; one bot everywhere has nothing to rotate
    and nothing to say."""
    mixed = len({b.strip() for b in bots}) > 1
    rotate = mixed if args.rotate is None else bool(args.rotate)
    if not mixed:
        return rotate, None
    if not rotate:
        return False, ("Bots kept in their seats (--no-rotate): each seat's figures mix the bot's skill with the "
                       "seat's; --rotate (the default) seats them in turn.")
    why = "the default when the seats hold different bots; --no-rotate keeps each bot in its seat" \
        if args.rotate is None else "--rotate"
    return True, (f"Bots rotated ({why}): each holds each seat equally often, so seat figures measure the seat "
                  "(averaged over the bots).")


def chosen_measures(args, mod) -> list[str] | None:
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


def measure_option(p) -> None:
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
