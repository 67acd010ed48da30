"""Shared machinery for game configs: strict validation, text and JSON parsing.

Every game's `Config` is a frozen dataclass that inherits `RuleConfig`.
User text (a CLI `--set`, a widget value, a saved record) is parsed by the
field's annotated type, never `eval`ed; anything else is a clear ValueError.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import sys
import tomllib
import types
import warnings
import typing
from pathlib import Path
from typing import Any, Callable, Mapping, NamedTuple

from .files import read_capped, shown_path, write_atomic
from .stamp import StampWarning, stamp_warnings


def need(ok: bool, field: str, value: Any, allowed: str) -> None:
    """Raise ValueError naming the field, the value and what is allowed."""
    if not ok:
        raise ValueError(f"{field}={_show(value)} is not allowed: {allowed}")


def need_range(config, field: str, low, high, unit: str = "") -> None:
    """ValueError unless config.<field> is from low to high (types are already checked)."""
    value = getattr(config, field)
    need(low <= value <= high, field, value, f"{low} to {high}{unit}")


def need_seats(config, field: str, low: int, high: int, unit: str) -> None:
    """A per-seat handicap (`seat_points`, `seat_spaces`, `seat_cards`): empty (no handicap) or one
    whole number per seat, Player 1 first, each from low to high; all zeros is stored as empty."""
    value, n = getattr(config, field), config.players
    need(not value or (len(value) == n and all(low <= v <= high for v in value)), field, value,
         f"empty (no handicap) or {n} numbers, one per seat with Player 1 first, each {low} to {high}{unit}")
    if value and not any(value):  # a 0 for every seat is no handicap: one config, one record, one hash
        object.__setattr__(config, field, ())


SEAT_HANDICAPS = ("seat_points", "seat_spaces", "seat_cards")  # per-seat fields where empty means 0 each


def _filled(values: dict, field: str) -> Any:
    """A field's value to reach into by `field[i]`: an empty per-seat handicap reads as one 0 per
    seat, so `seat_points[3]` can be set, varied and tuned from a config with no handicap."""
    value = values[field]
    if field in SEAT_HANDICAPS and not value and "players" in values:
        return (0,) * values["players"]
    return value


def seat_values(config, field: str) -> tuple[int, ...]:
    """A per-seat handicap with one entry per seat: empty means 0 for every seat."""
    return getattr(config, field) or (0,) * config.players


def _show(value: Any) -> str:
    """A value as --set takes it (and `meeple rules` prints it): 15,13,11; 5,4/3,2 for a table of rows."""
    if isinstance(value, tuple):
        if value and all(isinstance(v, tuple) for v in value):
            return _cut("/".join(",".join(_show(x) for x in v) for v in value), 120)
        return _cut(",".join(_show(v) for v in value), 120) if value else "(empty)"
    if isinstance(value, bool):
        return "true" if value else "false"
    return _cut(str(value))


WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")  # ASCII digits only, as --set and every option read them
DECIMAL_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def show_setting(value: Any) -> str:
    """A rule's value as `--set` takes it and `meeple rules` prints it (true, 15,13,11, none)."""
    return _show(value)


def show_value(v) -> Any:
    """Tuples as the text `--set`/`--vary` take: 0,-1,2 (and 5,4/3,2 for tuples of tuples)."""
    if isinstance(v, tuple):
        if v and isinstance(v[0], tuple):
            return "/".join(show_value(x) for x in v)
        return ",".join("true" if x is True else "false" if x is False else str(x) for x in v)
    return v


def _cut(text: str, most: int = 60) -> str:
    """Long text shortened for a one-line message."""
    return text if len(text) <= most else text[:40] + "..." + text[-15:]


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def _parse_scalar(kind: type, text: str, field: str) -> Any:
    text = text.strip()
    if kind is bool:
        low = text.lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise ValueError(f"{field}: {text!r} is not true/false")
    if kind is int:
        # ASCII digits only: int() would also take '3_0' (30) and other scripts' digits
        if not WHOLE_NUMBER.fullmatch(text):
            raise ValueError(f"{field}: {_cut(text)!r} is not a whole number")
        if len(text.lstrip("+-")) > 30:  # no rule number is this long (and int() stops at 4,300 digits)
            raise ValueError(f"{field}: {_cut(text)!r} is far too large")
        return int(text, 10)
    if kind is float:
        if not DECIMAL_NUMBER.fullmatch(text):
            raise ValueError(f"{field}: {_cut(text)!r} is not a number")
        value = float(text)
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{field}: {text!r} is not a finite number")
        return value
    if kind is str:
        if not text:
            raise ValueError(f"{field}: empty text")
        return text
    raise TypeError(f"unsupported field type {kind!r}")


