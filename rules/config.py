"""Shared machinery for game configs: strict validation, text and JSON parsing.

Every game's `Config` is a frozen dataclass that inherits `RuleConfig`.
User text (a CLI `--set`, a widget value, a saved record) is parsed by the
field's annotated type, never `eval`ed; anything else is a clear ValueError.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, Mapping


def need(ok: bool, field: str, value: Any, allowed: str) -> None:
    """Raise ValueError naming the field, the value and what is allowed."""
    if not ok:
        raise ValueError(f"{field}={_show(value)} is not allowed: {allowed}")


def need_range(config, field: str, low, high, unit: str = "") -> None:
    """ValueError unless config.<field> is from low to high (types are already checked)."""
    value = getattr(config, field)
    need(low <= value <= high, field, value, f"{low} to {high}{unit}")


def _show(value: Any) -> str:
    if isinstance(value, tuple):
        return ",".join(_show(v) for v in value) if value else "(empty)"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


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
        try:
            return int(text, 10)
        except ValueError:
            raise ValueError(f"{field}: {text!r} is not a whole number") from None
    if kind is float:
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"{field}: {text!r} is not a number") from None
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{field}: {text!r} is not a finite number")
        return value
    if kind is str:
        if not text:
            raise ValueError(f"{field}: empty text")
        return text
    raise TypeError(f"unsupported field type {kind!r}")


def _split_optional(hint: Any) -> tuple[Any, bool]:
    """(inner type, allows None) for `X | None`."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1 and len(typing.get_args(hint)) == 2:
            return args[0], True
        raise TypeError(f"unsupported union {hint!r}")
    return hint, False


def parse_text(hint: Any, text: str, field: str) -> Any:
    """Parse user text for a field of type `hint`.

    Tuples are comma separated (`0,-1,-1,2`); tuples of tuples use `/`
    between the inner tuples (`1,1,2/2,3`). `none` means None where allowed.
    """
    hint, optional = _split_optional(hint)
    if optional and text.strip().lower() in ("none", ""):
        return None
    if typing.get_origin(hint) is tuple:
        args = typing.get_args(hint)
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
    hint, optional = _split_optional(hint)
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
        raise ValueError(f"{field}: expected {hint.__name__}, got {value!r}")
    return value


def to_json_value(value: Any) -> Any:
    if isinstance(value, tuple):
        return [to_json_value(v) for v in value]
    return value


def _type_ok(hint: Any, value: Any) -> bool:
    hint, optional = _split_optional(hint)
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


def _describe(hint: Any) -> str:
    hint, optional = _split_optional(hint)
    if typing.get_origin(hint) is tuple:
        args = typing.get_args(hint)
        inner = _describe(args[0])
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
            raise ValueError(f"{name}={value!r} is not allowed: {_describe(hint)}")


def _tupled(value):
    return tuple(_tupled(v) for v in value) if isinstance(value, (list, tuple)) else value


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
        return {f.name: to_json_value(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]):
        if not isinstance(data, Mapping):
            raise ValueError(f"config must be an object of fields, got {type(data).__name__}")
        types_ = cls.field_types()
        unknown = sorted(set(data) - set(types_))
        if unknown:
            raise ValueError(
                f"unknown config field(s) {', '.join(unknown)}; allowed: {', '.join(types_)}"
            )
        values = {k: from_json_value(types_[k], v, k) for k, v in data.items()}
        return cls(**values)

    def with_text(self, settings: Mapping[str, str] | list[str]):
        """A new config with `field=value` texts applied (strictly parsed)."""
        if not isinstance(settings, Mapping):
            pairs = {}
            for item in settings:
                name, sep, text = item.partition("=")
                if not sep or not name.strip():
                    raise ValueError(f"setting {item!r} is not of the form field=value")
                pairs[name.strip()] = text
            settings = pairs
        types_ = self.field_types()
        changes = {}
        for name, text in settings.items():
            if name not in types_:
                raise ValueError(f"unknown parameter {name!r}; allowed: {', '.join(types_)}")
            changes[name] = parse_text(types_[name], text, name)
        return dataclasses.replace(self, **changes)

    def describe(self) -> str:
        """One line per field that differs from the default config."""
        base = type(self)()
        diffs = [
            f"{f.name}={_show(getattr(self, f.name))}"
            for f in dataclasses.fields(self)
            if getattr(self, f.name) != getattr(base, f.name)
        ]
        return ", ".join(diffs) or "defaults"
