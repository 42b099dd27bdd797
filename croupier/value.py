"""The core's value types: frozen, slotted records compared field by field.

They behave as `@dataclass(frozen=True, slots=True)` classes do, and type-check as such (PEP
681). They exist because Python 3.11's `dataclasses` compiles six methods one by one for every
class and imports `inspect` to do it: the core's fifty-odd records took about half of a
one-shoe `croupier replay`'s whole run. A record here compiles its `__init__` alone; it
compares, hashes and shows its fields with methods every record shares.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from operator import attrgetter
from typing import Any, ClassVar, TypeVar, dataclass_transform

V = TypeVar("V", bound="Value")


class FrozenError(AttributeError):
    """A field of a value was assigned or deleted: values never change once made."""


def _init_source(fields: tuple[str, ...], defaults: dict[str, object]) -> str:
    """The source of a function that makes the class's `__init__`, the defaults passed to it so
    that the module's globals stay the method's (its annotations name the module's types)."""
    params = ", ".join(f"{f}=_d_{f}" if f in defaults else f for f in fields)
    sets = "".join(f"\n        _set(self, {f!r}, {f})" for f in fields) or "\n        pass"
    return (f"def make(_set, {''.join(f'_d_{f}, ' for f in defaults)}):\n"
            f"    def __init__(self, {params}):{sets}\n"
            "    return __init__\n")


@dataclass_transform(frozen_default=True)
class _ValueType(type):
    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any],
                **kwargs: Any) -> _ValueType:
        if namespace.get("__module__") == __name__:
            return super().__new__(mcls, name, bases, namespace, **kwargs)
        if bases != (Value,):
            raise TypeError(f"{name}: a value extends Value alone")
        annotations = namespace.get("__annotations__", {})
        fields = tuple(annotations)
        defaults = {f: namespace.pop(f) for f in fields if f in namespace}
        seen_default = ""
        for field in fields:
            if field in defaults:
                seen_default = field
            elif seen_default:
                raise TypeError(f"{name}: field {field!r} without a default follows "
                                f"{seen_default!r}, which has one")
        if "__init__" not in namespace:
            scope: dict[str, Any] = {}
            module = sys.modules.get(namespace.get("__module__", ""))
            exec(_init_source(fields, defaults), {} if module is None else vars(module), scope)
            init = scope["make"](object.__setattr__, *defaults.values())
            init.__qualname__ = f"{namespace.get('__qualname__', name)}.__init__"
            init.__annotations__ = {**annotations, "return": None}  # for typing.get_type_hints
            namespace["__init__"] = init
        # The fields as one tuple, which the shared methods compare, hash and remake from.
        key = attrgetter(*fields) if len(fields) > 1 else lambda value: tuple(
            getattr(value, f) for f in fields)
        namespace.update(__slots__=fields, __match_args__=fields, _fields=fields,
                         _key=staticmethod(key))
        return super().__new__(mcls, name, bases, namespace, **kwargs)


class Value(metaclass=_ValueType):
    """A record of the core: subclass it and annotate its fields, as for a dataclass."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    _key: ClassVar[Callable[[Value], tuple[object, ...]]]

    def __repr__(self) -> str:
        shown = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields)
        return f"{type(self).__qualname__}({shown})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return bool(type(self)._key(self) == type(self)._key(other))

    def __hash__(self) -> int:
        return hash(type(self)._key(self))

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenError(f"cannot assign to field {name!r} of {type(self).__name__}")

    def __delattr__(self, name: str) -> None:
        raise FrozenError(f"cannot delete field {name!r} of {type(self).__name__}")

    def __reduce__(self) -> tuple[type[Value], tuple[object, ...]]:
        # A value is remade from its fields: pickled, or copied where a copy is asked for.
        return type(self), type(self)._key(self)


def fields(value: Value | type[Value]) -> tuple[str, ...]:
    """The names of a value's fields, in order."""
    return value._fields


def replace(value: V, **changes: object) -> V:
    """A copy of `value` with the named fields changed."""
    unknown = sorted(set(changes) - set(value._fields))
    if unknown:
        raise TypeError(f"{type(value).__name__} has no field {unknown[0]!r}")
    return type(value)(**{f: changes.get(f, getattr(value, f)) for f in value._fields})

