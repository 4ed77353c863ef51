"""Which original lines above a snippet's first line the snippet drops rather than leaves out.

A snippet that starts without a marker may start at its edit (a left-out first marker: the head
stays) or at the file's new first line (the lines above are gone). These tests say when the lines
above are what an edit removes: an obsolete encoding declaration or Python 2 `__future__` import,
a lone note, a `'use strict'` prologue, imports the edit left unused. Each is O(the lines it reads).
"""

from __future__ import annotations

import re

from .lines import COMMENT_STARTS, IDENTIFIER, bound_names, is_comment
from .segments import SnippetLine, is_gap

# A one-line import: JS/TS, Python, Rust `use`, CommonJS `require`.
_IMPORT = re.compile(r"^(?:import\s+\S.*(?:\bfrom\s*['\"`].*|['\"`];?)$|import\s+[\w.]+(?:\s+as\s+\w+)?$|"
                     r"from\s+[\w.]+\s+import\s+[^(]*$|use\s+[\w:{}, *]+;$|(?:const|let|var)\s+.*=\s*require\(.*\);?$)")


def deleted_head(head: list[str]) -> bool:
    """The lines above a snippet that starts without a marker and changes nothing else (edges._unedited):
    what it deletes (`from typing import Any`, no longer used), unless one is a directive, a
    notice or a `from __future__` import, which a snippet leaves out rather than deletes. O(lines)."""
    return not any(_DIRECTIVE.search(norm) or norm.startswith("from __future__") for norm in head if norm)


def import_head(head: list[str], first: str) -> bool:
    """The lines above a snippet that starts with an import, with no marker above, are imports
    too (at most edges.EDGE_LINES of them, from the file's first line): the snippet shows the file's
    import block without them, so they are deleted (d3-shape dropped `import {path} from
    "d3-path"` and added `import {withPath}` below: a left-out first marker would have the model
    start its import block on its second line). The caller asks for a
    marker at the snippet's end, or the file's end and an edit: open at both ends and changing
    nothing, there is no telling which end it cuts. Python 2's `__future__` imports among them go
    too (webassets' spritemapper: two of them over `from webassets.six import StringIO`, which the
    snippet's `from io import StringIO` replaced), but never the ones that still act; an import
    wrapped in parentheses is one (eth-account's `from typing import (`, `Union,`, `)`). O(lines)."""
    solid = [norm for norm in head if norm]
    current = [norm for norm in _joined_imports(head) if not _PY2_FUTURE.match(norm)]  # (obsolete: they go too)
    return bool(current) and _imports_only(current) and head[0] == solid[0] \
        and bool(_IMPORT.match(first) or _WRAPPED_IMPORT.match(first))


def imports_left_unused(head: list[str], items: list[SnippetLine], pairs: dict[int, int], onorm: list[str]) -> bool:
    """The lines above a snippet with markers are imports whose names the file uses only inside
    the stretches the snippet's parts rewrite (from each part's first paired line to its last),
    and the snippet does not use: the edit removed their last use, and the import with it
    (typeshed's ldap3 stub dropped `Incomplete` from a signature and its import). O(n + m)."""
    start = len(head)
    if not unused_imports(head, onorm[start:], items):
        return False
    covered = [0] * (len(onorm) + 1)  # +1 where a part's stretch opens, -1 past its end
    part: list[int] = []
    for s, item in enumerate([*items, SnippetLine("", "implicit")]):
        if is_gap(item) and part:
            covered[min(part)] += 1
            covered[max(part) + 1] -= 1
            part = []
        elif s in pairs:
            part.append(pairs[s])
    depth, outside = 0, []
    for o, norm in enumerate(onorm):
        depth += covered[o]
        if o >= start and depth == 0 and norm:
            outside.append(norm)
    names = {name for norm in _joined_imports(head) for name in _imported_names(norm)}
    return not names & set(IDENTIFIER.findall("\n".join(outside)))


