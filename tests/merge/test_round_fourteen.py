"""Issue 8, fourteenth round: real release edits of the thirteenth round's kept-aside batch, read
case by case from this round on as tune-25."""

from __future__ import annotations

from fastapply import apply

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
