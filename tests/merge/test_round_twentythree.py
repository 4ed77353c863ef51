"""Issue 8, twenty-third round: real release edits of the twenty-second round's kept-aside batch
check-20 (now tune-66) and of tune-65, read case by case."""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply


def _barrel(entries: list[tuple[str, str]]) -> str:
    """effect's barrel files: every export under a doc comment that starts alike."""
    lines = ["/**", " * @since 4.0.0", " */", "", "/**", " * @stability unstable", " * @since 4.0.0", " */",
             'export * as Aead from "./Aead.ts"']
    for name, since in entries:
        lines += ["", "/**", " * @stability unstable", f" * @since {since}", " */", f'export * as {name} from "./{name}.ts"']
    return "\n".join(lines) + "\n"


_ENTRIES = [("Hash", "4.0.0"), ("Mac", "4.0.0"), ("SecureRandom", "4.0.0"), ("Signature", "4.0.0"), ("Sign", "4.0.0"),
            ("Token", "4.0.0"), ("Zero", "4.0.0")]


def test_a_new_export_written_between_copies_of_the_doc_comment_start_loses_nothing() -> None:
    # effect's crypto/index.ts: the new `Password` export after `Mac`, then the start of the next
    # entry's doc comment and a marker; read as an edit of `SecureRandom` (the next copy of the
    # comment's start paired), the merge deleted that export
    original = _barrel(_ENTRIES)
    expected = _barrel(_ENTRIES[:2] + [("Password", "4.1.5")] + _ENTRIES[2:])
    snippet = """/* ... existing code ... */
 * @stability unstable
 * @since 4.0.0
 */
export * as Mac from "./Mac.ts"

/**
 * @stability unstable
 * @since 4.1.5
 */
export * as Password from "./Password.ts"

/**
 * @stability unstable
/* ... existing code ... */
"""
    assert apply(original, snippet, filename="index.ts").merged_code == expected


def test_an_edited_entry_under_its_own_name_between_doc_comment_starts_stays_an_edit() -> None:
    # the same shape, but the lines between are the next entry's own, its `@since` edited: an edit
    # of that entry, not a new one beside it
    original = _barrel(_ENTRIES)
    expected = original.replace(' * @since 4.0.0\n */\nexport * as SecureRandom', ' * @since 4.2.0\n */\nexport * as SecureRandom')
    snippet = """/* ... existing code ... */
export * as Mac from "./Mac.ts"

/**
 * @stability unstable
 * @since 4.2.0
 */
export * as SecureRandom from "./SecureRandom.ts"

/**
 * @stability unstable
/* ... existing code ... */
"""
    assert apply(original, snippet, filename="index.ts").merged_code == expected


def test_context_that_starts_every_entry_names_no_entry_to_delete() -> None:
    # effect's persistence/index.ts: an edited `@since` above an export, then the start of the next
    # entry's doc comment, which every entry below starts with: the next entry, nothing deleted
    original = _barrel(_ENTRIES)
    expected = original.replace(' * @since 4.0.0\n */\nexport * as Mac', ' * @since 4.0.7\n */\nexport * as Mac')
    snippet = """/* ... existing code ... */
 * @stability unstable
 * @since 4.0.7
 */
export * as Mac from "./Mac.ts"

/**
 * @stability unstable
 * @since 4.0.0
/* ... existing code ... */
"""
    assert apply(original, snippet, filename="index.ts").merged_code == expected


HIGHLIGHTER_JS = """import Prism from "prismjs";
import { loadLanguages } from "#prism-loadLanguages";
import { addAstro } from "./plugin.js";
const languageMap = new Map([["ts", "typescript"]]);
export async function runHighlighterWithAstro(lang, code) {
\tif (!lang) {
\t\tlang = "plaintext";
\t}
\tlet classLanguage = `language-${lang}`;
\tconst ensureLoaded = async (language) => {
\t\tif (language && !Prism.languages[language]) {
\t\t\tawait loadLanguages([language]);
\t\t}
\t};
\tif (languageMap.has(lang)) {
\t\tawait ensureLoaded(languageMap.get(lang));
\t} else {
\t\tawait ensureLoaded(lang);
\t}
\tconst grammar = Prism.languages[lang];
\tlet html = code;
\tif (grammar) {
\t\thtml = Prism.highlight(code, grammar, lang);
\t}
\treturn {
\t\tclassLanguage,
\t\thtml
\t};
}
"""