def split_optional(hint: Any) -> tuple[Any, bool]:
    """(inner type, allows None) for `X | None`."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1 and len(typing.get_args(hint)) == 2:
            return args[0], True
        raise TypeError(f"unsupported union {hint!r}")
    return hint, False


def parse_text(hint: Any, text: str, field: str, none_means: str = "none") -> Any:
    """Parse user text for a field of type `hint`.

    Tuples are comma separated (`0,-1,-1,2`); tuples of tuples use `/`
    between the inner tuples (`1,1,2/2,3`). `none` means None where allowed.
    An empty value is refused (`max_rerolls=` is not none), but for a tuple of
    any length, where it is the empty tuple (`seat_points=`: no handicap);
    `none_means` words what none stands for in that message ("no limit").
    """
    hint, optional = split_optional(hint)
    args = typing.get_args(hint) if typing.get_origin(hint) is tuple else ()
    any_length = len(args) == 2 and args[1] is Ellipsis
    if not text.strip() and not any_length:
        # Never read as none or a default: a shell variable that happens to be empty (`--set max_rerolls=$N`)
        # silently removed a limit. A tuple of any length keeps '' as its empty tuple: show_value writes it
        # so (`seat_points=`: no handicap), and it has no other spelling.
        kind = (f"{len(args)} comma-separated values" if args else "one of the names the rules allow" if hint is str
                else describe_kind(hint))
        raise ValueError(f"empty value for {field}: write " + (f"{field}=none for {none_means}, or " if optional else "")
                         + kind)
    if optional and text.strip().lower() == "none":
        return None
    if typing.get_origin(hint) is tuple:
        inner = args[0]
        if not text.strip():
            return ()
        if typing.get_origin(inner) is tuple:
            return tuple(parse_text(inner, part, field) for part in text.split("/"))
        parts = text.split(",")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_parse_scalar(inner, p, field) for p in parts)
        if len(parts) != len(args):
            raise ValueError(f"{field}: needs {len(args)} comma-separated values, got {text!r}")
        return tuple(_parse_scalar(k, p, field) for k, p in zip(args, parts))
    return _parse_scalar(hint, text, field)


def from_json_value(hint: Any, value: Any, field: str) -> Any:
    """Check a JSON value against the field type (lists become tuples)."""
    hint, optional = split_optional(hint)
    if value is None:
        if optional:
            return None
        raise ValueError(f"{field}: null is not allowed")
    if typing.get_origin(hint) is tuple:
        if not isinstance(value, list):
            raise ValueError(f"{field}: expected a list, got {type(value).__name__}")
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_json_value(args[0], v, field) for v in value)
        if len(value) != len(args):
            raise ValueError(f"{field}: expected {len(args)} values, got {len(value)}")
        return tuple(from_json_value(k, v, field) for k, v in zip(args, value))
    if hint is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if hint is int and isinstance(value, bool) or not isinstance(value, hint):
        if optional:  # a file writes none as JSON's null; TOML has no null, so no TOML file can hold it
            raise ValueError(f"{field}: expected {hint.__name__} or null (none: JSON's null; TOML has no none, write "
                             f"the variant as .json), got {value!r}")
        raise ValueError(f"{field}: expected {hint.__name__}, got {value!r}")
    return value


def to_json_value(value: Any) -> Any:
    if isinstance(value, tuple):
        return [to_json_value(v) for v in value]
    return value


def _type_ok(hint: Any, value: Any) -> bool:
    hint, optional = split_optional(hint)
    if value is None:
        return optional
    if typing.get_origin(hint) is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_type_ok(args[0], v) for v in value)
        return len(value) == len(args) and all(_type_ok(k, v) for k, v in zip(args, value))
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint)


def describe_kind(hint: Any) -> str:
    """What a field of type `hint` holds, in words: "a whole number", "a tuple of 3 values or none"."""
    hint, optional = split_optional(hint)
    if typing.get_origin(hint) is tuple:
        args = typing.get_args(hint)
        inner = describe_kind(args[0])
        text = f"a tuple of {inner}" if len(args) == 2 and args[1] is Ellipsis else f"a tuple of {len(args)} values"
    else:
        text = {int: "a whole number", float: "a number", bool: "true or false", str: "text"}.get(hint, str(hint))
    return text + (" or none" if optional else "")


def check_types(config) -> None:
    """Every field holds a value of its annotated type (lists are taken as tuples).

    Text and JSON are parsed strictly elsewhere; this catches configs built
    in Python, e.g. `Config(bonus=True)` or `Config(bonus="3")`.
    """
    for name, hint in type(config).field_types().items():
        value = getattr(config, name)
        if isinstance(value, list):  # a list from a notebook is a tuple to us
            value = _tupled(value)
            object.__setattr__(config, name, value)
        if not _type_ok(hint, value):
            raise ValueError(f"{name}={value!r} is not allowed: {describe_kind(hint)}")


def _plain(value):
    """A numpy number or array (from a table or np.arange) as the Python value it holds."""
    if isinstance(value, (tuple, list, str, bytes)) or not hasattr(value, "item"):
        return value
    return value.tolist() if getattr(value, "ndim", 0) else value.item()


def _tupled(value):
    return tuple(_tupled(v) for v in value) if isinstance(value, (list, tuple)) else value


# --- parameter paths and aliases ----------------------------------------------
#
# Every number of a config is addressable by name: a field (`bonus`), an
# element of a tuple field (`hand_sizes[1]`, `pyramid_rows[2][0]`), or an
# alias a game declares for a number the rules derive (Bucket Brigade's
# `hand_size`: the hand for the configured player count). with_text,
# with_values, sweep, the Explorer and the CLI all go through here.

_PATH = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)((?:\[[0-9]{1,6}\])*)")


@dataclasses.dataclass(frozen=True)
class Alias:
    """A designer's name for a number of the rules that is not a field itself.

    `path(config)` gives the element it stands for in that config (e.g.
    "hand_sizes[1]" when players=4); or, for a number that moves several
    values at once, `get(config)` reads it and `put(config, value)` returns
    {field: new value}. `config` may be a namespace of the field values only
    (no properties), so an alias reads fields, never derived properties.
    """

    doc: str
    path: Callable[[Any], str] | None = None
    get: Callable[[Any], Any] | None = None
    put: Callable[[Any, Any], dict] | None = None
    kind: Any = int


def player_count_alias(field: str, low: int, what: str) -> Alias:
    """An alias for `field[players - low]`: a per-player-count table's entry for the configured count."""
    return Alias(f"{what} for the configured player count ({field}[players - {low}])",
                 path=lambda c: f"{field}[{c.players - low}]")


