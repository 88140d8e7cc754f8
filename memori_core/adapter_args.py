"""The arguments every framework adapter takes, checked in one place: ``engine``, ``k`` and whose memory.

The adapters (``memori_langchain``, ``memori_llamaindex``) call these so that the
same argument means the same thing, and fails the same way, on every surface:

- ``engine``: a :class:`~memori_core.RecallEngine` (:func:`check_engine`);
- ``k``: how many facts / documents / nodes at most; ``None`` (every adapter's
  default) is the engine's ``config.limit``, 5 unless configured (:func:`check_k`);
  an old name of it keeps working with a ``DeprecationWarning`` (:func:`renamed_k`);
- ``entity_id``: whose memory, from the most specific source that names one
  (:func:`resolve_entity_id`, the one precedence every adapter follows); a ``str``, or an
  ``int`` read as its decimal ``str`` (:func:`check_adapter_entity_id`);
- ``strict``: what a failure does, :mod:`memori_core.failopen`; it and ``capture`` are ``True`` or ``False``,
  nothing read as one (:func:`check_flag`: ``capture="no"`` is refused, not taken as true).

:func:`check_adapter_args` checks a constructor's ``engine``, ``entity_id`` and ``k`` at once. A pydantic
adapter raises the plain ``TypeError`` / ``ValueError`` of these checks, not pydantic's ``ValidationError``
(:func:`argument_error`, raised by the models' shared base :class:`PlainArgumentErrors`).
Framework-free: a framework's run config and runtime context come in as a
mapping / any object.
"""

from __future__ import annotations

import difflib
import warnings
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar, overload

from .engine import RecallEngine
from .validate import check_count, check_entity_id

ENTITY_KEY = "entity_id"
"""The first key that names the user in a run config's ``configurable`` mapping and in a runtime context."""

USER_KEY = "user_id"
"""The second one (LangGraph's tutorials name the user ``user_id``), read when ``entity_id`` is absent."""

ENTITY_KEYS: tuple[str, ...] = (ENTITY_KEY, USER_KEY)
"""The keys of a run config's ``configurable`` and the keys (or attributes) of a runtime context that name
the user, in order: the same two in both places."""

VIA_CONFIG = "per call config={'configurable': {'entity_id': ...}} (or 'user_id')"
"""How to name the user per call where the adapter reads a LangChain run config."""

VIA_CONTEXT = "run with a context that has an entity_id or user_id"
"""How to name the user where the adapter reads an agent's / a graph's runtime context."""


def check_engine(engine: Any, owner: str) -> RecallEngine:
    """``engine`` if it is a :class:`~memori_core.RecallEngine` (or a subclass); ``TypeError`` naming it otherwise."""
    if not isinstance(engine, RecallEngine):
        raise TypeError(f"{owner}: engine must be a memori_core.RecallEngine, got {type(engine).__name__}")
    return engine


_Checked = TypeVar("_Checked")


def named_by_class(check: Callable[[Any, str], _Checked]) -> Callable[[type, Any], _Checked]:
    """A pydantic adapter's field check: ``check(value, owner)`` with the model class's name as the owner, so
    its error names the class the argument was given to (a subclass, its own name). Each model attaches it as
    ``_check_k = field_validator("k", mode="before")(named_by_class(check_k))``."""

    def validate(cls: type, value: Any) -> _Checked:
        return check(value, cls.__name__)

    return validate


