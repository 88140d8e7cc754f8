"""A :class:`~memori_langchain.MemoriStore`'s namespaces: the template of their shape, and the entity a namespace
names (module docstring of :mod:`memori_langchain.store`: namespaces are users)."""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from langgraph.store.base import InvalidNamespaceError

from memori_core.validate import check_entity_id

DEFAULT_NAMESPACE: tuple[str, ...] = ("memories", "{user_id}")
"""The namespace template a store takes by default: one namespace per user, LangMem's spelling."""

_PLACEHOLDER = re.compile(r"^\{([A-Za-z_][A-Za-z0-9_]*)\}$")


def _check_label(label: Any, namespace: Any) -> str:
    """A namespace label as LangGraph allows it (a non-empty str without ``.`` or NUL)."""
    if not isinstance(label, str):
        raise InvalidNamespaceError(f"namespace {namespace!r}: labels must be str, got {type(label).__name__}")
    if not label:
        raise InvalidNamespaceError(f"namespace {namespace!r}: labels cannot be empty strings")
    if "." in label or "\x00" in label:
        raise InvalidNamespaceError(f"namespace {namespace!r}: label {label!r} contains a period or a NUL byte")
    return label


def _as_namespace(value: Any, what: str) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, (tuple, list)):
        raise InvalidNamespaceError(f"{what} must be a tuple of str labels, got {type(value).__name__} {value!r}")
    return tuple(_check_label(label, value) for label in value)


@dataclass(frozen=True)
class NamespaceTemplate:
    """The shape of a :class:`MemoriStore`'s namespaces and how one names an entity.

    ``labels`` are literals or ``"{name}"`` placeholders (at least one); ``entity`` is a ``str.format``
    string over the placeholder names, using each once; by default the one placeholder's value, or the
    values joined by ``.`` (which no label may contain, so two namespaces never name one entity). A custom
    ``entity`` with several placeholders must put a ``.`` in the text between them, for the same reason.
    :attr:`kind` names the namespaces of this shape within one entity (the labels, ``*`` for each placeholder).
    """

    labels: tuple[str, ...]
    entity: str

    @classmethod
    def parse(cls, labels: Any, entity: str | None = None) -> NamespaceTemplate:
        if isinstance(labels, str) or not isinstance(labels, (tuple, list)) or not labels:
            raise ValueError(f"namespace must be a non-empty tuple of labels, e.g. {DEFAULT_NAMESPACE}, got {labels!r}")
        labels = tuple(labels)
        names: list[str] = []
        for label in labels:
            if not isinstance(label, str) or not label:
                raise ValueError(f"namespace {labels!r}: every label must be a non-empty str")
            m = _PLACEHOLDER.match(label)
            if m:
                names.append(m.group(1))
            elif "{" in label or "}" in label:
                raise ValueError(f"namespace {labels!r}: label {label!r} must be a literal or exactly one "
                                 "'{name}' placeholder")
            elif label == "*":
                raise ValueError(f"namespace {labels!r}: '*' is LangGraph's wildcard, not a label")
            else:
                _check_label(label, labels)
        if not names:
            raise ValueError(f"namespace {labels!r} has no '{{placeholder}}': every user would share one namespace; "
                             f"name the user, e.g. {DEFAULT_NAMESPACE}")
        if len(set(names)) != len(names):
            raise ValueError(f"namespace {labels!r} repeats a placeholder")
        if labels[0] == "langgraph":
            raise ValueError('a namespace\'s root label cannot be "langgraph" (LangGraph reserves it)')
        if entity is None:
            entity = ".".join("{" + n + "}" for n in names)
        cls._check_entity(entity, names)
        return cls(labels, entity)

    @staticmethod
    def _check_entity(entity: Any, names: list[str]) -> None:
        if not isinstance(entity, str):
            raise TypeError(f"entity must be a format str over {names}, got {type(entity).__name__}")
        try:
            parts = list(string.Formatter().parse(entity))
        except ValueError as exc:
            raise ValueError(f"entity {entity!r} is not a format string: {exc}") from None
        used = [p[1] for p in parts if p[1] is not None]
        if any(p[2] or p[3] for p in parts if p[1] is not None):
            raise ValueError(f"entity {entity!r}: use plain '{{name}}' fields, without format specs or conversions")
        if sorted(used) != sorted(names):
            raise ValueError(f"entity {entity!r} must use each of the namespace's placeholders {names} exactly once "
                             "(else two namespaces would name one entity)")
        for i, (text, field, _, _) in enumerate(parts):
            if i > 0 and field is not None and parts[i - 1][1] is not None and "." not in text:
                raise ValueError(f"entity {entity!r}: put a '.' between two placeholders (no label contains one), "
                                 "so that two namespaces never name one entity")

    @functools.cached_property
    def kind(self) -> str:
        """The namespace of this shape within an entity: the labels joined by ``.``, each placeholder as ``*``
        (``("memories", "{user_id}")``: ``"memories.*"``). Stores of one shape over an engine share their items;
        stores of two shapes keep apart items of the same key (:data:`NAMESPACE_KEY`)."""
        return ".".join("*" if i in self.slots else label for i, label in enumerate(self.labels))

    @functools.cached_property
    def slots(self) -> dict[int, str]:
        """Position -> placeholder name."""
        return {i: m.group(1) for i, label in enumerate(self.labels) if (m := _PLACEHOLDER.match(label))}

    def entity_of(self, values: Mapping[str, str], namespace: Any) -> str:
        for name, value in values.items():
            if value == "*":
                raise InvalidNamespaceError(f"namespace {namespace!r}: '*' is a wildcard, not a {name}")
        try:
            return check_entity_id(self.entity.format(**values))
        except (TypeError, ValueError) as exc:
            raise InvalidNamespaceError(f"namespace {namespace!r} names no entity: {exc}") from None

    def resolve(self, namespace: Any) -> tuple[str, tuple[str, ...]]:
        """The entity a namespace of this shape names (and the namespace as a tuple); else ``InvalidNamespaceError``."""
        ns = _as_namespace(namespace, "namespace")
        if len(ns) != len(self.labels) or any(
                ns[i] != label for i, label in enumerate(self.labels) if i not in self.slots):
            raise InvalidNamespaceError(f"namespace {ns!r} is not of this store's shape {self.labels!r}")
        return self.entity_of({name: ns[i] for i, name in self.slots.items()}, ns), ns

    def resolve_prefix(self, prefix: Any) -> tuple[str, tuple[str, ...]]:
        """The one entity (and its namespace) whose items a search over ``prefix`` reads."""
        p = _as_namespace(prefix, "namespace_prefix")
        if len(p) > len(self.labels) or any(
                p[i] != label for i, label in enumerate(self.labels[: len(p)]) if i not in self.slots):
            raise InvalidNamespaceError(f"no namespace of this store's shape {self.labels!r} starts with {p!r}")
        open_slots = [self.labels[i] for i in self.slots if i >= len(p)]
        if open_slots:
            raise InvalidNamespaceError(
                f"a search over {p!r} would span several users' memories ({', '.join(open_slots)} not given); "
                f"search one user's namespace, e.g. {self.labels!r} with the placeholders filled in")
        return self.resolve(p + self.labels[len(p):])


def as_namespace_pattern(path: Any) -> tuple[str, ...]:
    """A ``list_namespaces`` match condition's path: labels, or ``"*"`` for any label."""
    if isinstance(path, str) or not isinstance(path, (tuple, list)):
        raise InvalidNamespaceError(f"a namespace pattern must be a tuple of labels, got {path!r}")
    return tuple(label if label == "*" else _check_label(label, path) for label in path)
