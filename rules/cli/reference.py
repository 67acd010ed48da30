"""The command reference page of the course site (lessons/commands.md), written from the
`meeple` parser itself, so it says what `meeple COMMAND --help` says: every command, each
argument with its help text. `python -m meeple.rules.cli.reference --write lessons/commands.md`
writes it; tests/test_readme_links.py checks that the page in the repository is the current one.
The tables are made from the parser's arguments, not from argparse's help text, whose wrapping
changes with the terminal's width and the Python version.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import build_parser

HEAD = """# Command reference

Every `meeple` command and its arguments, as `meeple COMMAND --help` gives them. This page is
written from the command's own parser (`python -m meeple.rules.cli.reference --write
lessons/commands.md`; a test checks it is current). Bad input to any command ends with one line
naming what is wrong and exit status 2; Ctrl-C prints what finished and exits with 130.
"""


def _help(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    """An argument's help with its %(default)s filled in, as --help shows it, on one line."""
    if not action.help or action.help == argparse.SUPPRESS:
        return ""
    text = parser._get_formatter()._expand_help(action)  # argparse's own filling of %(...)s
    return " ".join(text.split()).replace("|", "\\|")


def _name(action: argparse.Action) -> str:
    if not action.option_strings:
        return (action.metavar or action.dest).upper() if isinstance(action.metavar or action.dest, str) else action.dest
    flags = ", ".join(action.option_strings)
    if action.nargs == 0:
        return flags
    meta = action.metavar or action.dest.upper()
    return f"{flags} {' '.join(meta) if isinstance(meta, tuple) else meta}"


def _commands(parser: argparse.ArgumentParser):
    """(subparsers action, {name: (help, parser)}) of a parser with commands, else (None, {})."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: (a.help or "").replace("%%", "%") for a in action._choices_actions}
            return action, {name: (helps.get(name, ""), p) for name, p in action.choices.items()}
    return None, {}


def _section(words: str, summary: str, parser: argparse.ArgumentParser, depth: int) -> list[str]:
    out = [f"{'#' * depth} `{words}`", ""]
    if summary:
        out += [summary[0].upper() + summary[1:] + ("" if summary.endswith(".") else "."), ""]
    if parser.description and parser.description != summary:
        out += [" ".join(parser.description.split()), ""]
    rows = [(_name(a), _help(parser, a)) for a in parser._actions
            if not isinstance(a, (argparse._HelpAction, argparse._SubParsersAction)) and a.help != argparse.SUPPRESS]
    if rows:
        out += ["| argument | what it takes |", "|---|---|"]
        out += [f"| `{name}` | {text} |" for name, text in rows]
        out.append("")
    if parser.epilog:
        out += [" ".join(parser.epilog.split()), ""]
    _, subs = _commands(parser)
    for name, (summary_, sub) in subs.items():
        out += _section(f"{words} {name}", summary_ or "", sub, depth + 1)
    return out


def reference_markdown(parser: argparse.ArgumentParser | None = None) -> str:
    """The command reference page (Markdown) of `parser` (default: the `meeple` command's)."""
    parser = parser or build_parser()
    _, commands = _commands(parser)
    out = [HEAD, "| command | what it does |", "|---|---|"]
    out += [f"| [`meeple {name}`](#meeple-{name}) | {text} |" for name, (text, _) in commands.items()]
    out.append("")
    for name, (text, sub) in commands.items():
        out += _section(f"meeple {name}", text or "", sub, 2)
    return "\n".join(out).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    text = reference_markdown()
    if args[:1] == ["--write"] and len(args) == 2:
        Path(args[1]).write_text(text, encoding="utf-8")
    elif not args:
        sys.stdout.write(text)
    else:
        print("usage: python -m meeple.rules.cli.reference [--write FILE.md]", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
