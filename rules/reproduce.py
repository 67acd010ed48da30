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
import shlex

from .config import show_value
from .stamp import StampWarning, chance_fingerprint, package_version, stamp_warnings

__all__ = ["settings_text", "command_for", "compare_command", "StampWarning", "chance_fingerprint",
           "package_version", "stamp_warnings"]


def settings_text(config) -> str:
    """NAME:field=value,... text for --variant: every field that differs from the defaults, uncut."""
    base = type(config)()
    out = []
    for f in dataclasses.fields(config):
        v = getattr(config, f.name)
        if v != getattr(base, f.name):
            shown = "none" if v is None else ("true" if v is True else "false" if v is False else show_value(v))
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
    if len(set(bots)) > 1 and not rotate:  # compare rotates different bots unless told not to
        argv.append("--no-rotate")
    elif rotate and len(set(bots)) == 1:
        argv.append("--rotate")
    if by != "seat":
        argv += ["--by", by]
    for m in measures:
        argv += ["--measure", m.removeprefix("mean_")]
    return shlex.join(argv)


