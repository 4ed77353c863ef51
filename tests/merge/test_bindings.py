"""A new import or re-export that binds a name a kept top-level definition binds (bindings.py)."""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply
from fastapply.merge.bindings import bound_names

DECLS = '''\
/**
 * Compare two objects by their stable hash.
 */
declare function isEqual(a: any, b: any): boolean;

/**
 * The differences between two objects.
 */
declare function diff(a: any, b: any): string[];

export { diff, isEqual };
'''


def test_a_re_export_next_to_the_definition_it_replaces_is_refused() -> None:
    # the chunk now exports isEqual; the snippet starts with the new line, and its first marker
    # is left out: reading it as "the head stays" keeps the old declaration next to it
    snippet = ("export { i as isEqual } from '../shared/hash.mjs';\n\n/**\n * The differences between two objects.\n"
               "// ... existing code ...\nexport { diff };\n")
    with pytest.raises(ApplyError) as caught:
        apply(DECLS, snippet, filename="index.d.mts")
    assert caught.value.code == "ambiguous_anchor" and caught.value.line == 1
    assert "re-exports 'isEqual'" in caught.value.message and "original line 4" in caught.value.message


def test_an_import_of_a_name_the_file_defines_is_refused() -> None:
    original = "import { a } from './a.js';\n\nfunction helper(x) {\n  return x + 1;\n}\n\nexport function run(x) {\n" \
               "  return helper(a(x));\n}\n"
    snippet = "import { a } from './a.js';\nimport { helper } from './helpers.js';\n// ... existing code ...\n"
    with pytest.raises(ApplyError) as caught:
        apply(original, snippet, filename="run.js")
    assert caught.value.line == 2 and "imports 'helper'" in caught.value.message


def test_the_same_import_with_the_old_definition_gone_is_merged() -> None:
    original = "import { a } from './a.js';\n\nfunction helper(x) {\n  return x + 1;\n}\n\nexport function run(x) {\n" \
               "  return helper(a(x));\n}\n"
    snippet = "import { a } from './a.js';\nimport { helper } from './helpers.js';\n\nexport function run(x) {\n" \
              "// ... existing code ...\n"
    merged = apply(original, snippet, filename="run.js").merged_code
    assert "function helper" not in merged and "import { helper } from" in merged


def test_a_pair_the_original_already_had_is_not_this_merges_doing() -> None:
    original = "import { helper } from './helpers.js';\n\nfunction helper(x) {\n  return x;\n}\n\nconst y = 1;\n"
    snippet = "// ... existing code ...\nconst y = 2;\n"
    assert "const y = 2;" in apply(original, snippet, filename="odd.js").merged_code


@pytest.mark.parametrize("line, names", [
    ("export { i as isEqual } from '../x.mjs';", ["isEqual"]),
    ("import React, { useState } from 'react';", ["useState", "React"]),
    ("import * as path from 'path';", ["path"]),
    ("import type { A, B as C } from './t';", ["A", "C"]),
    ("export * from './a';", []),
    ("export { default } from './z';", []),
    ("from os import path", ["path"]),
    ("from a import b as c, d  # why", ["c", "d"]),
    ("from a import (b,", []),
])
def test_bound_names(line: str, names: list[str]) -> None:
    assert bound_names(line) == names


CODE_PYI = '''\
import sys
from codeop import CommandCompiler
from types import CodeType

class InteractiveConsole:
    def interact(self, banner: str | None = None) -> None: ...

def compile_command(source: str, filename: str = "<input>") -> CodeType | None: ...
'''


def test_an_edited_python_import_that_binds_a_kept_definitions_name_is_refused() -> None:
    """typeshed's code.pyi: the import line edited to also import `compile_command`, which the
    stub defined at its end; the snippet stops before that definition (a left-out last marker
    keeps it), so the module would bind the name twice: refused, naming both lines."""
    snippet = '''import sys
from codeop import CommandCompiler, compile_command as compile_command
from types import CodeType

class InteractiveConsole:
    def interact(self, banner: str | None = None) -> None: ...
'''
    with pytest.raises(ApplyError) as caught:
        apply(CODE_PYI, snippet, filename="code.pyi")
    assert caught.value.code == "ambiguous_anchor" and "line 2" in str(caught.value) and "line 8" in str(caught.value)
