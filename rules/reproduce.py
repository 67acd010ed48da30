"""What a shared comparison carries to be reproduced: the package version, the chance stream's
fingerprint and the `meeple compare` command (issue 25). Standard library only: the report
(widgets/report.py), the CLI and the site's variant lab (widgets/lab.py, in the browser) use
these same functions.

There is no chance version constant: `chance_fingerprint()` hashes the stream itself (game
seeds, a die roll, a 55-card shuffle), so two installs with the same fingerprint deal the
same games from a seed, whatever their package versions say.
"""

from __future__ import annotations

import dataclasses
import hashlib
import shlex
from importlib import metadata

from .chance import Chance, derive


def package_version() -> str:
    try:
        return metadata.version("meeple")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def chance_fingerprint() -> str:
    """A short hash of the chance stream every game is dealt from (game seeds, a die roll, a
    55-card shuffle): two installs with the same fingerprint deal the same games from a seed."""
    parts = [derive(seed, "game", i) for seed in (0, 1) for i in range(4)]
    deck, nxt = Chance(1).shuffled(range(55))
    roll, _ = nxt.below(6)
    text = ",".join(map(str, parts + deck + [roll]))
    return "splitmix64-" + hashlib.sha256(text.encode()).hexdigest()[:16]


def settings_text(config) -> str:
    """NAME:field=value,... text for --variant: every field that differs from the defaults, uncut."""
    from .sim.text import show_value as _show_value

    base = type(config)()
    out = []
    for f in dataclasses.fields(config):
        v = getattr(config, f.name)
        if v != getattr(base, f.name):
            shown = "none" if v is None else ("true" if v is True else "false" if v is False else _show_value(v))
            out.append(f"{f.name}={shown}")
    return ",".join(out)


def command_for(cmp) -> str:
    """The `meeple compare` command that plays the same games and prints the same figures
    (`cmp`: a workbench Comparison)."""
    a = cmp.table.attrs
    return compare_command(a["game"], cmp.configs, tuple(cmp.results[a["baseline"]].bots), a["games"], a["seed"],
                           rotate=a.get("rotate", False), by=a.get("by", "seat"), measures=a.get("measures", []))


def compare_command(game: str, configs: dict, bots: tuple, games: int, seed: int, *, rotate: bool = False,
                    by: str = "seat", measures=()) -> str:
    """`meeple compare GAME --variant NAME:... ...` for {name: Config} (the baseline first) and the
    bots of the baseline's seats (the CLI fits one name to every variant's player count)."""
    argv = ["meeple", "compare", game]
    for name, config in configs.items():
        argv += ["--variant", f"{name}:{settings_text(config)}"]
    argv += ["--bots", bots[0] if len(set(bots)) == 1 else ",".join(bots)]
    argv += ["--games", str(games), "--seed", str(seed)]
    if rotate:
        argv.append("--rotate")
    if by != "seat":
        argv += ["--by", by]
    for m in measures:
        argv += ["--measure", m.removeprefix("mean_")]
    return shlex.join(argv)


class StampWarning(UserWarning):
    """A shared variant (link, file, report) was made with another meeple or another chance stream."""


def stamp_warnings(version: str | None, chance: str | None, what: str) -> list[str]:
    """One line per way a shared variant may not replay here (`what`: "link", "variant file", ...)."""
    out = []
    here_version, here_chance = package_version(), chance_fingerprint()
    if chance is not None and chance != here_chance:
        out.append(f"this {what} was made with the chance stream {chance}; this meeple deals {here_chance}: "
                   "the same seeds give other games here, so the figures will differ.")
    if version is None:
        out.append(f"this {what} names no meeple version: it may come from another version ({here_version} here).")
    elif version != here_version:
        out.append(f"this {what} was made with meeple {version}; this is meeple {here_version}: the rules or bots "
                   "may have changed, so the figures may differ.")
    return out
