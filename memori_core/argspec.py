"""Subcommands declared as data: the ``memori`` command's (:mod:`memori_core.cli`) and ``memori eval``'s tasks
(:mod:`memori_core.evaluation.cli`) are rows of :class:`Command`, each with its :class:`Argument` rows, added to
argparse by one function instead of one ``add_parser`` / ``add_argument`` / ``set_defaults`` sequence each."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["Argument", "Command", "OneOf", "Subparsers", "arg", "flag"]

Subparsers = Any
"""What ``ArgumentParser.add_subparsers()`` returns (argparse's ``_SubParsersAction``)."""


class _TakesArguments(Protocol):
    """An argparse parser, or a group of one: what an :class:`Argument` is added to."""

    def add_argument(self, *names: str, **options: Any) -> argparse.Action:
        """argparse's ``add_argument``."""
        ...

    def add_mutually_exclusive_group(self, *, required: bool = False) -> argparse._MutuallyExclusiveGroup:
        """argparse's ``add_mutually_exclusive_group``."""
        ...


@dataclass(frozen=True)
class Argument:
    """One ``add_argument`` call of a subcommand: the argument's names and keyword arguments."""

    names: tuple[str, ...]
    options: Mapping[str, Any]

    def add_to(self, parser: _TakesArguments) -> None:
        """Add this argument to ``parser`` (or to a group of it)."""
        parser.add_argument(*self.names, **self.options)


def arg(*names: str, **options: Any) -> Argument:
    """An argument of a subcommand, as ``add_argument(*names, **options)`` would add it."""
    return Argument(names, options)


def flag(*names: str, help: str) -> Argument:
    """An on/off option (``store_true``)."""
    return arg(*names, action="store_true", help=help)


@dataclass(frozen=True)
class OneOf:
    """Options of which at most one may be given (``required``: exactly one): an argparse mutually exclusive
    group."""

    arguments: tuple[Argument, ...]
    required: bool = False

    def add_to(self, parser: _TakesArguments) -> None:
        """Add the group and its options to ``parser``."""
        group = parser.add_mutually_exclusive_group(required=self.required)
        for argument in self.arguments:
            argument.add_to(group)


@dataclass(frozen=True)
class Command:
    """A subcommand: its ``name``, the ``handler`` its parsed arguments are given to (as ``args.func``), its one-line
    ``help`` (listed by the parent's ``--help``), its own ``--help``'s ``description``, and its ``arguments``, in the
    order its usage lists them."""

    name: str
    handler: Callable[[argparse.Namespace], int]
    help: str
    description: str | None = None
    arguments: tuple[Argument | OneOf, ...] = ()

    def add_to(self, commands: Subparsers) -> argparse.ArgumentParser:
        """Add this subcommand to ``commands``; its parser is returned, for options made when the parser is."""
        p: argparse.ArgumentParser = commands.add_parser(self.name, help=self.help, description=self.description)
        for argument in self.arguments:
            argument.add_to(p)
        p.set_defaults(func=self.handler)
        return p
