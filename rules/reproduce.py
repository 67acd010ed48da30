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
import re
import shlex
import unicodedata

from .config import settings_list, show_value
from .stamp import StampWarning, chance_fingerprint, package_version, stamp_warnings

__all__ = ["settings_text", "command_for", "compare_command", "VARIANT_NAME", "NAME_RULE", "cli_name", "StampWarning", "chance_fingerprint",
           "package_version", "stamp_warnings"]


VARIANT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._ +-]*")
"""A variant name `meeple compare --variant NAME:...` and `meeple variant save` take."""

NAME_RULE = "use ASCII letters (A-Z, a-z), digits, '.', '_', '-', '+' and spaces, starting with a letter or digit"


def cli_name(name: str, taken=()) -> str:
    """`name` if the command line takes it (VARIANT_NAME), else the nearest name it takes, unlike
    any in `taken`: 'Größere Pyramide' -> 'Groessere Pyramide', 'a:b' -> 'a-b'. A printed
    command must run (issue 33); a shell-quoted name the CLI refuses would not."""
    if isinstance(name, str) and VARIANT_NAME.fullmatch(name) and name not in taken:
        return name
    text = str(name).replace("ß", "ss").replace("ä", "ae").replace("ö", "oe").replace("ü", "ue")
    text = text.replace("Ä", "Ae").replace("Ö", "Oe").replace("Ü", "Ue")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^A-Za-z0-9._ +-]+", "-", text).strip(" ._+-")[:60].strip(" ._+-") or "variant"
    out, n = text, 1
    while out in taken:
        n += 1
        out = f"{text}-{n}"
    return out


def settings_text(config, base=None) -> str:
    """NAME:field=value,... text for --variant: every field that differs from `base` (default: the
    rules' defaults; a command with --set passes the common rules those make), uncut."""
    base = type(config)() if base is None else base
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
                           rotate=a.get("rotate", False), by=a.get("by", "seat"), measures=a.get("measures", []),
                           common=getattr(cmp, "common", None))


def compare_command(game: str, configs: dict, bots: tuple, games: int, seed: int, *, rotate: bool = False,
                    by: str = "seat", measures=(), common=None) -> str:
    """`meeple compare GAME --variant NAME:... ...` for {name: Config} (the baseline first) and the
    bots of the baseline's seats (the CLI fits one name to every variant's player count). A name
    the CLI refuses is replaced by the nearest one it takes (cli_name), so the command always runs.
    `common`: the common rules every variant started from (compare's config=, the lab's common
    numbers): each number they change is a --set, and each variant names what differs from them
    (the CLI's rule, issue 33: the common rules are every variant's start, its own fields win)."""
    argv = ["meeple", "compare", game]
    taken: list[str] = []
    if common is not None:
        for piece in settings_list(settings_text(common)):
            argv += ["--set", piece]
    for name, config in configs.items():
        taken.append(cli_name(name, taken))
        argv += ["--variant", f"{taken[-1]}:{settings_text(config, common)}"]
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


