"""Issue 8, ninth round: what real release edits of batch tune-16 showed.

Each case is written in the shape the failing cases had (an unused import dropped from a file's
head, an `elif` added before an `else:` with a marker under it), with code of our own.
"""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply

HEAD = '''\
from typing import Any
from .helpers import numbers, strings


LIMIT = 12
MESSAGE = "cannot stabilise {} ({})"


class Base:
    numbers = numbers
    strings = strings

    def describe(self) -> str:
        return MESSAGE.format(self.numbers, self.strings)
'''


@pytest.mark.parametrize("snippet", [
    "from .helpers import numbers, strings\n# ... existing code ...\n",
    "from .helpers import numbers, strings\n\n\nLIMIT = 12\n# ... existing code ...\n",
    "from .helpers import numbers, strings\n\n\nLIMIT = 12\n// ... existing code ...\n",
])
def test_a_snippet_that_only_leaves_out_the_first_line_deletes_it(snippet: str) -> None:
    """Starting one line below the file's head, with no marker above, and changing nothing else:
    the line above is what the snippet deletes (read as "a marker left out", it would change nothing)."""
    assert apply(HEAD, snippet).merged_code == HEAD.replace("from typing import Any\n", "")


def test_a_snippet_that_starts_on_the_second_import_deletes_the_first() -> None:
    """The same start with an edit further down (tenth round; the ninth kept the head here, a
    guess that release data contradicted): a snippet that opens with the file's import block minus
    its first imports deletes them (d3-shape dropped `import {path} from "d3-path"` and edited code
    below in five files; safety dropped two imports). Read as a left-out first marker, the model
    would have begun its import block on its second line."""
    snippet = "from .helpers import numbers, strings\n\n\nLIMIT = 13\n# ... existing code ...\n"
    expected = HEAD.replace("LIMIT = 12", "LIMIT = 13").replace("from typing import Any\n", "")
    assert apply(HEAD, snippet).merged_code == expected


JS_HEAD = """\
import {path} from "d3-path";
import constant from "./constant.js";

export default function(x) {
  return constant(x);
}
"""


@pytest.mark.parametrize("head", ["// Copyright 2024 The Authors\n", "const LIMIT = 3;\n"])
def test_a_head_that_is_not_an_import_stays(head: str) -> None:
    """Only imports above an import: a notice or code above the snippet's first import is a left-out
    first marker's, and stays. (A `"use strict"` prologue was here too until the fourteenth round:
    release data showed snippets that start right under it dropping it, test_round_fourteen.)"""
    original = head + JS_HEAD
    snippet = 'import {path} from "d3-path";\nimport constant from "./constant.js";\nimport {pi} from "./math.js";\n' \
              "// ... existing code ...\n"
    assert apply(original, snippet, filename="a.js").merged_code == original.replace(
        'constant.js";\n', 'constant.js";\nimport {pi} from "./math.js";\n')


def test_imports_above_a_snippets_first_import_are_deleted_in_javascript() -> None:
    snippet = 'import constant from "./constant.js";\nimport {withPath} from "./path.js";\n// ... existing code ...\n'
    expected = JS_HEAD.replace('import {path} from "d3-path";\n', "").replace(
        'constant.js";\n', 'constant.js";\nimport {withPath} from "./path.js";\n')
    assert apply(JS_HEAD, snippet, filename="a.js").merged_code == expected


TAIL = '''\
def first() -> int:
    return 1


def second() -> int:
    return 2


__all__ = ["first", "second"]
'''


def test_a_snippet_that_only_stops_short_of_the_last_line_deletes_it() -> None:
    """A last part of unchanged lines after a marker ends the file (fourteenth round: protobuf's
    stub dropped `SkipField: Any` with exactly this snippet; this test said the opposite before,
    with no data behind it). Read as a left-out last marker, the snippet would change nothing."""
    snippet = "# ... existing code ...\ndef second() -> int:\n    return 2\n"
    assert apply(TAIL, snippet).merged_code == TAIL.split("\n\n\n__all__")[0] + "\n"


@pytest.mark.parametrize("head", ["from __future__ import annotations\n", "# SPDX-License-Identifier: MIT\n"])
def test_a_snippet_that_only_leaves_out_a_directive_keeps_it(head: str) -> None:
    # (a shebang was here too until the fourteenth round: elementpath's release dropped one with a
    # snippet like this, which would change nothing otherwise; test_round_fourteen)
    original = head + HEAD.replace("from typing import Any\n", "")
    snippet = "from .helpers import numbers, strings\n# ... existing code ...\n"
    assert apply(original, snippet).merged_code == original