def split_path(name: str) -> tuple[str, tuple[int, ...]]:
    """("hand_sizes", (1,)) from "hand_sizes[1]"; ValueError if it is not a path."""
    m = _PATH.fullmatch(name.strip()) if isinstance(name, str) else None
    if not m:
        raise ValueError(f"{_cut(str(name))!r} is not a parameter name (a field, field[i] or field[i][j])")
    return m.group(1), tuple(int(i) for i in re.findall(r"[0-9]+", m.group(2)))


def _element_hint(hint: Any, i: int) -> Any:
    hint, _ = split_optional(hint)
    args = typing.get_args(hint)
    if len(args) == 2 and args[1] is Ellipsis:
        return args[0]
    return args[i]


def _is_tuple(hint: Any) -> bool:
    return typing.get_origin(split_optional(hint)[0]) is tuple


def _set_in(value: tuple, indices: tuple[int, ...], new: Any) -> tuple:
    i, rest = indices[0], indices[1:]
    item = _set_in(value[i], rest, new) if rest else new
    return value[:i] + (item,) + value[i + 1:]


class _Target(NamedTuple):
    shown: str  # the name as the reader gave it, with the path an alias stands for
    field: str | None
    indices: tuple[int, ...]
    hint: Any
    alias: Alias | None


class RuleConfig:
    """Mixin for frozen dataclass configs: presets, text and JSON round trips.

    Every subclass's `__post_init__` first checks each field's type, so the
    game's own checks (ranges, combinations) can rely on it.
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("__post_init__")

        def __post_init__(self):
            check_types(self)
            if own is not None:
                own(self)

        cls.__post_init__ = __post_init__

    @classmethod
    def presets(cls) -> dict[str, "RuleConfig"]:
        return {"base": cls()}

    @classmethod
    def field_types(cls) -> dict[str, Any]:
        hints = typing.get_type_hints(cls)
        return {f.name: hints[f.name] for f in dataclasses.fields(cls)}

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON, but an empty seat handicap (issue 40) is left out: a game with none
        is written as it was before the field existed, so records and their hashes stay as they were."""
        return {f.name: to_json_value(getattr(self, f.name)) for f in dataclasses.fields(self)
                if not (f.name in SEAT_HANDICAPS and getattr(self, f.name) == ())}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]):
        if not isinstance(data, Mapping):
            raise ValueError(f"config must be an object of fields, got {type(data).__name__}")
        types_ = cls.field_types()
        odd = [k for k in data if not isinstance(k, str)]
        if odd:
            raise ValueError(f"config field names are text; got {odd[0]!r} ({type(odd[0]).__name__}); "
                             f"allowed: {', '.join(types_)}")
        unknown = sorted(set(data) - set(types_))
        if unknown:
            raise ValueError(
                f"unknown config field(s) {', '.join(unknown)}; allowed: {', '.join(types_)}"
            )
        values = {k: from_json_value(types_[k], v, k) for k, v in data.items()}
        return cls(**values)

    # --- every number by name: fields, field[i], aliases -------------------------

    @classmethod
    def aliases(cls) -> dict[str, Alias]:
        """Names for numbers the rules derive ({name: Alias}); a game's Config adds its own."""
        return {}

    @classmethod
    def game_name(cls) -> str:
        """The game this Config belongs to ("bucket-brigade")."""
        return sys.modules[cls.__module__].NAME

    def _fields(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def _unknown(cls, name) -> str:
        types_ = cls.field_types()
        lists = sorted((f for f, h in types_.items() if _is_tuple(h)), key=lambda f: _element_hint(types_[f], 0) is str)
        text = f"unknown parameter {_cut(str(name))!r}; allowed: {', '.join(types_)}"
        if lists:
            text += f"; an element of a list field, e.g. {lists[0]}[0]"
        if cls.aliases():
            text += f"; or a named number: {', '.join(cls.aliases())}"
        return text

    @classmethod
    def _target(cls, values: Mapping[str, Any], name: Any) -> _Target:
        """What `name` reaches in a config with these field values; ValueError naming what is allowed."""
        if not isinstance(name, str):
            raise TypeError(f"a parameter name must be text such as 'bonus' or 'hand_sizes[1]', got {name!r}")
        name = name.strip()
        alias = cls.aliases().get(name)
        if alias is not None:
            if alias.path is None:
                return _Target(name, None, (), alias.kind, alias)
            path = alias.path(types.SimpleNamespace(**values))
            shown = f"{name} ({path})"
        else:
            path, shown = name, name
        types_ = cls.field_types()
        try:
            field, indices = split_path(path)
        except ValueError:
            raise ValueError(cls._unknown(name)) from None
        if field not in types_:
            raise ValueError(cls._unknown(name))
        hint, value, at = types_[field], _filled(values, field), field
        for i in indices:
            if not isinstance(value, tuple):
                raise ValueError(f"{shown}: {at} is a single value, not a list; set {at} itself")
            if i >= len(value):
                last = f"{at}[{len(value) - 1}]" if value else "none"
                raise ValueError(f"{shown}: index {i} is out of range: {at} has {len(value)} values ({at}[0] to {last})")
            hint, value, at = _element_hint(hint, i), value[i], f"{at}[{i}]"
        return _Target(shown, field, indices, hint, None)

    def get(self, name: str) -> Any:
        """The value of a field, `field[i]` or alias in this config."""
        t = self._target(self._fields(), name)
        if t.alias is not None:
            return t.alias.get(self)
        value = _filled(self._fields(), t.field)
        for i in t.indices:
            value = value[i]
        return value

    def path(self, name: str) -> str:
        """Where `name` points: 'hand_sizes[1]' for the alias hand_size at 4 players, the name
        itself for a field or a derived number (two names are one number when their paths match)."""
        t = self._target(self._fields(), name)
        return name.strip() if t.alias is not None else t.field + "".join(f"[{i}]" for i in t.indices)

    def kind(self, name: str) -> Any:
        """The type of the value at `name` (int, float, bool, str, a tuple type)."""
        return self._target(self._fields(), name).hint

    def parameters(self, numbers_only: bool = False) -> list[str]:
        """Every name a value can be set by: fields, each element of a list field
        (`hand_sizes[0]`, `pyramid_rows[2][0]`), then the aliases. `numbers_only`:
        only those holding one number or switch (what a slider can move)."""
        out = []

        def walk(hint, value, at):
            plain = split_optional(hint)[0]
            if not numbers_only or plain in (int, float, bool):
                out.append(at)
            if isinstance(value, tuple):
                for i, v in enumerate(value):
                    walk(_element_hint(hint, i), v, f"{at}[{i}]")

        values = self._fields()
        for field, hint in self.field_types().items():
            walk(hint, _filled(values, field), field)
        for name, alias in self.aliases().items():
            if not numbers_only or alias.kind in (int, float, bool):
                out.append(name)
        return out

    def value_for(self, name: str, value: Any) -> Any:
        """`value` checked against the type at `name` (text parsed strictly,
        numbers as numbers); ValueError naming the path, the value and the type."""
        hint = self.kind(name)
        if isinstance(value, str) and split_optional(hint)[0] is not str:
            return parse_text(hint, value, name, self._none_means(name.strip()))
        return from_json_value(hint, to_json_value(_tupled(_plain(value))), name)

    @classmethod
    def _none_means(cls, field: str) -> str:
        """What none stands for in an optional number, from the game's PARAMETERS text beside its
        Config ("rerolls per piglet per turn; none = no limit" -> "no limit"); else "none"."""
        text = getattr(sys.modules.get(cls.__module__), "PARAMETERS", {}).get(field, ("",))[0]
        m = re.search(r"none = ([^;]+)", text)
        return m.group(1).strip() if m else "none"

    def _apply(self, settings: Mapping[str, Any], convert) -> "RuleConfig":
        """Set every name at once: whole fields first, then elements and aliases
        (read against the new values), then one construction runs the game's checks."""
        values = self._fields()
        types_ = self.field_types()
        order = sorted(settings.items(), key=lambda kv: not (isinstance(kv[0], str) and kv[0].strip() in types_))
        by_path = []
        reached: dict[tuple, str] = {}  # (field, indices) -> the name that set it
        for name, raw in order:
            t = self._target(values, name)
            if convert is not from_json_value and isinstance(raw, str) and not raw.strip() and split_optional(t.hint)[1]:
                parse_text(t.hint, raw, t.shown, self._none_means(t.field))  # refused, saying what none would mean
            value = convert(t.hint, raw, t.shown)
            # Every name is checked against every other, whole fields included: `hand_sizes=15,12,11` with
            # `hand_size=10` names hand_sizes[2] twice, in whatever order, and is refused (the element used to
            # win silently over the whole field). One check here serves --set, --vary, --variant text, variant
            # files and with_values/with_text alike.
            if t.alias is not None:
                spots = [(f, ()) for f in t.alias.put(types.SimpleNamespace(**values), value)]
            else:
                spots = [(t.field, t.indices)]
            for field, at in spots:
                for (f2, at2), other in reached.items():
                    if f2 == field and (at[:len(at2)] == at2 or at2[:len(at)] == at):
                        raise ValueError(f"{other} and {name.strip()} both set {t.shown if t.alias is None else field}: "
                                         f"name each number once")
                reached[(field, at)] = name.strip()
            if t.alias is not None:
                values.update(t.alias.put(types.SimpleNamespace(**values), value))
            elif t.indices:
                values[t.field] = _set_in(_filled(values, t.field), t.indices, value)
            else:
                values[t.field] = value
                continue
            name = name.strip()
            by_path.append(f"{name}={_show(value)}" + (f" ({t.shown[len(name) + 2:-1]})" if t.shown != name else ""))
        try:
            return dataclasses.replace(self, **values)
        except ValueError as e:
            if by_path:  # name what the reader set, then what the rules refuse
                raise ValueError(f"{', '.join(by_path)}: {e}") from None
            raise

    def with_values(self, settings: Mapping[str, Any]) -> "RuleConfig":
        """A new config with fields, `field[i]` elements or aliases set to Python values (type-checked)."""
        if not isinstance(settings, Mapping):
            raise TypeError(f"with_values takes a {{name: value}} mapping, got {type(settings).__name__}")

        def convert(hint, raw, name):
            raw = _plain(raw)
            if isinstance(raw, str) and split_optional(hint)[0] is not str:
                return parse_text(hint, raw, name)
            return from_json_value(hint, to_json_value(_tupled(raw)), name)

        return self._apply(settings, convert)

    def with_text(self, settings: Mapping[str, str] | list[str]):
        """A new config with `name=value` texts applied (strictly parsed).

        A name is a field (`bonus`), an element of a list field
        (`hand_sizes[1]`) or an alias (`hand_size`); see `parameters()`.
        """
        if isinstance(settings, (str, bytes)) or not isinstance(settings, (Mapping, list, tuple)):
            raise TypeError(f"with_text takes a {{name: text}} mapping or a list of 'name=value' texts, got {settings!r}")
        if not isinstance(settings, Mapping):
            pairs = {}
            for item in settings:
                if not isinstance(item, str):
                    raise TypeError(f"with_text: {item!r} is not a 'name=value' text")
                name, sep, text = item.partition("=")
                if not sep or not name.strip():
                    raise ValueError(f"setting {item!r} is not of the form field=value")
                if name.strip() in pairs:  # the last would win unseen: say so instead
                    raise ValueError(f"{name.strip()} is set twice ({name.strip()}={pairs[name.strip()]} and "
                                     f"{item.strip()}): give each name once")
                pairs[name.strip()] = text
            settings = pairs
        for name, text in settings.items():
            if not isinstance(text, str):
                raise TypeError(
                    f"with_text takes text values: {name}={text!r} is {type(text).__name__}; "
                    f"write {{{name!r}: {_show(text)!r}}}, or use with_values for Python values"
                )
        return self._apply(settings, parse_text)

    # --- variant files ------------------------------------------------------------

    def differences(self) -> dict[str, Any]:
        """{field: JSON value} for every field that differs from the game's defaults."""
        base = type(self)()
        return {k: to_json_value(v) for k, v in self._fields().items() if v != getattr(base, k)}

    def fields_named(self, names) -> list[str]:
        """The fields these names (fields, `field[i]`, aliases, or 'name=value' texts) set, in field order."""
        values, hit = self._fields(), set()
        for name in names:
            name = name.partition("=")[0] if isinstance(name, str) else name
            t = self._target(values, name)
            hit.update(t.alias.put(types.SimpleNamespace(**values), t.alias.get(self)) if t.alias else (t.field,))
        return [f for f in values if f in hit]

    def save(self, path, name: str | None = None, keep=()) -> Path:
        """Write this config as a variant file (.json or .toml): the game, a
        name, the numbers that differ from the defaults and those `keep` names
        (see variant_text). Whole or not at all."""
        path = _variant_path(path)
        if path.suffix.lower() not in VARIANT_SUFFIXES:
            raise ValueError(f"{shown_path(path)}: a variant file must end in {' or '.join(VARIANT_SUFFIXES)}")
        if name is not None and (not isinstance(name, str) or not name.strip()):
            raise ValueError(f"name={name!r} is not allowed: a variant's name is non-empty text")
        write_atomic(path, self.variant_text(name or path.stem, path.suffix, keep))
        return path

    def variant_text(self, name: str, suffix: str = ".toml", keep=()) -> str:
        """What save writes: the game, the name and the differences, as TOML or JSON. `keep`: names
        (fields, `field[i]`, aliases; `meeple variant save`'s --set) whose fields are written even at
        their default: a file keeps every number its maker named, so on common rules that set it
        otherwise (`compare --set bonus=6 --variant file.toml`) it sets it back, as the same text does.
        An alias or element keeps its whole field (judgement call: a file holds fields, never two names
        for one number)."""
        kept = self.fields_named(keep)
        data = {"format": VARIANT_FORMAT, "game": self.game_name(), "name": name,
                "set": {k: to_json_value(v) for k, v in self._fields().items()
                        if k in kept or k in self.differences()}}
        return json.dumps(data, indent=1) + "\n" if suffix.lower() == ".json" else _toml_text(data)

    @classmethod
    def load(cls, path) -> "RuleConfig":
        """The config a variant file describes; ValueError (one line, naming the file) if it is bad
        or names another game."""
        game, _name, settings = read_variant(path)
        if game != cls.game_name():
            raise ValueError(f"{shown_path(path)}: the file is a {game} variant, not {cls.game_name()}")
        return variant_config(cls, path, settings)

    def describe(self) -> str:
        """One line per field that differs from the default config."""
        base = type(self)()
        diffs = [
            f"{f.name}={_show(getattr(self, f.name))}"
            for f in dataclasses.fields(self)
            if getattr(self, f.name) != getattr(base, f.name)
        ]
        return ", ".join(diffs) or "defaults"


# --- variant files (JSON or TOML) ------------------------------------------------

VARIANT_FORMAT = "meeple-variant/1"
VARIANT_SUFFIXES = (".json", ".toml")
MAX_VARIANT_BYTES = 2**20  # a variant names a few numbers; anything larger is not one
MAX_VARIANT_NAME = 200


def _variant_path(path) -> Path:
    """A variant file's path from text or a path; ValueError for anything else or an empty name."""
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"a variant file is named by a path (text), got {type(path).__name__}")
    if not str(path).strip():
        raise ValueError("a variant file needs a name, got an empty one")
    return Path(path)