def check_adapter_entity_id(value: Any, source: str = "entity_id") -> str:
    """An entity id an adapter was given, from ``source`` (what an error names: ``"entity_id"``, ``"the
    runtime context's user_id"``): a ``str`` the engine takes (:func:`check_entity_id`: non-blank, no
    surrounding whitespace, no invisible character, in Unicode NFC form), or an ``int`` (not a ``bool``), read
    as its decimal ``str``.

    Apps often keep integer user ids (a database key) in their runtime context; ``user_id=42`` is the
    entity ``"42"``, the one a LangGraph namespace ``("memories", "42")`` of :class:`MemoriStore` names (its
    labels are ``str``), so the adapters and the store read one memory. The engine's own methods take ``str``."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        raise TypeError(f"{source} must be a non-empty str or an int (a user id), got {type(value).__name__}")
    return check_entity_id(value, source)


def check_entity_default(entity_id: Any, owner: str | None = None) -> str | None:
    """An adapter's constructor ``entity_id``: ``None`` (named per call), or checked by
    :func:`check_adapter_entity_id` (an error names ``owner``, when given, and ``entity_id``)."""
    if entity_id is None:
        return None
    return check_adapter_entity_id(entity_id, "entity_id" if owner is None else f"{owner}: entity_id")


def check_flag(value: Any, owner: str, name: str) -> bool:
    """``value`` if it is a ``bool``; ``TypeError`` naming ``owner`` and the argument ``name`` otherwise (``"no"``
    or ``1`` is a bug in the caller, not a flag: read as ``bool`` it would turn capture or ``strict`` on)."""
    if not isinstance(value, bool):
        raise TypeError(f"{owner}: {name} must be True or False, got {type(value).__name__} {value!r}")
    return value


_COUNT_HABITS = frozenset({"top_k", "similarity_top_k", "search_kwargs", "limit", "n"})
"""Other libraries' names of a result count: memori's adapters call it ``k``."""


def check_known_keywords(owner: str, given: Iterable[str], known: Collection[str]) -> None:
    """``TypeError`` naming the keyword arguments of ``given`` that are not in ``known``, with the known name
    meant when one is near (``entity`` -> ``entity_id``; ``top_k`` or ``search_kwargs`` -> ``k``): a pydantic
    adapter refuses them as a plain class refuses an unknown keyword, instead of ignoring them."""
    unknown = [key for key in given if key not in known]
    if not unknown:
        return
    hints = []
    for key in unknown:
        near = ["k"] if key in _COUNT_HABITS and "k" in known else difflib.get_close_matches(key, known, n=1)
        if near:
            hints.append(f"{key!r}: did you mean {near[0]!r}?")
    raise TypeError(f"{owner} got unexpected keyword argument{'s' * (len(unknown) > 1)} "
                    f"{', '.join(map(repr, unknown))}" + (f" ({'; '.join(hints)})" if hints else ""))


def argument_error(owner: str, errors: Sequence[Mapping[str, Any]]) -> Exception:
    """The plain exception a pydantic adapter raises for arguments its model refused, from the refusal's
    ``ValidationError.errors()``: its first error only, as a plain call raises at the first bad argument.

    An error one of this module's checks raised (they name the owner and the argument) is returned as it is;
    pydantic's own (a missing required argument, a value of the wrong type or out of a field's bounds) becomes
    a ``TypeError`` / ``ValueError`` naming ``owner`` and the argument, without pydantic's link."""
    first: Mapping[str, Any] = errors[0] if errors else {}
    raised = (first.get("ctx") or {}).get("error")
    if isinstance(raised, (TypeError, ValueError)):
        return raised
    name = ".".join(str(part) for part in first.get("loc", ())) or "arguments"
    kind = str(first.get("type", ""))
    if kind == "missing":
        return TypeError(f"{owner} missing required argument: {name!r}")
    message = f"{owner}: {name}: {first.get('msg', 'invalid value')}, got {first.get('input')!r}"
    wrong_type = kind.endswith(("_type", "_parsing")) or kind.startswith(("is_instance", "is_subclass"))
    return TypeError(message) if wrong_type else ValueError(message)


class PlainArgumentErrors:
    """The base of every pydantic adapter model (before ``BaseModel`` in its bases): a refused argument, given to
    the constructor or set later (``retriever.entity_id = "bob"``), raises the plain ``TypeError`` /
    ``ValueError`` of :func:`argument_error` naming the class, not pydantic's ``ValidationError``."""

    REFUSAL: ClassVar[type[Exception]]
    """The model library's refusal (pydantic's ``ValidationError``), named by the adapter's model: this shared
    policy imports no third-party package."""

    def __init__(self, /, **data: Any) -> None:
        try:
            super().__init__(**data)
        except self.REFUSAL as exc:
            raise argument_error(type(self).__name__, exc.errors()) from None  # type: ignore[attr-defined]

    def __setattr__(self, name: str, value: Any) -> None:
        try:
            super().__setattr__(name, value)
        except self.REFUSAL as exc:
            raise argument_error(type(self).__name__, exc.errors()) from None  # type: ignore[attr-defined]


class CheckedAttribute(Generic[_Checked]):
    """An attribute of a plain (not pydantic) adapter class checked whenever it is set, in ``__init__`` and after:
    ``retriever.entity_id = " bob"`` raises what ``MemoriRetriever(entity_id=" bob")`` raises, instead of every
    later call failing as if the store were down. ``check(value, owner)`` returns the value to keep (normalised)
    or raises naming ``owner``, the class of the instance set.

    >>> class Adapter:
    ...     entity_id = CheckedAttribute(check_entity_default)
    """

    def __init__(self, check: Callable[[Any, str], _Checked]) -> None:
        self.check = check
        self.slot = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = f"_checked_{name}"

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> CheckedAttribute[_Checked]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> _Checked: ...

    def __get__(self, instance: object | None, owner: type | None = None) -> Any:
        if instance is None:
            return self
        try:
            return instance.__dict__[self.slot]
        except KeyError:
            raise AttributeError(self.slot.removeprefix("_checked_")) from None

    def __set__(self, instance: object, value: Any) -> None:
        instance.__dict__[self.slot] = self.check(value, type(instance).__name__)


def check_k(k: Any, owner: str) -> int | None:
    """``k`` if it is ``None`` (the engine's ``config.limit``) or an int >= 0 (0: nothing);
    ``TypeError`` / ``ValueError`` naming it otherwise."""
    return None if k is None else check_count(k, f"{owner}: k", "a non-negative int or None")


