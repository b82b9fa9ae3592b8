"""Models built from values that were already validated, without validating them again.

Rows the store wrote were validated when they were written (the model, then the table's
constraints), and an extractor's values by the code that made them. Reading a large case
back through pydantic's validators, with a fresh set of field names per object, cost a
fifth of an export's time and about half its memory (issue 19: a 100,000-person case).
`trusted` builds an instance the way `model_construct` does, minus its per-call
bookkeeping; when every field is given (the usual case), the instances of a class share
one set of field names: it then never changes (pydantic adds a field's name on
assignment, a no-op, and copies the set before it updates a copy's).
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)
_set = object.__setattr__
_ALL: dict[type[BaseModel], tuple[frozenset[str], set[str]]] = {}


def trusted(cls: type[M], values: dict[str, Any]) -> M:
    """An instance of `cls` holding `values` (the dict itself, not a copy) as they are:
    nothing is converted, so enums, dates and nested models must already be what the
    model holds. Fields left out get their defaults, as `model_construct` gives them."""
    names, every = _ALL.get(cls) or _ALL.setdefault(
        cls, (frozenset(cls.model_fields), set(cls.model_fields)))
    if values.keys() == names:
        fields_set = every
    else:
        fields_set = set(values)
        for name, info in cls.model_fields.items():
            if name not in values:
                values[name] = info.get_default(call_default_factory=True,
                                                validated_data=values)
        unknown = values.keys() - names
        if unknown:
            raise TypeError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
    return instance(cls, values, fields_set)


def every_field(cls: type[BaseModel]) -> set[str]:
    """The set of field names that `trusted` gives every instance of `cls` built with all
    its fields: `instance(cls, values, every_field(cls))` is `trusted(cls, values)` for a
    caller that builds every field itself, without comparing the names each time."""
    return (_ALL.get(cls) or _ALL.setdefault(
        cls, (frozenset(cls.model_fields), set(cls.model_fields))))[1]


def instance(cls: type[M], values: dict[str, Any], fields_set: set[str]) -> M:
    """An instance of `cls` holding `values` and `fields_set` as given, nothing checked:
    what `trusted` and the Censor's copies (`privacy.redaction`) build."""
    obj = cls.__new__(cls)
    _set(obj, "__dict__", values)
    _set(obj, "__pydantic_fields_set__", fields_set)
    _set(obj, "__pydantic_extra__", None)
    _set(obj, "__pydantic_private__", None)
    return obj