def unused_imports(head: list[str], rest: list[str], items: list[SnippetLine]) -> bool:
    """Every code line of `head` is an import (never `from __future__`) whose names the rest of
    the original uses and no snippet line mentions: the edit removed their last use (an import
    the file never used says nothing), or one the snippet writes again below. O(file and snippet
    text + head names)."""
    solid = _joined_imports(head)
    if not _imports_only(solid):
        return False
    # (an import the snippet writes again, further down its own import list, moved: joserfc's
    # `import json` over `import hashlib`, which the snippet lists first)
    written = {item.norm for item in items if item.kind == "code"}
    names = [name for norm in solid if norm not in written for name in _imported_names(norm)]
    if not names:
        return False
    # (prose in the snippet's comments names no import: nuxt's doc comment "The hash binds the
    # response" over `digest(...)`, which replaced the last call of the imported `hash`)
    words = set(IDENTIFIER.findall("\n".join(item.norm for item in items
                                             if item.kind == "code" and not is_comment(item.norm))))
    used = set(IDENTIFIER.findall("\n".join(rest)))
    return all(name in used and name not in words for name in names)


def imports_only(norms: list[str]) -> bool:
    """The non-blank lines of `norms` are imports only (a Python import wrapped in parentheses
    counted as one). O(lines)."""
    return _imports_only(_joined_imports(norms))


def head_statements(head: list[str]) -> int:
    """The statements of `head`, a Python import wrapped in parentheses counted once. O(lines)."""
    return len(_joined_imports(head))


# the first line of a Python import wrapped in parentheses
_WRAPPED_IMPORT = re.compile(r"^from\s+[\w.]+\s+import\s*\($")


def _joined_imports(head: list[str]) -> list[str]:
    """The non-blank lines of `head`, a Python import wrapped in parentheses (`from typing import (`,
    `Union,`, `)`) joined into one line (`from typing import Union`) so that it reads as the one-line
    imports do (eth-hash's last `Union[...]` rewritten as `bytearray | bytes`). O(lines)."""
    joined: list[str] = []
    wrapped: list[str] | None = None
    for norm in head:
        if not norm:
            continue
        if wrapped is not None:
            if norm.startswith(")"):
                joined[-1] += " " + ", ".join(wrapped)
                wrapped = None
            else:
                wrapped.extend(part.strip() for part in norm.split("#")[0].split(",") if part.strip())
        elif _WRAPPED_IMPORT.match(norm):
            joined.append(norm[:-1].rstrip())
            wrapped = []
        else:
            joined.append(norm)
    return joined if wrapped is None else [norm for norm in head if norm]


def rebound_head(head: list[str], lead: list[str], rest: list[str]) -> bool:
    """The original lines above the snippet's first pair (`head`, as written) are top-level
    assignments of names that the snippet's new first lines (`lead`) bind again, and imports that
    only those assignments used: the snippet's head replaces them (linkify-it-py's `SRC_ANY =
    Any.REGEX` and four more became `from ._ucre_data import SRC_ANY, ...`; kept, each name would be
    bound twice). O(lines above + the file's text)."""
    new = {name for norm in lead for name in [*_imported_names(norm), assigned_name(norm)] if name}
    used = set(IDENTIFIER.findall("\n".join(norm for norm in rest if not norm.startswith(COMMENT_STARTS))))
    rebound = False
    for line in head:
        if not line.strip():
            continue
        if line[:1].isspace():
            return False
        assigned = assigned_name(line)
        if assigned:
            if assigned not in new:
                return False
            rebound = True
        elif not _IMPORT.match(line) or set(_imported_names(line)) & used or not _imported_names(line):
            return False
    return rebound


def redeclared_head(head: list[str], items: list[SnippetLine], pairs: dict[int, int]) -> bool:
    """The original lines above a snippet whose first line is its first pair (no marker above) are
    a few top-level declarations or imports, each of whose names a new top-level line of the
    snippet declares again, further down (jwa's `var bufferEqual = require(...)` became a lazy
    `var bufferEqual;` above the function that loads it): the snippet moved the binding, and
    kept, the module would declare it twice. O(lines above + the snippet's lines)."""
    solid = [line for line in head if line.strip()]
    if not solid or any(line[:1].isspace() or line.strip().startswith(COMMENT_STARTS) for line in solid):
        return False
    new = {name for s, item in enumerate(items) if item.kind == "code" and s not in pairs
           and not item.text[:1].isspace() for name in _declared(item.norm)}
    return all((names := _imported_names(line.strip()) or _declared(line.strip())) and set(names) <= new
               for line in solid)