def test_a_snippet_open_at_both_ends_that_changes_nothing_is_no_deletion() -> None:
    """Open at both ends there is no telling which end it cuts: nothing is deleted."""
    original = HEAD + TAIL
    snippet = "from .helpers import numbers, strings\n# ... existing code ...\ndef second() -> int:\n    return 2\n"
    assert apply(original, snippet).merged_code == original


PUT = '''\
def put(obj: list, elem: int, value: object, fill: object = None) -> list:
    try:
        obj[elem] = value
    except IndexError:
        if elem == len(obj):
            obj.append(value)
        else:
            raise
    return obj


def get(obj: list, elem: int) -> object:
    return obj[elem]
'''

ELIF = '''\
        elif fill is not None:
            obj.extend([fill] * (elem - len(obj)))
            obj.append(value)
'''


@pytest.mark.parametrize("marker", ["# ... existing code ...", "    # ... existing code ...",
                                    "        # ... existing code ..."])
def test_an_elif_added_above_an_else_keeps_the_else(marker: str) -> None:
    """The snippet shows the `if` up to the `elif` it adds, then a marker at a shallower
    indentation (or at column 0): the marker stands for the `else:` the snippet does not show."""
    snippet = ("# ... existing code ...\n    except IndexError:\n        if elem == len(obj):\n"
               f"            obj.append(value)\n{ELIF}{marker}\n")
    expected = PUT.replace("            obj.append(value)\n        else:",
                           f"            obj.append(value)\n{ELIF}        else:")
    assert apply(PUT, snippet).merged_code == expected


def test_a_rewritten_if_body_before_an_else_keeps_the_else() -> None:
    """A marker at the `if`'s own indentation after its new body: the body is replaced, the
    `else:` after it is what the marker stands for."""
    snippet = ("# ... existing code ...\n    except IndexError:\n        if elem == len(obj):\n"
               "            obj.insert(elem, value)\n        # ... existing code ...\n")
    expected = PUT.replace("            obj.append(value)\n        else:",
                           "            obj.insert(elem, value)\n        else:")
    assert apply(PUT, snippet).merged_code == expected


def test_a_reordered_snippet_with_an_elif_keeps_the_else() -> None:
    """The same edit with an import added in a part written after it (segments out of file order)."""
    original = "import copy\nimport logging\nfrom functools import partial\n\n\n" + PUT
    snippet = ("# ... existing code ...\n    except IndexError:\n        if elem == len(obj):\n"
               f"            obj.append(value)\n{ELIF}# ... existing code ...\nimport copy\nimport logging\n"
               "from functools import partial\nfrom typing import Any\n# ... existing code ...\n")
    expected = original.replace("partial\n", "partial\nfrom typing import Any\n").replace(
        "            obj.append(value)\n        else:", f"            obj.append(value)\n{ELIF}        else:")
    assert apply(original, snippet).merged_code == expected


def test_a_rewritten_if_body_with_its_else_shown_replaces_both() -> None:
    """The snippet shows the `else:` itself: the whole statement is the snippet's, nothing of the
    original's is kept twice (as before this round; the `else:` rule above must not change it)."""
    original = PUT.replace("    return obj\n", "    for item in obj:\n        if item is None:\n            continue\n"
                           "        else:\n            break\n    return obj\n")
    snippet = ("# ... existing code ...\n    except IndexError:\n        if elem == len(obj):\n"
               "            # grow by one\n            obj.insert(elem, value)\n\n        else:\n            raise\n"
               "    # ... existing code ...\n")
    expected = original.replace("            obj.append(value)\n        else:",
                                "            # grow by one\n            obj.insert(elem, value)\n\n        else:")
    assert apply(original, snippet).merged_code == expected


HASHED = '''\
import { s as serialize } from '../shared/hash.A1b2C3d4.mjs';

function isEqual(a, b) {
  if (a === b) {
    return true;
  }
  return serialize(a) === serialize(b);
}

function diff(a, b) {
  const left = toHashed(a);
  const right = toHashed(b);
  return compare(left, right);
}

export { diff, isEqual };
'''


def test_an_import_from_a_renamed_module_is_an_edit_of_the_files_first_line() -> None:
    """A bundle's chunk renamed (`hash.A1b2C3d4.mjs` -> `hash.Z9y8X7w6.mjs`), a function moved out:
    the snippet's first line imports the same names from the new chunk, so it starts at the
    file's head (not a new line above a left-out marker), and what it leaves out up to its next
    line goes."""
    snippet = ("import { s as serialize } from '../shared/hash.Z9y8X7w6.mjs';\n"
               "export { i as isEqual } from '../shared/hash.Z9y8X7w6.mjs';\n\n"
               "function diff(a, b) {\n  const left = toHashed(a);\n// ... existing code ...\n"
               "export { diff };\n")
    expected = ("import { s as serialize } from '../shared/hash.Z9y8X7w6.mjs';\n"
                "export { i as isEqual } from '../shared/hash.Z9y8X7w6.mjs';\n\n"
                + HASHED[HASHED.index("function diff"):].replace("export { diff, isEqual };", "export { diff };"))
    assert apply(HASHED, snippet, filename="index.mjs").merged_code == expected


