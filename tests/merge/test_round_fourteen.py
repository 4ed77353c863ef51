"""Issue 8, fourteenth round: real release edits of the thirteenth round's kept-aside batch, read
case by case from this round on as tune-25."""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply

SCRIPT = '''#!/usr/bin/env python
#
# Copyright (c), 2025, SISSA (International School for Advanced Studies).
#
import sys


def main():
    return 0
'''


def test_a_snippet_starting_right_under_a_shebang_drops_it() -> None:
    # elementpath's release dropped the shebang of a module that is no script
    edit = '''#
# Copyright (c), 2025, SISSA (International School for Advanced Studies).
# ... rest of the code ...
'''
    assert apply(SCRIPT, edit, filename="fallback.py").merged_code == SCRIPT.split("\n", 1)[1]


def test_a_snippet_starting_further_down_keeps_the_shebang() -> None:
    edit = '''import sys


def main():
    return 1
'''
    assert apply(SCRIPT, edit, filename="fallback.py").merged_code == SCRIPT.replace("return 0", "return 1")


def test_a_leading_marker_keeps_the_shebang() -> None:
    edit = '''# ... existing code ...
#
# Copyright (c), 2025, SISSA (International School for Advanced Studies).
# ... rest of the code ...
'''
    assert apply(SCRIPT, edit, filename="fallback.py").merged_code == SCRIPT


STRICT = '''\'use strict\';

let fastProto = null;

function FastObject(o) {
\tfastProto = FastObject.prototype = o == null ? Object.create(null) : o;
\treturn new FastObject;
}

module.exports = function toFastProperties(o) {
\treturn FastObject(o);
};
'''


def test_a_module_going_to_es_modules_drops_use_strict() -> None:
    edit = '''let fastProto = null;

function FastObject(object) {
// ... existing code ...
}

export default function toFastProperties(object) {
\treturn FastObject(object);
}
'''
    expected = STRICT.split("\n", 2)[2].replace("FastObject(o) {", "FastObject(object) {").replace(
        "module.exports = function toFastProperties(o) {\n\treturn FastObject(o);\n};",
        "export default function toFastProperties(object) {\n\treturn FastObject(object);\n}")
    assert apply(STRICT, edit, filename="index.js").merged_code == expected


def test_use_strict_above_a_snippets_first_import_goes() -> None:
    original = '"use strict";\nimport constant from "./constant.js";\n\nexport default function(x) {\n  return constant(x);\n}\n'
    snippet = 'import constant from "./constant.js";\nimport {pi} from "./math.js";\n// ... existing code ...\n'
    assert apply(original, snippet, filename="a.js").merged_code == original.replace(
        '"use strict";\n', "").replace('constant.js";\n', 'constant.js";\nimport {pi} from "./math.js";\n')


VERSIONED = '''import importlib.util as importlib_util

__version__ = "25.0"


def parse_version(version):
    return tuple(int(part) for part in version.split("."))


VERSION = parse_version(__version__)


assert VERSION < (25, 0), "Remove deprecated code"


class RemovedInDjangoFilter25Warning(DeprecationWarning):
    pass
'''


def test_a_last_part_of_unchanged_lines_without_a_marker_after_it_ends_the_file() -> None:
    # django-filter's release deleted the deprecation shim under `VERSION = ...`
    edit = '''# ... existing code ...
__version__ = "25.1"
# ... existing code ...
VERSION = parse_version(__version__)
'''
    expected = VERSIONED.split("\n\n\nassert")[0].replace("25.0", "25.1") + "\n"
    assert apply(VERSIONED, edit, filename="__init__.py").merged_code == expected


def test_a_last_part_with_an_edit_and_no_marker_keeps_the_rest() -> None:
    # a model that left out its last marker ends with its edit
    edit = '''# ... existing code ...
VERSION = parse_version(__version__) + (0,)
'''
    expected = VERSIONED.replace("VERSION = parse_version(__version__)", "VERSION = parse_version(__version__) + (0,)")
    assert apply(VERSIONED, edit, filename="__init__.py").merged_code == expected


def test_a_last_part_of_unchanged_lines_above_a_long_rest_is_refused() -> None:
    # kept until the eighteenth round (a left-out last marker); pytest-localserver's release deleted
    # its seventeen-line `__main__` block under such a part: with this many lines after it, either
    # reading may be meant, so the merge is refused and the message says how to tell
    original = VERSIONED + "".join(f"\n\ndef helper_{k}():\n    return {k}\n" for k in range(8))
    edit = '''# ... existing code ...
__version__ = "25.1"
# ... existing code ...
VERSION = parse_version(__version__)
'''
    with pytest.raises(ApplyError, match="may end the file there or have left out its last marker") as error:
        apply(original, edit, filename="__init__.py")
    assert error.value.line == 4


