"""The stamp a shared variant carries (link, variant file, report): the package version and
the chance stream's fingerprint, and the warnings when they differ from this install's.
Standard library only; `config` (reading a variant file) and `reproduce` use it.

`chance_fingerprint()` hashes the stream of the chance version new games are dealt from
(`chance.CHANCE`: game seeds, a die roll, a 55-card shuffle), so two installs with the same
fingerprint deal the same games from a seed, whatever their package versions say.
"""

from __future__ import annotations

import hashlib
from importlib import metadata

from .chance import CHANCE, game_seed, start
from .files import shown_path

__all__ = ["package_version", "chance_fingerprint", "StampWarning", "stamp_warnings"]


def package_version() -> str:
    try:
        return metadata.version("meeple")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def chance_fingerprint() -> str:
    """A short hash of the chance stream every game is dealt from (game seeds, a die roll, a
    55-card shuffle): two installs with the same fingerprint deal the same games from a seed."""
    parts = [game_seed(seed, i) for seed in (0, 1) for i in range(4)]
    deck, nxt = start(1).shuffled(range(55))
    roll, _ = nxt.below(6)
    text = ",".join(map(str, parts + deck + [roll]))
    name = "splitmix64-" if CHANCE == 1 else f"chance{CHANCE}-mt19937-"  # version 1's name as it was
    return name + hashlib.sha256(text.encode()).hexdigest()[:16]


class StampWarning(UserWarning):
    """A shared variant (link, file, report) was made with another meeple or another chance stream."""


def stamp_warnings(version: str | None, chance: str | None, what: str) -> list[str]:
    """One line per way a shared variant may not replay here (`what`: "link", "variant file", ...)."""
    out = []
    here_version, here_chance = package_version(), chance_fingerprint()
    # what a file or link says is echoed cut and printable: a terminal escape in it must not act on the
    # reader's terminal, nor a megabyte of it fill the warning (issue 33)
    shown = {"version": shown_path(version, 60), "chance": shown_path(chance, 80)}
    if chance is not None and chance != here_chance:
        out.append(f"this {what} was made with the chance stream {shown['chance']}; this meeple deals {here_chance}: "
                   "the same seeds give other games here, so the figures will differ.")
    if version is None:
        out.append(f"this {what} names no meeple version: it may come from another version ({here_version} here).")
    elif version != here_version:
        out.append(f"this {what} was made with meeple {shown['version']}; this is meeple {here_version}: the rules or bots "
                   "may have changed, so the figures may differ.")
    return out