def renamed_k(owner: str, k: Any, old_name: str, old_value: Any, *, stacklevel: int = 3) -> Any:
    """``k``, or the value given under its old name ``old_name`` (with a ``DeprecationWarning``).

    ``old_value`` is ``None`` when the old name was not used. Both names at once raise ``TypeError``.
    The value is returned unchecked: pass it on to :func:`check_k`.
    """
    if old_value is None:
        return k
    if k is not None:
        raise TypeError(f"{owner}: pass k=... only ({old_name}=... is its deprecated name)")
    warnings.warn(
        f"{owner}({old_name}=...) is deprecated: use k=... (the one name of the result count in memori's adapters)",
        DeprecationWarning,
        stacklevel=stacklevel,
    )
    return old_value


def move_renamed_k(data: Any, owner: str, old_name: str) -> Any:
    """A pydantic adapter's constructor input with ``old_name=`` moved to ``k=`` (see :func:`renamed_k`),
    for a ``model_validator(mode="before")``; other input is returned as it is."""
    if isinstance(data, dict) and old_name in data:
        data = dict(data)
        data["k"] = renamed_k(owner, data.get("k"), old_name, data.pop(old_name), stacklevel=5)
    return data


def renamed_k_attribute(owner: str, old_name: str) -> property:
    """A read-only attribute ``old_name`` that reads ``k`` with a ``DeprecationWarning``
    (``retriever.similarity_top_k``); a ``property``, so pydantic models take it too."""

    def read(self: Any) -> Any:
        warnings.warn(f"{owner}.{old_name} is deprecated: read .k", DeprecationWarning, stacklevel=2)
        return self.k

    return property(read, doc="Deprecated name of :attr:`k`.")


def check_adapter_args(
    owner: str, engine: Any, entity_id: Any = None, k: Any = None
) -> tuple[RecallEngine, str | None, int | None]:
    """An adapter's constructor arguments, checked: ``(engine, entity_id, k)`` (see the functions above)."""
    return check_engine(engine, owner), check_entity_default(entity_id, owner), check_k(k, owner)


def _named(source: Any, keys: Sequence[str]) -> tuple[Any, str]:
    """The first of ``keys`` that ``source`` (a mapping, or any object with those attributes) sets to a
    value other than ``None``, and that key; ``(None, "")`` when none does."""
    if source is None:
        return None, ""
    for key in keys:
        value = source.get(key) if isinstance(source, Mapping) else getattr(source, key, None)
        if value is not None:
            return value, key
    return None, ""


def _from_config(config: Mapping[str, Any] | None) -> tuple[Any, str]:
    configurable = (config or {}).get("configurable")
    return _named(configurable if isinstance(configurable, Mapping) else None, ENTITY_KEYS)


def configured_entity_id(owner: str, config: Mapping[str, Any] | None) -> str | None:
    """The entity a run ``config`` names (``configurable.entity_id``, else ``configurable.user_id``), checked
    by :func:`check_adapter_entity_id` naming ``owner`` and the key; ``None`` when it names none.

    For an adapter that must read the config before the call that resolves the entity (LangChain's
    ``BaseRetriever`` does not hand its config on): pass the result as ``explicit`` to :func:`resolve_entity_id`,
    whose order it keeps (an explicit id, then the config, come before the runtime context)."""
    value, key = _from_config(config)
    return None if value is None else check_adapter_entity_id(value, f"{owner}: config['configurable']['{key}']")


def resolve_entity_id(
    owner: str,
    default: Any = None,
    *,
    explicit: Any = None,
    config: Mapping[str, Any] | None = None,
    context: Any = None,
    ways: Sequence[str] = (),
) -> str:
    """The entity whose memory to use, from the most specific source that names one: the one precedence of
    every adapter.

    Order: ``explicit`` (a per-call argument), the run ``config`` (``configurable.entity_id``, else
    ``configurable.user_id``), the runtime ``context`` (``entity_id``, else ``user_id``, of a mapping or an
    object), then ``default`` (the adapter's constructor argument): a source is read only when the ones
    before it name nobody, so a constructor's fallback never wins over an id the call names, whichever of
    the :data:`ENTITY_KEYS` names it.
    The id found is checked by :func:`check_adapter_entity_id` (an ``int`` is read as
    its ``str``; a bad one raises ``TypeError`` / ``ValueError`` naming the owner and
    the source, ``"MemoriMiddleware: the runtime context's user_id ..."``). When no
    source names one: ``ValueError("<owner> does not
    know whose memory to use: pass entity_id=... to <owner>(...), or <ways>")``,
    ``ways`` being the other sources this adapter reads (:data:`VIA_CONFIG`,
    :data:`VIA_CONTEXT`, or its own words).
    """
    in_config, config_key = _from_config(config)
    in_context, context_key = _named(context, ENTITY_KEYS)
    sources = (
        (explicit, "entity_id"),
        (in_config, f"config['configurable']['{config_key}']"),
        (in_context, f"the runtime context's {context_key}"),
        (default, "entity_id"),
    )
    for value, source in sources:
        if value is not None:
            return check_adapter_entity_id(value, f"{owner}: {source}")
    how = ", or ".join([f"pass entity_id=... to {owner}(...)", *ways])
    raise ValueError(f"{owner} does not know whose memory to use: {how}")