def rebound_imports(head: list[str], lead: list[str]) -> bool:
    """The original lines above the snippet's first pair are one-line imports, each of whose names
    the snippet's new first lines declare again (string-length's `import {stripVTControlCharacters}
    from 'node:util'` became `const {stripVTControlCharacters} = globalThis.process?...`): kept, a
    JavaScript module would bind the name twice, a syntax error, and a Python one would shadow a
    dead import; the head is what those lines replace, even where the snippet's new lines read as
    definitions of their own. O(lines above + the snippet's first lines)."""
    new = {name for norm in lead for name in [*_imported_names(norm), *_declared(norm), _function(norm)] if name}
    solid = [line.strip() for line in head if line.strip()]
    return bool(new) and _imports_only(solid) and all(
        (names := _imported_names(norm)) and set(names) <= new for norm in solid)


_FUNCTION = re.compile(r"^(?:export\s+)?(?:async\s+)?(?:function\*?|class)\s+([A-Za-z_$][\w$]*)")


def _function(norm: str) -> str | None:
    """The name a JS/TS function or class declaration binds (birpc's bundle inlined
    `function createPromiseWithResolvers()` in the place of the import of that name)."""
    found = _FUNCTION.match(norm)
    return found.group(1) if found else None


# a top-level assignment's name (Python, or a JS/TS declaration)
_ASSIGNED = re.compile(r"^(?:export\s+)?(?:(?:const|let|var)\s+([A-Za-z_$][\w$]*)|([A-Za-z_]\w*)\s*(?::[^=]+)?=(?!=))")


def assigned_name(line: str) -> str | None:
    """The name a top-level assignment or JS/TS declaration binds (`values = (...)`, `const x = 4;`)."""
    found = _ASSIGNED.match(line)
    return (found.group(1) or found.group(2)) if found else None


# a JS/TS declaration that destructures: `const {a, b: c, ...d} = ...`
_DESTRUCTURED = re.compile(r"^(?:export\s+)?(?:const|let|var)\s*\{([^}]*)\}\s*=")


def _declared(line: str) -> list[str]:
    """The names a top-level assignment or declaration binds, destructuring included."""
    found = _DESTRUCTURED.match(line)
    if found:
        names = (part.split(":")[-1].split("=")[0].strip().removeprefix("...") for part in found.group(1).split(","))
        return [name for name in names if IDENTIFIER.fullmatch(name)]
    name = assigned_name(line)
    return [name] if name else []


def _imports_only(solid: list[str]) -> bool:
    """`solid` (non-blank lines) holds one-line imports only, none of them `from __future__`."""
    return bool(solid) and all(_IMPORT.match(norm) and not norm.startswith("from __future__") for norm in solid)


def _imported_names(norm: str) -> list[str]:
    """The names a one-line import binds: Python's `import a.b` and CommonJS's `require` here,
    `from a import b, c as d` and JS/TS imports in lines.bound_names; [] when unsure."""
    if norm.startswith("import ") and not _JS_LIKE.search(norm):
        return [part.split(" as ")[-1].strip().split(".")[0] for part in norm[7:].split(",")]
    if _REQUIRE.match(norm):
        return _declared(norm)  # CommonJS: `var stripAnsi = require('strip-ansi');`, `const {a, b} = require(...)`
    return bound_names(norm)


_REQUIRE = re.compile(r"^(?:const|let|var)\s+[^=]+=\s*require\(")


_JS_LIKE = re.compile(r"['\"`{]|\bfrom\b")


# PEP 263's encoding declaration (`# -*- coding: utf-8 -*-`), which Python 3 no longer needs
_ENCODING = re.compile(r"^#.*?coding[:=]\s*[-\w.]+")


# Python 2's `from __future__` imports, no-ops in Python 3 (not `annotations`, which still acts)
_PY2_FUTURE = re.compile(r"^from __future__ import (?:(?:absolute_import|division|print_function|unicode_literals|"
                         r"with_statement|generators|nested_scopes)(?:,\s*|\s*$))+$")


# what a first comment line says to a tool, or about the file's rights: never dropped by a guess (a shebang
# alone goes only with prologue_head's evidence)
_DIRECTIVE = re.compile(r"^#!|coding[:=]|spdx|copyright|licen[cs]e|@ts-|eslint|jshint|@flow|-\*-|vim:|pylint|mypy|"
                        r"noqa|fmt:|isort|pragma|do not edit|@generated|@preserve|nolint|prettier", re.IGNORECASE)


