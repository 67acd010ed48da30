"""The `meeple` command line. Every command, and the module that holds it:

  play        one game with bots, printed turn by turn (--record FILE.json)   game.py
  replay      a saved game record, replayed and printed                        game.py
  duel        one bot against another, seat-balanced, with a 95% CI            game.py
  rules       a game's numbered rules, its parameters, presets and bots        game.py
  simulate    many games: win rates and scores with 95% CIs (--out a table)    sim.py
  sweep       a grid of rule values, one table                                 sim.py
  balance     seat advantage, length, decisiveness, point sources, skill       sim.py
  compare     variants side by side on the same game seeds (paired CIs)        workbench.py
  report      compare, written as one self-contained HTML file                 workbench.py
  check-report  does this install deal the games a report was made from?       workbench.py
  tune        the value of one or two numbers that brings a measure to a target  workbench.py
  variant     save a variant file (variant save), or show one (variant show)   workbench.py
  scrub       student copies of the lessons, without the solution cells        meeple.course.cli
  lessons     the course copied out of the package into a folder               meeple.course.cli
  answers     the teacher's answer key for a class (needs its key, --key)     meeple.course.cli
  class new   a class's secret key and each student's code, from a roster     meeple.course.cli
  grade       submitted notebooks re-checked: a gradebook CSV and feedback    meeple.course.cli

Every command module imports `common` (the one-line CliError, game options, output
files) and adds its commands in `register(sub)`; `build_parser` calls each. The course's
commands live in the course package (meeple.course.cli), which `build_parser` imports when it
runs: meeple.rules never imports the course at module level. Bad input
ends with one line on stderr and exit status 2, never a traceback; Ctrl-C prints what
finished and exits with 130; files are written whole or not at all.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading

from ..chance import CHANCE
from ..extras import MissingExtra
from ..files import FileError, drop_staged
from ..rulebook import version
from ..sim.runner import drop_pool
from . import game, sim, workbench
from .common import (EXIT_BROKEN_PIPE, EXIT_INTERRUPTED, EXIT_TERMINATED, EXIT_USAGE, SIGNALLED, CliError, Parser,
                     Terminated)

__all__ = ["main", "build_parser"]

COMMAND_MODULES = (game, sim, workbench)
"""The modules whose `register(sub)` adds their commands, in the order `meeple --help` lists them
(the course's commands, meeple.course.cli, come last)."""


def build_parser() -> argparse.ArgumentParser:
    """The `meeple` parser with every command of COMMAND_MODULES."""
    parser = Parser(prog="meeple", description="Play, replay and study four small tabletop games.")
    parser.add_argument("--version", action="version", version=f"meeple {version()} (chance {CHANCE}: the records it writes carry it)")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for module in COMMAND_MODULES:
        module.register(sub)
    from meeple.course import cli as course_cli  # the course package: its commands (lessons, answers, scrub, ...)

    course_cli.register(sub)
    return parser


def _first_signal(signum, frame):
    """Ctrl-C or SIGTERM: stop the work, keep what finished (a KeyboardInterrupt; SIGTERM's is
    a Terminated, exit 143); from now on one more of either ends the process at once."""
    SIGNALLED.append(signum)
    for sig in HANDLED:
        if signal.getsignal(sig) is _first_signal:
            signal.signal(sig, _second_signal)
    raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def _second_signal(signum, frame):
    """A second Ctrl-C (or SIGTERM): end now, quietly; only the temp file of a file being
    written is removed (what was saved before stays saved)."""
    drop_staged()
    os._exit(128 + signum)


HANDLED = (signal.SIGINT, signal.SIGTERM)


def main(argv: list[str] | None = None) -> int:
    """Run the `meeple` command with `argv` (default: sys.argv[1:]); the exit status."""
    SIGNALLED.clear()
    # each signal a shell has not set to be ignored (a background job ignores Ctrl-C, nohup SIGHUP) is
    # handled below from here on; signal handlers belong to the main thread
    main_thread = threading.current_thread() is threading.main_thread()
    old = {sig: signal.signal(sig, _first_signal) for sig in HANDLED
           if main_thread and signal.getsignal(sig) is not signal.SIG_IGN}
    try:
        code = _main(argv)
    except KeyboardInterrupt:  # the very end of _main, after its own handlers
        code = _signalled("")
    finally:
        if argv is not None:  # called from Python (a test): leave its handlers as they were
            for sig, handler in old.items():
                signal.signal(sig, handler)
    if SIGNALLED and argv is None:
        # The command line after a signal: everything finished is printed and saved, and a pool
        # that was running is killed. Python's own exit would still wait for the threads of
        # that pool (one stuck for ever cost a hung terminal, issue 33): end now instead.
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        drop_pool(wait=False, kill=True)
        os._exit(code)
    return code


def _signalled(text: str) -> int:
    """Say a signal stopped the command (`text` before it, if any); its exit status (130 or 143)."""
    terminated = signal.SIGTERM in SIGNALLED
    print(f"meeple: {'terminated (SIGTERM)' if terminated else 'interrupted'}{text}", file=sys.stderr)
    return EXIT_TERMINATED if terminated else EXIT_INTERRUPTED


def _main(argv) -> int:
    try:
        args = build_parser().parse_args(argv)
        code = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
        return code
    except (CliError, FileError, MissingExtra) as e:  # a missing extra: one line naming `pip install 'meeple[...]'`
        print(f"meeple: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return _signalled("")
    except BrokenPipeError:
        # the reader (`| head`) has gone: stop quietly, as Unix tools do; point stdout at
        # /dev/null so Python's own flush at exit does not complain again
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return EXIT_BROKEN_PIPE
