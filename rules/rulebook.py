"""A game's rules as shipped: what `meeple rules GAME` prints, and this meeple's version.

The wheel carries every game's numbered rules (`meeple.rules.seeds`, from seeds/), read with
importlib.resources, so a reader who ran `pip install meeple` has them without a clone.
"""

from __future__ import annotations

import re
import textwrap
from importlib import metadata, resources
from types import ModuleType

from .core import parameter_info
from .registry import GAMES
from .sim.text import value_text

RULE_LINE = re.compile(r"^\s*[-*]\s+\*\*([A-Z]+-\d+)\*\*\s*(.*)$")


class UnknownRule(ValueError):
    """`--rule` names no rule of the game: one line naming what it got and what the game has."""


def version() -> str:
    """This meeple's version, from the installed package's metadata."""
    try:
        return metadata.version("meeple")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


# --- the rule text -------------------------------------------------------------------

def rules_text(mod: ModuleType) -> str:
    """The game's rules file as shipped (seeds/<game>.md in the source tree)."""
    return (resources.files("meeple.rules.seeds") / f"{mod.__name__.rsplit('.', 1)[1]}.md").read_text(encoding="utf-8")


def numbered_rules(text: str) -> dict[str, str]:
    """{"BB-1": "The deck has 55 cards ...", ...} in the order of the file."""
    rules = {}
    for line in text.splitlines():
        m = RULE_LINE.match(line)
        if m:
            rules[m.group(1)] = m.group(2).strip()
    return rules


def _section(text: str, title: str) -> str:
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    return m.group(1) if m else ""


def judgement_calls(text: str, rule: str) -> list[str]:
    """The numbered judgement calls that name `rule`, each as one paragraph."""
    items, current = [], None
    for line in _section(text, "Judgement calls").splitlines():
        if re.match(r"^\d+\.\s", line):
            current = [line.strip()]
            items.append(current)
        elif current is not None and line.strip():
            current.append(line.strip())
        else:
            current = None
    named = re.compile(rf"(?<![\w-]){re.escape(rule)}(?!\d)")
    return [" ".join(i) for i in items if named.search(" ".join(i))]


def _plain(text: str) -> str:
    """Markdown emphasis and code marks dropped, for a terminal."""
    return re.sub(r"\*\*(.+?)\*\*|\*(.+?)\*|`(.+?)`", lambda m: next(g for g in m.groups() if g is not None), text)


def _wrapped(head: str, body: str, indent: int = 2) -> str:
    return textwrap.fill(f"{head} {_plain(body)}", width=100, initial_indent=" " * indent,
                         subsequent_indent=" " * (indent + len(head) + 1), break_on_hyphens=False)


def print_rules(mod: ModuleType, rule: str | None = None, full: bool = False) -> None:
    """`meeple rules GAME`'s rule text: every numbered rule, one (`--rule BB-8`) or the whole file."""
    text = rules_text(mod)
    if full:
        print(text, end="" if text.endswith("\n") else "\n")
        return
    rules = numbered_rules(text)
    ids = list(rules)
    if rule is None:
        print(f"{mod.TITLE}: the rules as meeple plays them ({ids[0]} to {ids[-1]}; the whole text with "
              f"judgement calls and bots: meeple rules {mod.NAME} --full)")
        for rid, body in rules.items():
            print(_wrapped(rid, body))
        return
    wanted = rule.strip().upper()
    if not re.fullmatch(r"[A-Z]+-\d+", wanted):
        raise UnknownRule(f"--rule takes a rule number such as {ids[7 if len(ids) > 7 else 0]}, got {rule!r}")
    if wanted not in rules:
        prefix = ids[0].split("-")[0]
        other = ""
        if wanted.split("-")[0] != prefix:
            owner = next((m for m in GAMES.values() if numbered_rules(rules_text(m)).get(wanted)), None)
            if owner is not None:
                other = f"; {wanted} is {owner.TITLE}'s: meeple rules {owner.NAME} --rule {wanted}"
        raise UnknownRule(f"{mod.TITLE} has no rule {rule.strip()!r}: its rules are {ids[0]} to {ids[-1]}{other}")
    print(_wrapped(wanted, rules[wanted], indent=0))
    cites = re.compile(rf"(?<![\w-]){re.escape(wanted)}(?!\d)")
    aliases = list(mod.Config.aliases()) if hasattr(mod.Config, "aliases") else []
    params = [n for n in [*mod.Config.field_types(), *aliases] if cites.search(parameter_info(mod, n)[1])]
    if params:
        base = mod.Config()
        print("Its numbers (--set NAME=VALUE): " + ", ".join(f"{p} (now {value_text(base.get(p))})" for p in params))
    calls = judgement_calls(text, wanted)
    if calls:
        print(f"Judgement calls about {wanted}:")
        for call in calls:
            number, _, body = call.partition(" ")
            print(_wrapped(number, body))
