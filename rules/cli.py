"""The `meeple` command line: play, replay (and simulate, sweep, balance).

Bad input ends with one line on stderr and a non-zero exit, never a
traceback; files are written whole or not at all.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from .chance import check_seed
from .core import game_module, play, replay, resolve_bots

EXIT_USAGE = 2


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


def parse_seed(text: str) -> int:
    try:
        return check_seed(int(text, 10))
    except ValueError:
        raise CliError(f"--seed must be a whole number >= 0, got {text!r}") from None


def game_setup(args):
    """(module, config, bot names) from parsed options; CliError on bad input."""
    try:
        mod = game_module(args.game)
        presets = mod.Config.presets()
        if args.preset is not None and args.preset not in presets:
            raise CliError(f"unknown preset {args.preset!r} for {mod.NAME}; known: {', '.join(presets)}")
        config = presets[args.preset or "base"]
        settings = list(args.settings)
        bots = [b.strip() for b in args.bots.split(",")]
        if len(bots) > 1 and not any(s.partition("=")[0].strip() == "players" for s in settings):
            settings.insert(0, f"players={len(bots)}")  # three bots named: a three-player game
        if settings:
            config = config.with_text(settings)
        names, _ = resolve_bots(mod, args.bots, config.players)
    except ValueError as e:
        raise CliError(str(e)) from None
    return mod, config, names


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write text or bytes to a temp file beside `path`, then rename: never half a file."""
    path = Path(path)
    if not path.parent.exists():
        raise CliError(f"cannot write {path}: folder {path.parent} does not exist")
    if path.is_dir():
        raise CliError(f"cannot write {path}: it is a folder")
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as e:
        raise CliError(f"cannot write {path}: {e.strerror}") from None
    try:
        with os.fdopen(fd, "wb" if isinstance(data, bytes) else "w") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise CliError(f"cannot write {path}: {e.strerror}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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
    rec = play(mod, config, names, seed)
    if args.record:
        write_atomic(args.record, rec.to_json())
    print(f"{mod.TITLE}, seed {seed}, rules: {config.describe()}")
    _print_record(rec)
    if args.record:
        print(f"Record saved to {args.record}")
    return 0


def cmd_replay(args) -> int:
    path = Path(args.file)
    try:
        text = path.read_text()
    except OSError as e:
        raise CliError(f"cannot read {path}: {e.strerror}") from None
    try:
        rec = replay(text)
    except ValueError as e:
        raise CliError(f"{path}: {e}") from None
    mod = game_module(rec.game)
    print(f"{mod.TITLE}, seed {rec.seed}, rules: {rec.config.describe()}")
    _print_record(rec)
    return 0


def cmd_rules(args) -> int:
    """List a game's parameters, defaults and presets."""
    try:
        mod = game_module(args.game)
    except ValueError as e:
        raise CliError(str(e)) from None
    base = mod.Config()
    print(f"{mod.TITLE} parameters (set with --set FIELD=VALUE):")
    for name, value in base.to_dict().items():
        print(f"  {name} = {value}")
    print("Presets: " + ", ".join(mod.Config.presets()))
    print("Bots: " + ", ".join(mod.BOTS))
    return 0


def cmd_duel(args) -> int:
    """One bot against another in every other seat, seat-balanced, with a CI."""
    from .bots import head_to_head

    if "," in args.others:
        raise CliError(f"--others takes one bot name (it sits in every other seat), got {args.others!r}")
    args.bots = args.others
    mod, config, _ = game_setup(args)
    try:
        resolve_bots(mod, [args.bot], 1)  # validates the name
    except ValueError as e:
        raise CliError(str(e)) from None
    if args.games < 1:
        raise CliError(f"--games must be at least 1, got {args.games}")
    r = head_to_head(mod, config, args.bot, args.others, args.games, parse_seed(args.seed))
    low, high = r["ci95"]
    print(
        f"{mod.TITLE} ({config.describe()}): {args.bot} vs {args.others} x{config.players - 1}, "
        f"{args.games} games, seat-balanced: win share {r['win_share']:.3f} "
        f"(95% CI {low:.3f}-{high:.3f}; fair share {r['fair_share']:.3f})"
    )
    return 0


def scrub_notebook(text: str, name: str = "notebook") -> tuple[str, int]:
    """A notebook's JSON with every cell tagged "solution" removed (and outputs cleared)."""
    import json

    try:
        nb = json.loads(text)
        cells = nb["cells"]
    except (ValueError, KeyError, TypeError):
        raise CliError(f"{name} is not a notebook (no JSON with a 'cells' list)") from None
    kept = [c for c in cells if "solution" not in c.get("metadata", {}).get("tags", [])]
    for c in kept:
        if c.get("cell_type") == "code":
            c["outputs"], c["execution_count"] = [], None
    nb["cells"] = kept
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n", len(cells) - len(kept)


def cmd_scrub(args) -> int:
    """Copy lessons for students: the cells tagged "solution" are left out."""
    src, out = Path(args.lessons), Path(args.out)
    if not src.is_dir():
        raise CliError(f"{src} is not a folder of notebooks")
    books = sorted(src.glob("*.ipynb"))
    if not books:
        raise CliError(f"{src} holds no .ipynb notebooks")
    if out.resolve() == src.resolve():
        raise CliError("the student copy must go to another folder than the lessons")
    scrubbed = [(b, *scrub_notebook(b.read_text(), b.name)) for b in books]  # all checked before writing
    out.mkdir(parents=True, exist_ok=True)
    for book, text, removed in scrubbed:
        write_atomic(out / book.name, text)
        print(f"{book.name}: {removed} solution cell(s) removed")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="meeple", description="Play, replay and study four small tabletop games.")
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
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--seed", default="0")
    p.add_argument("--preset", default=None)
    p.add_argument("--set", dest="settings", action="append", default=[], metavar="FIELD=VALUE")
    p.set_defaults(func=cmd_duel)

    p = sub.add_parser("scrub", help="copy the lessons for students, without the cells tagged 'solution'")
    p.add_argument("lessons", help="folder of lesson notebooks")
    p.add_argument("out", help="folder for the student copies")
    p.set_defaults(func=cmd_scrub)

    p = sub.add_parser("rules", help="list a game's parameters, presets and bots")
    p.add_argument("game")
    p.set_defaults(func=cmd_rules)

    from .sim_cli import register  # simulate, sweep, balance

    register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return args.func(args)
    except CliError as e:
        print(f"meeple: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("meeple: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