_VARIANT_KEYS = ("format", "game", "name", "set", "meeple", "chance")  # the last two: a stamp (the variant lab's)


def too_many_digits(e: ValueError) -> str:
    """'holds a number of more than 4,300 digits' when `e` is Python's limit on reading a long
    integer (json.loads, tomllib.loads, int()), else '': the limit's own text names
    sys.set_int_max_str_digits(), which no reader of a file can act on."""
    return "holds a number of more than 4,300 digits" if "integer string conversion" in str(e) else ""


class DuplicateKey(ValueError):
    """A JSON object names one key twice (json.loads would keep the last silently)."""


def unique_keys(pairs):
    """json.loads's object_pairs_hook for files a person edits: a key given twice is refused
    (TOML refuses it itself), not settled silently in favour of the last."""
    out = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKey(f"{key!r} is given twice in one object: give each key once")
        out[key] = value
    return out


def without_bom(text):
    """`text` without the byte-order mark some editors (Windows Notepad) put at the start of a
    UTF-8 file: JSON and TOML readers refuse it ('Invalid statement at line 1, column 1')."""
    return text[1:] if isinstance(text, str) and text.startswith("\ufeff") else text


def settings_list(text: str) -> list[str]:
    """'bonus=6,track=0,0,1,2' -> ['bonus=6', 'track=0,0,1,2']: a piece without '=' belongs to the value before it
    (a tuple's commas stay with its value), as `--variant NAME:...` reads its text."""
    out: list[str] = []
    for piece in text.split(","):
        if "=" in piece or not out:
            out.append(piece)
        else:
            out[-1] += "," + piece
    return [s for s in out if s.strip()]


