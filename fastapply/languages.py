"""Which language a file is in, and what the merge engine needs to know about each language.

The registry is built from the declarative entries in `grammars/*.toml` (shipped as the package
`fastapply.grammars`) the first time it is needed. tree-sitter and the grammar wheels are imported
only when a parser is asked for, so `import fastapply` stays light.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from importlib import import_module, resources
from pathlib import PurePath
from typing import Any

import msgspec

from .errors import ErrorCode, InputError


class LanguageSpec(msgspec.Struct, kw_only=True, frozen=True):
    """One language: how to recognise it, how it comments, and which syntax nodes define names."""

    name: str
    extensions: list[str]
    grammar: str | None = None
    grammar_function: str = "language"
    aliases: list[str] = []
    filenames: list[str] = []
    shebangs: list[str] = []
    line_comments: list[str] = []
    block_comments: list[list[str]] = []
    # "braces" (C family), "indent" (Python, YAML), "end" (Ruby, Lua), "tags" (HTML)
    block_style: str = "braces"
    definitions: list[str] = []
    content_hints: list[str] = []
    # element node kind -> language of its raw text (HTML's <script> and <style>)
    embedded: dict[str, str] = {}

    def ts_language(self) -> Any:
        """The tree-sitter Language (cached), or None when the grammar wheel is missing."""
        return _ts_language(self.grammar, self.grammar_function) if self.grammar else None

    def parser(self) -> Any:
        """A tree-sitter Parser for this language (cached), or None without a grammar."""
        return _ts_parser(self.grammar, self.grammar_function) if self.grammar else None


@cache
def _registry() -> dict[str, LanguageSpec]:
    specs: dict[str, LanguageSpec] = {}
    for entry in sorted(resources.files("fastapply.grammars").iterdir(), key=lambda p: p.name):
        if entry.name.endswith(".toml"):
            spec = msgspec.convert(tomllib.loads(entry.read_text(encoding="utf-8")), LanguageSpec)
            specs[spec.name] = spec
    return specs


@cache
def _aliases() -> dict[str, str]:
    table: dict[str, str] = {}
    for spec in _registry().values():
        for alias in (spec.name, *spec.aliases):
            table[alias.lower()] = spec.name
    return table


@cache
def _extensions() -> dict[str, str]:
    table: dict[str, str] = {}
    for spec in _registry().values():
        for ext in spec.extensions:
            table.setdefault(ext.lower(), spec.name)
    return table


@cache
def _ts_language(module: str, function: str) -> Any:
    try:
        from tree_sitter import Language

        return Language(getattr(import_module(module), function)())
    except (ImportError, AttributeError, ValueError):
        return None


@cache
def _ts_parser(module: str, function: str) -> Any:
    language = _ts_language(module, function)
    if language is None:
        return None
    from tree_sitter import Parser

    return Parser(language)


def language_names() -> list[str]:
    """Every language the registry knows, sorted."""
    return sorted(_registry())


def get_language(name: str) -> LanguageSpec:
    """The spec for a language name or alias; InputError(unknown_language) when there is none."""
    canonical = _aliases().get(name.lower())
    if canonical is None:
        raise InputError(f"unknown language {name!r}; known: {', '.join(language_names())}",
                         code=ErrorCode.UNKNOWN_LANGUAGE)
    return _registry()[canonical]


def find_language(name: str | None) -> LanguageSpec | None:
    """Like get_language, but None for unknown names (the engine then uses its fallback merge)."""
    if not name:
        return None
    canonical = _aliases().get(name.lower())
    return _registry()[canonical] if canonical else None


def detect_language(filename: str | None = None, content: str | None = None,
                    language: str | None = None) -> str | None:
    """The language name: from `language`, else the filename, else the content, else None."""
    if language:
        return _aliases().get(language.lower(), language.lower())
    if filename:
        found = _from_filename(filename)
        if found:
            return found
    if content:
        return _from_content(content)
    return None


def _from_filename(filename: str) -> str | None:
    path = PurePath(filename)
    for spec in _registry().values():
        if path.name in spec.filenames:
            return spec.name
    return _extensions().get(path.suffix.lower())


def _from_content(content: str) -> str | None:
    head = content[:4000]
    first = head.split("\n", 1)[0]
    if first.startswith("#!"):
        words = re.split(r"[\s/]+", first[2:])
        for spec in _registry().values():
            if any(word.rstrip("0123456789.") in spec.shebangs for word in words if word):
                return spec.name
    if first.lstrip().startswith("<?php"):
        return "php"
    best, best_score = None, 0
    for spec in _registry().values():
        score = sum(1 for hint in spec.content_hints if re.search(hint, head, re.MULTILINE))
        if score > best_score:
            best, best_score = spec.name, score
    return best if best_score >= 2 else None