def test_a_file_without_blank_lines_gets_none_above_new_code() -> None:
    # astro's compiled prism highlighter has no blank line at all; the new function written glued
    # to the one above stays glued
    snippet = """\t// ... unchanged ...
\tconst grammar = Prism.languages[lang];
\tconst html = grammar ? Prism.highlight(code, grammar, lang) : escapeCode(code);
\treturn {
\t\tclassLanguage,
\t\thtml
\t};
}
function escapeCode(code) {
\treturn code.replace(/&/g, "&amp;").replace(/</g, "&lt;");
}
"""
    expected = HIGHLIGHTER_JS.replace("\tlet html = code;\n\tif (grammar) {\n\t\thtml = Prism.highlight(code, grammar, lang);\n\t}\n",
                                      "\tconst html = grammar ? Prism.highlight(code, grammar, lang) : escapeCode(code);\n") \
        + 'function escapeCode(code) {\n\treturn code.replace(/&/g, "&amp;").replace(/</g, "&lt;");\n}\n'
    assert apply(HIGHLIGHTER_JS, snippet, filename="highlighter.js").merged_code == expected


DATA_TREE_PY = """import types
from collections import OrderedDict

import numpy as np

from ..Qt import QtWidgets
from .TableWidget import TableWidget

try:
    import metaarray  # noqa
    HAVE_METAARRAY = True
except:
    HAVE_METAARRAY = False

__all__ = ['DataTreeWidget']


class DataTreeWidget(QtWidgets.QTreeWidget):
    def __init__(self, parent=None, data=None):
        QtWidgets.QTreeWidget.__init__(self, parent)
        self.setVerticalScrollMode(self.ScrollMode.ScrollPerPixel)
        self.setData(data)
        self.setColumnCount(3)
        self.setHeaderLabels(['key / index', 'type', 'value'])
        self.setAlternatingRowColors(True)

    def parse(self, data):
        typeStr = type(data).__name__
        return typeStr, str(data)
        \n"""


def test_blank_lines_left_where_code_was_deleted_stay_as_written() -> None:
    # pyqtgraph's DataTreeWidget.py: the `try: import metaarray` block deleted between two
    # unchanged lines, its blank lines left on both sides (two in all): no new code meets the file
    # there, so there is no slip to mend; and the line of spaces that ends the file stays one
    snippet = """# ... existing code ...
from ..Qt import QtWidgets
from .TableWidget import TableWidget


__all__ = ['DataTreeWidget']
# ... existing code ...
"""
    expected = DATA_TREE_PY.replace("try:\n    import metaarray  # noqa\n    HAVE_METAARRAY = True\nexcept:\n"
                                    "    HAVE_METAARRAY = False\n\n", "\n")
    merged = apply(DATA_TREE_PY, snippet, filename="DataTreeWidget.py").merged_code
    assert merged == expected
    assert merged.endswith("return typeStr, str(data)\n        \n")


UNIX_PY = '''# \u00a9 2018 Gerard Marull-Paretas <gerard@teslabs.com>
# \u00a9 2014 Mark Harviston <mark.harviston@gmail.com>
# BSD License

"""UNIX specific Quamash functionality."""

import asyncio
import selectors
import collections

from . import QtCore, with_logger, _fileno

EVENT_READ = 1 << 0
EVENT_WRITE = 1 << 1


class _SelectorMapping(collections.abc.Mapping):
    """Mapping of file objects to selector keys."""

    def __init__(self, selector):
        self._selector = selector

    def __len__(self):
        return len(self._selector._fd_to_key)
'''


def test_a_notice_rewritten_as_a_docstring_replaces_the_comment_head() -> None:
    # qasync: the `# \u00a9 ...` lines and the one-line docstring became one docstring with
    # `Copyright (c) ...` lines, in a snippet of the whole file without markers
    head = '''"""
UNIX specific qasync functionality.

Copyright (c) 2018 Gerard Marull-Paretas <gerard@teslabs.com>
Copyright (c) 2014 Mark Harviston <mark.harviston@gmail.com>

BSD License
"""
'''
    body = UNIX_PY.split('"""UNIX specific Quamash functionality."""\n')[1]
    body = body.replace("import selectors\nimport collections\n", "import collections\nimport selectors\n") \
        .replace("with_logger, _fileno", "_fileno, with_logger")
    snippet = head + body
    assert apply(UNIX_PY, snippet, filename="_unix.py").merged_code == snippet