def read_variant(path) -> tuple[str, str, dict]:
    """(game, name, {name: value}) from a variant file; one-line ValueError naming the file."""
    path = _variant_path(path)
    shown = shown_path(path)
    kind = path.suffix.lower()
    if kind not in VARIANT_SUFFIXES:
        raise ValueError(f"{shown}: a variant file must end in {' or '.join(VARIANT_SUFFIXES)}")
    text = without_bom(read_capped(path, MAX_VARIANT_BYTES, "variant file"))
    try:
        data = json.loads(text, object_pairs_hook=unique_keys) if kind == ".json" else tomllib.loads(text)
    except DuplicateKey as e:
        raise ValueError(f"{shown}: {e}") from None
    except RecursionError:
        raise ValueError(f"{shown}: nested too deeply to be a variant file") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"{shown}: not valid JSON ({e.msg} at line {e.lineno}, column {e.colno})") from None
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{shown}: not valid TOML ({str(e).splitlines()[0]})") from None
    except ValueError as e:  # Python's own limit: an integer of more than 4,300 digits
        if too_many_digits(e):
            raise ValueError(f"{shown}: {too_many_digits(e)}; no rule number is that large") from None
        raise ValueError(f"{shown}: not a variant file ({' '.join(str(e).split())})") from None
    if not isinstance(data, dict):
        raise ValueError(f"{shown}: a variant file holds an object with {', '.join(_VARIANT_KEYS)}")
    unknown = sorted(set(data) - set(_VARIANT_KEYS))
    if unknown:
        raise ValueError(f"{shown}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(_VARIANT_KEYS)}")
    if data.get("format", VARIANT_FORMAT) != VARIANT_FORMAT:
        raise ValueError(f"{shown}: format {data['format']!r} is not {VARIANT_FORMAT!r}")
    game = data.get("game")
    if not isinstance(game, str):
        raise ValueError(f"{shown}: name the game, e.g. game = \"bucket-brigade\"")
    name = data.get("name", path.stem)
    if not isinstance(name, str) or not name.strip() or not name.isprintable() or len(name) > MAX_VARIANT_NAME:
        # printed in every table and warning: a terminal escape in it would act on the reader's terminal
        raise ValueError(f"{shown}: name must be printable text of 1 to {MAX_VARIANT_NAME} characters (no control "
                         f"characters or terminal escapes), got {shown_path(repr(name), 60)}")
    settings = data.get("set", {})
    if not isinstance(settings, dict):
        raise ValueError(f"{shown}: 'set' must map parameter names to values, got {type(settings).__name__}")
    stamp = {k: data[k] for k in ("meeple", "chance") if k in data}
    if stamp:  # made by another meeple or chance stream: the rules still load, the figures may differ
        bad = [k for k, v in stamp.items() if not isinstance(v, str)]
        if bad:
            raise ValueError(f"{shown}: {', '.join(bad)} must be text (a version, a chance fingerprint)")
        for line in stamp_warnings(stamp.get("meeple"), stamp.get("chance"), "variant file"):
            warnings.warn(f"{shown}: {line}", StampWarning, stacklevel=2)
    return game, name, settings


def variant_config(cls, path, settings: dict, base: RuleConfig | None = None) -> RuleConfig:
    """The `cls` config a variant file's settings describe, set on `base` (default: the rules'
    defaults; `meeple compare` passes what --preset/--config/--set made); ValueError naming the file."""
    try:  # a file's values are typed: "5" where a number belongs is refused, not parsed
        return (cls() if base is None else base)._apply(settings, from_json_value)
    except (ValueError, TypeError) as e:
        raise ValueError(f"{shown_path(path)}: {' '.join(str(e).split())}") from None


def _toml_value(v: Any) -> str:
    if v is None:
        raise ValueError("TOML has no 'none' value: save this variant as .json")
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)  # a JSON string is a valid TOML basic string
    return "[" + ", ".join(_toml_value(x) for x in v) + "]"


def _toml_text(data: dict) -> str:
    lines = [f"{k} = {_toml_value(data[k])}" for k in ("format", "game", "name")]
    lines += ["", "[set]"]
    lines += [f"{json.dumps(k) if not k.isidentifier() else k} = {_toml_value(v)}" for k, v in data["set"].items()]
    return "\n".join(lines) + "\n"