def test_names_from_another_module_or_other_names_are_no_edit() -> None:
    from fastapply.merge.similar import edited_version

    assert edited_version("from pkg.new import a, b", "from pkg.old import a, b")
    assert not edited_version("export * from './a.mjs'", "export * from './b.mjs'")
    assert not edited_version("import x from 'a'", "import y from 'a'")


EXPORTS = '''\
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const build = (options) => {
    return options.join
        ? joinPath
        : joinPathWithBasePath;
};
exports.build = build;
exports.joinPath = joinPath;
exports.joinPathWithBasePath = joinPathWithBasePath;
exports.defaults = { join: true };
'''


def test_four_statements_moved_from_the_files_end_leave_it() -> None:
    """The file's last four statements written higher up in a snippet that ends without a marker
    on the line above them: it moved them (three was the limit; ansi-styles moved four `export
    const` lines above a function). Asked of the edge rule itself: whole merges of such snippets
    also need their parts placed, which depends on more than this rule."""
    from fastapply.merge.tails import moved_tail
    from fastapply.merge.segments import SnippetLine

    orig = EXPORTS.splitlines()
    onorm = [line.strip() for line in orig]
    moved = orig[7:]  # the four exports
    lines = orig[:2] + moved + orig[2:7]
    items = [SnippetLine(text, "code", text.strip(), n) for n, text in enumerate(lines, 1)]
    pairs = {0: 0, 1: 1, **{6 + k: 2 + k for k in range(5)}}  # the exports moved: not paired
    assert moved_tail(items, pairs, 6, onorm)
    assert not moved_tail(items[:2] + items[6:], {0: 0, 1: 1, **{2 + k: 2 + k for k in range(5)}}, 6, onorm)


PARSER = '''\
class Parser {
  onHeader(name, value) {
    if (this._done) {
      if (this._fileStream) {
        this._fileStream.end();
      }
      this._complete = true;
      this._parser = ignoreData;
      // end the stream now: the trailer data that may
      // follow is of no use to anyone
      this.end();
      return;
    }
    this._headers[name] = value;
  }
}
'''


def test_a_bare_exit_before_a_marker_above_a_comment_and_code_is_refused() -> None:
    """The snippet ends its part with `return;` and a marker: read as a new line, it would put the
    kept `this.end()` (under a comment) where it can never run. The comment no longer hides that;
    the merge is refused (it may also mean: the three lines between go)."""
    snippet = ("    // ... existing code ...\n      this._complete = true;\n      this._parser = ignoreData;\n"
               "      return;\n    // ... existing code ...\n")
    with pytest.raises(ApplyError) as caught:
        apply(PARSER, snippet, filename="multipart.js")
    assert caught.value.line == 4 and "this.end();" in caught.value.message


def test_a_new_exit_above_a_comment_and_a_closing_line_is_merged() -> None:
    snippet = ("    // ... existing code ...\n      if (this._fileStream) {\n        this._fileStream.end();\n"
               "        return;\n      }\n    // ... existing code ...\n")
    merged = apply(PARSER, snippet, filename="multipart.js").merged_code
    assert merged == PARSER.replace("this._fileStream.end();\n", "this._fileStream.end();\n        return;\n")


AUTH = '''\
def authenticate(handshake, username, password=None, is_change_user=False):
    """Performs the authentication phase.

    Args:
        handshake: Initial handshake.
        is_change_user: Whether this is a `change user` request.

    Returns:
        ok_packet: OK packet.
    """
    return handshake.ok(username, password)
'''


def test_new_docstring_lines_glued_to_the_next_section_stay_glued() -> None:
    """A blank line inside a docstring is part of the string: new lines the snippet writes right
    above `Returns:` replace the blank line the file had there (mysql-connector's release)."""
    snippet = ('    # ... existing code ...\n        is_change_user: Whether this is a `change user` request.\n'
               "        read_timeout: Seconds to wait for the server's reply.\n    Returns:\n"
               "    # ... existing code ...\n")
    expected = AUTH.replace("request.\n\n    Returns:",
                            "request.\n        read_timeout: Seconds to wait for the server's reply.\n    Returns:")
    assert apply(AUTH, snippet).merged_code == expected