COMMON_PY = '''__all__ = ["CtrlNode", "PlottingCtrlNode", "metaArrayWrapper"]

import numpy as np

from ..Node import Node


class CtrlNode(Node):
    def process(self, In, display=True):
        out = self.processData(In)
        return {'Out': out}


class PlottingCtrlNode(CtrlNode):
    def process(self, In, display=True):
        out = CtrlNode.process(self, In, display)
        out['plot'] = None
        return out


def metaArrayWrapper(fn):
    def newFn(self, data, *args, **kargs):
        if HAVE_METAARRAY and (hasattr(data, 'implements') and data.implements('MetaArray')):
            d1 = fn(self, data.view(np.ndarray), *args, **kargs)
            info = data.infoCopy()
            if d1.shape != data.shape:
                for i in range(data.ndim):
                    if 'values' in info[i]:
                        info[i]['values'] = info[i]['values'][:d1.shape[i]]
            return metaarray.MetaArray(d1, info=info)
        else:
            return fn(self, data, *args, **kargs)
    return newFn
'''


def test_a_last_definition_taken_out_of_all_ends_the_file() -> None:
    # pyqtgraph's flowchart/library/common.py: `metaArrayWrapper` left `__all__`, and the snippet
    # ends, without a marker, on the unchanged end of the class above it: the file ends there
    snippet = '''__all__ = ["CtrlNode", "PlottingCtrlNode"]

import numpy as np
# ... unchanged ...
        out = CtrlNode.process(self, In, display)
        out['plot'] = None
        return out
'''
    expected = COMMON_PY.replace('"PlottingCtrlNode", "metaArrayWrapper"]', '"PlottingCtrlNode"]') \
        .split("\n\n\ndef metaArrayWrapper")[0] + "\n"
    assert apply(COMMON_PY, snippet, filename="common.py").merged_code == expected


def test_unchanged_last_lines_under_an_all_that_keeps_the_name_still_ask_for_a_marker() -> None:
    # the same ending under an `__all__` edited but still naming `metaArrayWrapper`: the snippet
    # may have left out its last marker
    snippet = '''__all__ = ["CtrlNode", "PlottingCtrlNode", "metaArrayWrapper", "Extra"]

import numpy as np
# ... unchanged ...
        out = CtrlNode.process(self, In, display)
        out['plot'] = None
        return out
'''
    with pytest.raises(ApplyError):
        apply(COMMON_PY, snippet, filename="common.py")


FUZZYSORT_JS = """function prepQuery(search) {
  search = search.trim()
  let info = lowerInfo(search)
  return info
}

function lowerInfo(value) {
  value = remapChars(value)
  let lower = value.toLowerCase()
  let lowerCodes = []
  let bitflags = 0
  for (let i = 0; i < lower.length; ++i) {
    lowerCodes[i] = lower.charCodeAt(i)
    bitflags |= 1 << lowerCodes[i]
  }
  return {lowerCodes, bitflags, _lower: lower}
}

function remapChars(value) {
  return value
}
"""


def test_a_definition_cut_in_two_keeps_its_old_body_under_the_new_header() -> None:
    # fuzzysort: `lowerInfo` became a wrapper around a new `lowerInfoRemapped`, which holds the old
    # body; the marker under the new header's first lines stands for the rest of that body
    snippet = """// ... existing code ...
function lowerInfo(value) {
  return lowerInfoRemapped(remapChars(value))
}

function lowerInfoRemapped(value) {
  let lower = value.toLowerCase()
  let lowerCodes = []
  // ... existing code ...
"""
    expected = FUZZYSORT_JS.replace("function lowerInfo(value) {\n  value = remapChars(value)\n",
                                    "function lowerInfo(value) {\n  return lowerInfoRemapped(remapChars(value))\n}\n\n"
                                    "function lowerInfoRemapped(value) {\n")
    assert apply(FUZZYSORT_JS, snippet, filename="fuzzysort.js").merged_code == expected


def test_a_new_definition_whose_lines_are_not_the_old_body_still_refuses_its_marker() -> None:
    # the same shape, but the lines under the new header are no lines of the old body: the marker
    # inside the new definition stands for nothing
    snippet = """// ... existing code ...
function lowerInfo(value) {
  return lowerInfoRemapped(remapChars(value))
}

function lowerInfoRemapped(value) {
  const folded = value.normalize("NFKD")
  // ... existing code ...
"""
    with pytest.raises(ApplyError):
        apply(FUZZYSORT_JS, snippet, filename="fuzzysort.js")