def note_head(head: list[str]) -> bool:
    """True when the original lines above the snippet's first line are one comment line (and
    blank lines) that is no directive or notice: a snippet that starts right below it, with the
    file's head, drops it (`// This file has been generated from mustache.mjs`, gone in the next
    release); a shebang, an encoding, a licence or a linter's line stays."""
    line = _lone_first(head)
    return line is not None and line.startswith(COMMENT_STARTS) and not _DIRECTIVE.search(line)


# a file-wide "skip this file's warnings" line of a Python linter (an eslint or `@ts-check` line stays:
# test_round_seven; no real edit dropped one so far)
# (or a directive for the next line only, which the snippet's first line is: `// eslint-disable-next-line
# @typescript-eslint/triple-slash-reference` over `/// <reference lib='dom' />`; a file-wide
# `/* eslint-disable */` stays)
_LINTER = re.compile(r"^(?:#\s*(?:(?:flake8|ruff)\s*:\s*)?noqa\b|//\s*eslint-disable-next-line\b|#\s*pylint:\s*disable(?:-next)?\b|"
                     r"#\s*fmt:\s*off$)", re.IGNORECASE)


def linter_head(head: list[str]) -> bool:
    """True when the one line above the snippet's first line is the file's first, only blank lines
    between, and a comment that only tells a linter or formatter something about the file (`#
    flake8: noqa`, `# ruff: noqa: PLC0414`, `# pylint: disable=...`, black's `# fmt: off`): a
    snippet that starts on the next code line, with the file's head, drops it (mac_alias and
    array-api-compat did; ase dropped `# fmt: off` from a hundred modules when it took up a
    formatter; openbb a file-wide pylint line); a shebang, an encoding, a licence or another tool's
    directive stays. O(lines above)."""
    return bool(head) and bool(_LINTER.match(head[0])) and not any(head[1:])


_NOTICE = re.compile(r"spdx|copyright|licen[cs]e", re.IGNORECASE)


def rewritten_notice(head: list[str], lead: list[str]) -> bool:
    """True when the original lines above the snippet's first pair are the file's head comment, a
    notice (copyright, licence, SPDX), and the snippet's lines above that pair are comment lines
    with a notice too: the file's notice rewritten (flask-webpackext's licence block turned into
    three `# SPDX-...` lines), not a comment added under it. A module docstring counts as comment
    lines on either side (qasync's `# © ...` lines and one-line docstring turned into a docstring
    with `Copyright (c) ...` lines). O(lines above)."""
    solid, new = [norm for norm in head if norm], [norm for norm in lead if norm]
    return bool(solid) and bool(new) and head[0] == solid[0] and _commentary(solid) and _commentary(new) \
        and any(_NOTICE.search(norm) for norm in solid) and any(_NOTICE.search(norm) for norm in new)


def _commentary(norms: list[str]) -> bool:
    """Every line is a comment or inside a docstring (one opened and closed among the lines,
    Python's triple quotes). O(lines)."""
    quote = ""
    for norm in norms:
        if quote:
            quote = "" if norm.endswith(quote) else quote
        elif norm.startswith(('"""', "'''")):
            closed = len(norm) >= 6 and norm.endswith(norm[:3])
            quote = "" if closed else norm[:3]
        elif not norm.startswith(COMMENT_STARTS):
            return False
    return not quote


_USE_STRICT = re.compile(r"""^(['"])use strict\1;?$""")


def prologue_head(head: list[str], unedited: bool) -> bool:
    """True when the one line above the snippet's first line is the file's first and a snippet
    starting on the very next line drops it: a `'use strict'` prologue (to-fast-properties and
    koa's cors going to ES modules), or a shebang when the snippet changes nothing else, which
    would make it a no-op otherwise (elementpath's module that is no script). A shebang above a
    snippet that edits the head stays: the model may have left out its first marker. O(lines above)."""
    line = _lone_first(head)
    return line is not None and (bool(_USE_STRICT.match(line)) or unedited and line.startswith("#!"))


def _lone_first(head: list[str]) -> str | None:
    """The one non-blank line of `head` when it is the file's first line, else None. O(lines)."""
    solid = [norm for norm in head if norm]
    return solid[0] if len(solid) == 1 and head[0] == solid[0] else None