PLUGIN = '''"""
    pygments.plugin
    ~~~~~~~~~~~~~~~

    Pygments plugin interface. By default, this tries to use
    ``importlib.metadata``, or falls back on nothing.

    lexer plugins::

        [pygments.lexers]
        yourlexer = yourmodule:YourLexer

    :license: BSD, see LICENSE for details.
"""

LEXER_ENTRY_POINT = 'pygments.lexers'
FORMATTER_ENTRY_POINT = 'pygments.formatters'


def iter_entry_points(group_name):
    try:
        from importlib.metadata import entry_points
    except ImportError:
        return []
    groups = entry_points()
    if hasattr(groups, 'select'):
        return groups.select(group=group_name)
    return groups.get(group_name, [])


def find_plugin_lexers():
    for entrypoint in iter_entry_points(LEXER_ENTRY_POINT):
        yield entrypoint.load()
'''


def _plugin_case(imports: list[str]) -> tuple[str, str, str]:
    """PLUGIN with `imports` inside the function's `try`, a snippet that moves them to the module's
    head and shows the docstring's edit after that part, and the merge expected."""
    inside = "".join(f"        {line}\n" for line in imports)
    original = PLUGIN.replace("        from importlib.metadata import entry_points\n", inside)
    head = "".join(f"{line}\n" for line in imports)
    edit = f'''# ... existing code ...
    :license: BSD, see LICENSE for details.
"""
{head}
LEXER_ENTRY_POINT = 'pygments.lexers'
FORMATTER_ENTRY_POINT = 'pygments.formatters'


def iter_entry_points(group_name):
    groups = entry_points()
    if hasattr(groups, 'select'):
# ... existing code ...
    pygments.plugin
    ~~~~~~~~~~~~~~~

    Pygments plugin interface.

    lexer plugins::
# ... existing code ...
'''
    expected = original.replace('''    Pygments plugin interface. By default, this tries to use
    ``importlib.metadata``, or falls back on nothing.''', "    Pygments plugin interface.").replace(
        '"""\n\nLEXER', f'"""\n{head}\nLEXER').replace(f"    try:\n{inside}    except ImportError:\n        return []\n", "")
    return original, edit, expected


def test_a_part_shown_out_of_order_places_itself_although_one_of_its_lines_moved() -> None:
    # pygments' release moved `from importlib.metadata import entry_points` out of the function's
    # `try` to the module's head; the snippet shows the docstring's edit after that part
    original, edit, expected = _plugin_case(["from importlib.metadata import entry_points"])
    assert apply(original, edit, filename="plugin.py").merged_code == expected


def test_two_lines_moved_together_within_their_part_are_set_aside_too() -> None:
    original, edit, expected = _plugin_case(["from importlib.metadata import entry_points",
                                             "from importlib import metadata"])
    assert apply(original, edit, filename="plugin.py").merged_code == expected


BUILD = '''"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.build = void 0;
function pushDirectoryWithRelativePath(root) {
    return function (directoryPath, paths) {
        paths.push(directoryPath.substring(root.length) || ".");
    };
}
function pushDirectory(directoryPath, paths) {
    paths.push(directoryPath || ".");
}
function build(root, options) {
    const { relativePaths, includeBasePath } = options;
    return relativePaths && root
        ? pushDirectoryWithRelativePath(root)
        : pushDirectory;
}
exports.build = build;
'''


def test_a_line_moved_from_outside_its_part_still_anchors_it() -> None:
    # fdir moved `exports.build = build;` from the file's end to its head: not a line moved within
    # its part, so it is not set aside (set aside, the old copy under the last marker stayed and
    # the line came twice); refused: its first part has too few lines of its own
    edit = '''        // ... existing code ...
        ? pushDirectoryWithRelativePath(root)
        : pushDirectory;
}
// ... existing code ...
Object.defineProperty(exports, "__esModule", { value: true });
exports.build = build;
function pushDirectoryWithRelativePath(root) {
    return function (directoryPath, paths) {
// ... existing code ...
'''
    with pytest.raises(ApplyError):
        apply(BUILD, edit, filename="push-directory.js")