def obsolete_head(head: list[str]) -> bool:
    """True when the original lines above the snippet's first line are an encoding declaration
    (under a Python shebang or not) and/or Python 2's `from __future__` imports, and blank lines:
    a snippet that starts right below them, with the file's head, drops them (what pyupgrade
    does, and how release diffs read) rather than leaving out a first marker."""
    solid = [norm for norm in head if norm]
    if not solid or head[0] != solid[0]:
        return False
    if len(solid) >= 2 and _PY_SHEBANG.match(solid[0]) and _ENCODING.match(solid[1]):
        solid = solid[1:]  # (Python 2's two-line boilerplate: pyannote dropped both from its modules)
    rest = solid[1:] if _ENCODING.match(solid[0]) else solid  # (empty: the declaration alone)
    return len(rest) <= 2 and all(_PY2_FUTURE.match(norm) for norm in rest)


_PY_SHEBANG = re.compile(r"^#!\s*/usr/(?:local/)?bin/(?:env\s+)?python\d?(?:\.\d+)?$")


def tail_of_dropped_import(items: list[SnippetLine], pairs: dict[int, int], last_o: int, onorm: list[str]) -> bool:
    """A one-line import of the snippet edits the original's (the one it is paired with, or the
    only one from the same module) and binds fewer names, and every original line that reads a
    name it dropped lies past original line `last_o`, where a snippet without a last marker ends,
    and no snippet line mentions it: the edit deleted that tail with the import's last use
    (django-tasks' `save_metadata` methods, the only readers of `Any`). O(n) per unpaired snippet
    import and per dropped name, plus O(m) once: imports are few, and most are paired."""
    words: set[str] | None = None
    for s, item in enumerate(items):
        if item.kind != "code" or not _IMPORT.match(item.norm) or item.norm.startswith("from __future__"):
            continue
        o = pairs.get(s)
        if o is None:
            module = item.norm.split(" import ", 1)[0] + " import "
            same = [k for k, norm in enumerate(onorm) if norm.startswith(module)] if item.norm.startswith("from ") else []
            o = same[0] if len(same) == 1 else None
        if o is None or o > last_o or onorm[o] == item.norm or not _IMPORT.match(onorm[o]):
            continue
        dropped = set(_imported_names(onorm[o])) - set(_imported_names(item.norm))
        if not dropped:
            continue
        if words is None:
            words = set(IDENTIFIER.findall("\n".join(i.norm for i in items if i.kind == "code")))
        for name in dropped - words:
            readers = [k for k, norm in enumerate(onorm) if k != o and name in norm
                       and name in IDENTIFIER.findall(norm)]
            if readers and min(readers) > last_o:
                return True
    return _deleted_import_tail(items, pairs, last_o, onorm)


def _deleted_import_tail(items: list[SnippetLine], pairs: dict[int, int], last_o: int, onorm: list[str]) -> bool:
    """The same for an import the snippet deletes whole: an original import line between two
    lines the snippet pairs one after the other (no marker between), whose names no snippet line
    mentions and every other original line reading them lies past `last_o` (airflow's
    `init_middlewares` without its local `import HttpAccessLogMiddleware`, whose one use ended
    the function; comments naming it aside). O(the lines between the pairs + n per deleted import)."""
    ordered = sorted(pairs.items())
    words: set[str] | None = None
    for (s1, o1), (s2, o2) in zip(ordered, ordered[1:]):
        if o2 <= o1 + 1 or any(items[k].kind in ("marker", "implicit") for k in range(s1 + 1, s2)):
            continue
        for o in range(o1 + 1, o2):
            if not _IMPORT.match(onorm[o]) or onorm[o].startswith("from __future__"):
                continue
            names = _imported_names(onorm[o])
            if words is None:  # (code only: a comment naming the class reads nothing)
                words = set(IDENTIFIER.findall("\n".join(i.norm for i in items if i.kind == "code"
                                                         and not i.norm.startswith(COMMENT_STARTS))))
            for name in set(names) - words:
                readers = [k for k, norm in enumerate(onorm) if k != o and name in norm
                           and not norm.startswith(COMMENT_STARTS) and name in IDENTIFIER.findall(norm)]
                if readers and min(readers) > last_o:
                    return True
    return False
