"""Issue 8, seventeenth round: real release edits of the sixteenth round's kept-aside batch (now
tune-34) and of tune-35, read case by case."""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply

MAP_PY = '''class MapFuture(Future):
    def __init__(self, delegate):
        super().__init__()
        self._delegate = delegate

    def _delegate_resolved(self, delegate):
        assert delegate is self._delegate, "BUG: called with %s" % (delegate,)

        if delegate.cancelled():
            return
        self.set_result(delegate.result())


class MapExecutor(Executor):
    def __init__(self, delegate, fn=None):
        """
        Arguments:
            delegate (~concurrent.futures.Executor):
                an executor to which callables will be submitted
            fn (callable):
                a callable applied to transform returned values
        """
        self._delegate = delegate
        self._fn = fn
'''


def test_a_deletion_note_that_a_new_comment_line_continues_is_prose() -> None:
    # more-executors: "# Drop reference to delegate ..." read as a note deleting `delegate (...)`
    snippet = '''    # ... existing code ...
        assert delegate is self._delegate, "BUG: called with %s" % (delegate,)

        # Drop reference to delegate as soon as no longer needed to reduce
        # unnecessary reference cycles / memory pressure
        self._set_delegate(None)

        if delegate.cancelled():
            return
    # ... existing code ...
'''
    merged = apply(MAP_PY, snippet, filename="map.py").merged_code
    assert merged == MAP_PY.replace('''(delegate,)

''', '''(delegate,)

        # Drop reference to delegate as soon as no longer needed to reduce
        # unnecessary reference cycles / memory pressure
        self._set_delegate(None)

''')


def test_a_one_line_deletion_note_still_deletes() -> None:
    snippet = '''class MapFuture(Future):
    # ... existing code ...
        self.set_result(delegate.result())


# removed the _delegate_resolved() method
class MapExecutor(Executor):
    # ... existing code ...
'''
    merged = apply(MAP_PY, snippet, filename="map.py").merged_code
    assert "_delegate_resolved" not in merged and "class MapExecutor(Executor):" in merged


UCRE = '''from uc_micro.categories import Cc, P, Z
from uc_micro.properties import Any

SRC_ANY = Any.REGEX
SRC_CC = Cc.REGEX
SRC_P = P.REGEX
SRC_Z = Z.REGEX

# \\p{\\Z\\P\\Cc} (white spaces + control + punctuation)
SRC_ZPCC = "|".join([SRC_Z, SRC_P, SRC_CC])

# \\p{\\Z\\Cc} (white spaces + control)
SRC_ZCC = "|".join([SRC_Z, SRC_CC])

TEXT_SEPARATORS = "[><\\uff5c]"

SRC_PSEUDO_LETTER = "(?:(?!" + TEXT_SEPARATORS + "|" + SRC_ZPCC + ")" + SRC_ANY + ")"
'''
NEW_HEAD = "from ._ucre_data import SRC_ANY, SRC_CC, SRC_P, SRC_Z\n"


def test_new_first_lines_that_bind_the_names_the_old_head_assigns_replace_it() -> None:
    # linkify-it-py moved its character classes into a data module: kept, each name is bound twice
    snippet = NEW_HEAD + '''
# \\p{\\Z\\P\\Cc} (white spaces + control + punctuation)
SRC_ZPCC = "|".join([SRC_Z, SRC_P, SRC_CC])

# \\p{\\Z\\Cc} (white spaces + control)
# ... existing code ...
'''
    expected = NEW_HEAD + UCRE[UCRE.index("\n# \\p{\\Z\\P"):]
    assert apply(UCRE, snippet, filename="ucre.py").merged_code == expected
    # the same as a whole file without markers
    whole = NEW_HEAD + UCRE[UCRE.index("\n# \\p{\\Z\\P"):]
    assert apply(UCRE, whole, filename="ucre.py").merged_code == expected


def test_new_first_lines_that_bind_other_names_leave_the_head_alone() -> None:
    snippet = '''from ._extra import SRC_EXTRA

# \\p{\\Z\\P\\Cc} (white spaces + control + punctuation)
SRC_ZPCC = "|".join([SRC_Z, SRC_P, SRC_CC, SRC_EXTRA])

# \\p{\\Z\\Cc} (white spaces + control)
# ... existing code ...
'''
    try:
        merged = apply(UCRE, snippet, filename="ucre.py").merged_code
    except ApplyError:
        return  # a refusal is fine; dropping the head is not
    assert "SRC_ANY = Any.REGEX" in merged and "from ._extra import SRC_EXTRA" in merged


PAGELIST = '''from typing import overload

class PageList:
    def index(self, page: Page, /) -> int:
        """Given a page, find the index."""
    def remove(self, page: Page | None = None, *, p: int) -> None:
        """Remove a page.

        Args:
            page: page to remove
            p: 1-based page number to remove
        """
    def reverse(self) -> None:
        """Reverse the order of pages."""
'''


def test_a_header_rewritten_under_new_overload_stubs_replaces_the_old_one() -> None:
    # pikepdf: two `@overload` stubs above the rewritten `def remove(...)`, its docstring after it
    snippet = '''# ... existing code ...
    def index(self, page: Page, /) -> int:
        """Given a page, find the index."""
    @overload
    def remove(self, page: Page, /) -> None: ...
    @overload
    def remove(self, *, p: int) -> None: ...
    def remove(self, page: Page | None = None, *, p: int | None = None) -> None:
        """Remove a page.
        # ... existing code ...
'''
    merged = apply(PAGELIST, snippet, filename="pagelist.pyi").merged_code
    assert merged == PAGELIST.replace('''    def remove(self, page: Page | None = None, *, p: int) -> None:
''', '''    @overload
    def remove(self, page: Page, /) -> None: ...
    @overload
    def remove(self, *, p: int) -> None: ...
    def remove(self, page: Page | None = None, *, p: int | None = None) -> None:
''')


def _stub_class(name: str, doc: str, signature: str) -> str:
    return f'''class {name}(Object):
    """{doc}"""

    object_type: ObjectType
    def __new__({signature}) -> {name}: ...

'''


CONSTRUCT = '''# Type stubs for the bindings.

from collections.abc import Iterable, Mapping

''' + _stub_class("Array", "Construct a PDF Array object.", "cls, a: Iterable | None = None") \
    + _stub_class("Dictionary", "Construct a PDF Dictionary object.", "cls, d: Mapping | None = None") \
    + '''class Stream(Object):
    """Construct a PDF Stream object."""

    object_type: ObjectType
    def __new__(
        cls, owner: Pdf, data: bytes | None = None, d: Mapping | None = None
    ) -> Stream: ...
'''


def test_a_wrapped_definition_line_the_file_has_once_by_chance_is_no_anchor() -> None:
    # pikepdf: the snippet wraps Dictionary's `__new__` like Stream's; its `def __new__(` is Stream's
    # line as it stands, but places nothing: the parts around it do
    snippet = '''    # [...]
    object_type: ObjectType
    def __new__(
        cls, d: Mapping[str, Any] | None = None
    ) -> Dictionary: ...

class Stream(Object):
    """Construct a PDF Stream object."""
# [...]
class Array(Object):
    """Construct a PDF Array object."""

    object_type: ObjectType
    def __new__(cls, a: Iterable[Any] | None = None) -> Array: ...
    # [...]
'''
    merged = apply(CONSTRUCT, snippet, filename="construct.pyi").merged_code
    assert merged == CONSTRUCT.replace("cls, a: Iterable | None = None", "cls, a: Iterable[Any] | None = None") \
        .replace("    def __new__(cls, d: Mapping | None = None) -> Dictionary: ...", '''    def __new__(
        cls, d: Mapping[str, Any] | None = None
    ) -> Dictionary: ...''')


SVG = '''def split_floats(op, min_num, value):
    res = []
    for i in range(0, len(floats), min_num):
        res.extend([op, floats[i : i + min_num]])
    return res


def split_arc_values(op: str, value: str) -> list:
    """Parse SVG elliptical arc parameters."""
    a_seq_re = r"[\\s,]*".join([FLOAT_RE] * 7)
    res: list = []
    for seq in re.finditer(a_seq_re, value.strip()):
        res.extend([op, list(float(num) for num in seq.groups())])
    return res


def normalise_svg_path(attr: str) -> list:
    result = []
    return result
'''


def test_a_return_that_ends_a_rewritten_body_before_a_marker_pairs_with_the_bodys_own() -> None:
    # svglib: the loop rewritten, `return res` (three times in the file) ends the body, a marker follows
    snippet = '''def split_arc_values(op: str, value: str) -> list:
    """Parse SVG elliptical arc parameters."""
    text = value.strip()
    pos = 0
    res: list = []
    while pos < len(text):
        values, pos = _arguments(text, pos)
        if values is None:
            return res
        res.extend([op, values])
    return res
# ... existing code ...
'''
    merged = apply(SVG, snippet, filename="utils.py").merged_code
    body = snippet[snippet.index("    text = "):snippet.index("    return res\n#")]
    old_body = SVG[SVG.index("    a_seq_re"):SVG.index("    return res\n\n\ndef normalise")]
    assert merged == SVG.replace(old_body, body)


FECHA = '''function parse(dateInfo) {
  if (dateInfo.isPm) {
    dateInfo.hour = 0;
  }

  const dateWithoutTZ = makeDate(dateInfo.year, dateInfo.month);

  const validateFields = [
    ["month", "getMonth"],
    ["day", "getDate"]
  ];
  for (const [field, getter] of validateFields) {
    if (dateInfo[field] !== dateWithoutTZ[getter]()) {
      return null;
    }
  }

  return dateWithoutTZ;
}
'''


def test_lines_moved_into_a_new_block_keep_the_snippets_spacing() -> None:
    # fecha: the check moved into a new `if`; glued to the new `);` above it, re-indented, it stays glued
    snippet = '''  // ... existing code ...
    dateInfo.hour = 0;
  }

  let dateTZ;
  if (dateInfo.timezoneOffset == null) {
    dateTZ = new Date(
      dateInfo.year,
      dateInfo.month
    );
    const validateFields = [
      ["month", "getMonth"],
      ["day", "getDate"]
    ];
    for (const [field, getter] of validateFields) {
      if (dateInfo[field] !== dateTZ[getter]()) {
        return null;
      }
    }
  } else {
    dateTZ = new Date(Date.UTC(dateInfo.year, dateInfo.month));
  }

  return dateTZ;
}
'''
    merged = apply(FECHA, snippet, filename="fecha.js").merged_code
    assert merged == FECHA[:FECHA.index("  const dateWithoutTZ")] + snippet[snippet.index("  let dateTZ;"):]


UTIL_IO = '''import os
import typing


def writeto(fpath, to_write, aslines=False, verbose=None):
    """Writes (utf8) text to a file."""
    with open(fpath, 'wb') as file:
        file.write(to_write.encode('utf8'))


def readfrom(
    fpath: str | os.PathLike,
    aslines: bool = False,
    errors: str = 'replace',
    verbose: int | None = None,
) -> str | bytes | list[str]:
    """
    Reads (utf8) text from a file.
    """
    with open(fpath, 'rb') as file:
        text = file.read().decode('utf8', errors=errors)
    return text
'''

OVERLOADS = '''@typing.overload
def readfrom(
    fpath: str | os.PathLike,
    aslines: typing.Literal[False] = False,
    errors: str = 'replace',
    verbose: int | None = None,
) -> str: ...


@typing.overload
def readfrom(
    fpath: str | os.PathLike,
    aslines: typing.Literal[True],
    errors: str = 'replace',
    verbose: int | None = None,
) -> list[str]: ...


'''


@pytest.mark.parametrize("shown", ["signature", "header"])
def test_overload_stubs_written_above_a_definition_leave_it_the_original(shown: str) -> None:
    # ubelt: the first stub took the signature's lines, and the real `def readfrom(` read as a second one
    tail = '''def readfrom(
# ... existing code ...
    verbose: int | None = None,
) -> str | list[str]:
    """
    Reads (utf8) text from a file.
# ... existing code ...
''' if shown == "signature" else '''def readfrom(
    fpath: str | os.PathLike,
    # ... existing code ...
'''
    snippet = '''# ... existing code ...
        file.write(to_write.encode('utf8'))


''' + OVERLOADS + tail
    merged = apply(UTIL_IO, snippet, filename="util_io.py").merged_code
    expected = UTIL_IO.replace("def readfrom(", OVERLOADS + "def readfrom(")
    if shown == "signature":
        expected = expected.replace(") -> str | bytes | list[str]:", ") -> str | list[str]:")
    assert merged == expected


LOWLEVEL = '''ui_log = init_loggers()


def executable_lines(code):
    if sys.version_info >= (3, 10):
        for _start, _end, lineno in code.co_lines():
            if lineno is not None:
                yield lineno
    else:
        line = code.co_firstlineno
        yield line
        # See https://github.com/python/cpython/blob/master/Objects/lnotab_notes.txt

        for line_incr in code.co_lnotab[1::2]:
            # NB: This code is specific to Python 3.6 and higher
            if line_incr >= 0x80:
                line_incr -= 0x100
            line += line_incr
            yield line


def executable_lines_recursive(codes):
    codes = list(codes)
    return codes
'''


def test_a_block_unwrapped_with_its_else_branch_dropped_links_to_the_next_definition() -> None:
    # pudb: the version check went, its body dedented; the lines up to the next function are its rest
    snippet = '''# ... existing code ...
ui_log = init_loggers()


def executable_lines(code):
    for _start, _end, lineno in code.co_lines():
        if lineno is not None:
            yield lineno


def executable_lines_recursive(codes):
    codes = list(codes)
# ... existing code ...
'''
    merged = apply(LOWLEVEL, snippet, filename="lowlevel.py").merged_code
    assert merged == snippet.split("# ... existing code ...\n")[1] + "    return codes\n"


def _put(indent: str, value: str) -> str:
    return f'''{indent}async def put(
{indent}    self,
{indent}    key: Buffer,
{indent}    {value}: Buffer,
{indent}    dupdata: bool = True,
{indent}) -> bool: ...
'''


AIO = '''class AsyncCursor:
    async def first(self) -> bool: ...
''' + _put("    ", "value") + '''    async def pop(self, key: Buffer) -> bytes | None: ...

class AsyncTransaction:
    async def count(self) -> int: ...
''' + _put("    ", "val") + '''    async def replace(self, key: Buffer, val: Buffer) -> bytes | None: ...
'''


def test_an_edit_between_two_anchors_of_a_part_placed_by_a_unique_line_is_no_misplaced_copy() -> None:
    # lmdb: `put(...)` in two classes, the first with `value` already; the part's `async def count`
    # says which, and `val` -> `value` is an edit there
    snippet = '''    # ... existing code ...
    async def count(self) -> int: ...
    async def put(
        self,
        key: Buffer,
        value: Buffer,
        dupdata: bool = True,
    ) -> bool: ...
    # ... existing code ...
'''
    merged = apply(AIO, snippet, filename="aio.pyi").merged_code
    head, tail = AIO.split("class AsyncTransaction:")
    assert merged == head + "class AsyncTransaction:" + tail.replace("val: Buffer,", "value: Buffer,", 1)


EXPOSITION = '''def _is_valid_exemplar_metric(metric, sample):
    if metric.type == 'counter' and sample.name.endswith('_total'):
        return True
    if metric.type in ('gaugehistogram') and sample.name.endswith('_bucket'):
        return True
    if metric.type in ('histogram') and sample.name.endswith('_bucket') or sample.name == metric.name:
        return True
    return False


def _compress(value):
    return value
'''


def test_edited_lines_in_a_row_between_common_lines_are_edits_in_place() -> None:
    # prometheus-client: two `if`s rewritten over their `return True`s, the last of them before a marker
    snippet = '''// ...
def _is_valid_exemplar_metric(metric, sample):
    if metric.type == 'counter' and sample.name.endswith('_total'):
        return True
    if metric.type == 'gaugehistogram' and sample.name.endswith('_bucket'):
        return True
    if metric.type == 'histogram' and (sample.name.endswith('_bucket') or sample.name == metric.name):
        return True
// ...
'''
    merged = apply(EXPOSITION, snippet, filename="exposition.py").merged_code
    assert merged == EXPOSITION.replace("metric.type in ('gaugehistogram') and", "metric.type == 'gaugehistogram' and") \
        .replace("if metric.type in ('histogram') and sample.name.endswith('_bucket') or sample.name == metric.name:",
                 "if metric.type == 'histogram' and (sample.name.endswith('_bucket') or sample.name == metric.name):")


MIMIC = """'use strict';

const knownProperties = [
\t'statusMessage',
\t'url'
];

module.exports = (fromStream, toStream) => {
\tif (toStream._readableState.autoDestroy) {
\t\tthrow new Error('The second stream must have the `autoDestroy` option set to `false`');
\t}

\tconst properties = {};
\tfor (const property of knownProperties) {
\t\tproperties[property] = fromStream[property];
\t}

\treturn toStream;
};
"""


def test_a_header_rewritten_in_place_keeps_its_body_and_the_marker_inside_it() -> None:
    # mimic-response: the arrow function became a named export; its body shown, a marker inside
    snippet = """// ... existing code ...
\t'statusMessage',
\t'url',
];

export default function mimicResponse(fromStream, toStream) {
\tif (toStream._readableState.autoDestroy) {
\t\tthrow new Error('The second stream must have the `autoDestroy` option set to `false`');
\t}
\t// ... existing code ...
\treturn toStream;
}
"""
    merged = apply(MIMIC, snippet, filename="index.js").merged_code
    assert merged == MIMIC.replace("\t'url'\n", "\t'url',\n").replace(
        "module.exports = (fromStream, toStream) => {", "export default function mimicResponse(fromStream, toStream) {") \
        .replace("\treturn toStream;\n};", "\treturn toStream;\n}")


FOR_EACH = """var hasOwnProperty = Object.prototype.hasOwnProperty;

var forEach = function forEach(list, iterator, thisArg) {
    if (!isCallable(iterator)) {
        throw new TypeError('iterator must be a function');
    }

    var receiver = thisArg;
    forEachObject(list, iterator, receiver);
};

module.exports = forEach;
"""


def test_a_header_rewritten_in_place_whose_old_name_the_file_still_uses_is_refused() -> None:
    # for-each: `var forEach = ...` became `module.exports = function forEach(...)`; the expected file
    # drops the last line, but the snippet, without a trailing marker, does not say so
    snippet = """// ... existing code ...
var hasOwnProperty = Object.prototype.hasOwnProperty;

module.exports = function forEach(list, iterator, thisArg) {
    if (!isCallable(iterator)) {
        throw new TypeError('iterator must be a function');
    }
// ... existing code ...
    forEachObject(list, iterator, receiver);
};
"""
    with pytest.raises(ApplyError, match="forEach"):
        apply(FOR_EACH, snippet, filename="index.js")


STRING_LENGTH = """import {stripVTControlCharacters} from 'node:util';

const segmenter = new Intl.Segmenter();

export default function stringLength(string, {countAnsiEscapeCodes = false} = {}) {
\tif (!countAnsiEscapeCodes) {
\t\tstring = stripVTControlCharacters(string);
\t}

\tlet length = 0;
\tfor (const _ of segmenter.segment(string)) {
\t\tlength++;
\t}

\treturn length;
}
"""


def test_new_first_lines_that_declare_the_imported_name_again_replace_the_import() -> None:
    # string-length: the whole file without markers, its import now a guarded lookup of the same name
    snippet = STRING_LENGTH.replace(
        "import {stripVTControlCharacters} from 'node:util';\n",
        "// eslint-disable-next-line n/prefer-global/process\n"
        "const {stripVTControlCharacters} = globalThis.process?.getBuiltinModule?.('node:util') ?? {};\n") \
        .replace("if (!countAnsiEscapeCodes) {", "if (!countAnsiEscapeCodes && stripVTControlCharacters) {")
    assert apply(STRING_LENGTH, snippet, filename="index.js").merged_code == snippet


PROVISIONER = '''class LocalProvisioner:
    async def pre_launch(self, km, transport_encryption_policy, **kwargs):
        if km:
            encryption_required = transport_encryption_policy == "required"
            curve_secretkey: bytes | None = None
            if encryption_required and km.transport != "tcp":
                msg = "transport_encryption='required' is only supported when transport='tcp'."
                raise RuntimeError(msg)
            if km.transport == "tcp" and not is_local_ip(km.ip):
                msg = (
                    "Can only launch a kernel on a local interface. "
                    f"This one is not: {km.ip}."
                )
                raise RuntimeError(msg)
            # build the Popen cmd
            extra_arguments = kwargs.pop("extra_arguments", [])
        return kwargs
'''


def test_a_new_body_that_shares_lines_with_the_next_block_stays_under_the_header_it_edits() -> None:
    # jupyter-client: the new body's `msg = (` is the next block's, the only one in the file; paired
    # there, the old `if` and the local-interface check were read as deleted
    snippet = '''            # ... existing code ...
            curve_secretkey: bytes | None = None
            if encryption_required and not encryption_supported_transport:
                msg = (
                    "transport_encryption='required' is only supported when "
                    "transport is 'tcp' or 'ipc'."
                )
                raise RuntimeError(msg)
            # ... existing code ...
'''
    merged = apply(PROVISIONER, snippet, filename="local_provisioner.py").merged_code
    assert merged == PROVISIONER.replace('''            if encryption_required and km.transport != "tcp":
                msg = "transport_encryption='required' is only supported when transport='tcp'."
''', '''            if encryption_required and not encryption_supported_transport:
                msg = (
                    "transport_encryption='required' is only supported when "
                    "transport is 'tcp' or 'ipc'."
                )
''')


ARROW = '''class ArrowStringMixin:
    def _needs_fallback(self, pat):
        unsupported_ops = {ASSERT, ASSERT_NOT}
        unicode_sensitive = {
            (CATEGORY, CATEGORY_WORD),
            (AT, AT_BOUNDARY),
        }
        nodes = self._regex_nodes(pat)
        if any(op_code in unsupported_ops for op_code, _ in nodes):
            return True
        if any(
            (op_code, argument) in unicode_sensitive
            for op_code, argument in nodes
            if op_code in (CATEGORY, AT)
        ):
            if self._has_non_ascii():
                return True
        if any(
            (op_code, argument) in newline_sensitive
            for op_code, argument in nodes
        ):
            return True
        return False
'''


def test_a_merge_that_drops_the_last_read_of_a_kept_local_variable_is_refused() -> None:
    # pandas: a new `if any(` block above the old one, whose first line ends the snippet before a
    # marker; paired with the old block's `if any(` and `):`, its `unicode_sensitive` read was lost
    snippet = '''        # ... existing code ...
        unsupported_ops = {ASSERT, ASSERT_NOT}
        whitespace = {
            (CATEGORY, CATEGORY_SPACE),
        }
        unicode_sensitive = {
        # ... existing code ...
        if any(op_code in unsupported_ops for op_code, _ in nodes):
            return True
        if any(
            (op_code, argument) in whitespace
            for op_code, argument in nodes
            if op_code == CATEGORY
        ):
            return True
        if any(
            # ... existing code ...
'''
    with pytest.raises(ApplyError, match="unicode_sensitive"):
        apply(ARROW, snippet, filename="mixins.py")


INCLUDE_ALL = """/**
 * @optional {Boolean} markDirectories
 *           TODO: document or deprecate
 *           @default false
 *
 * - - - - - - - - - - - - - - - - -
 * @return {Dictionary}
 */
module.exports = function includeAll(options) {
  return {};
};
"""


def test_new_lines_written_above_a_repeated_context_line_before_a_marker_go_above_it() -> None:
    # include-all: a new option documented above `@default false`, the snippet's last line
    snippet = """/**
 * @optional {Boolean} markDirectories
 *           TODO: document or deprecate
 *           @default false
 *
 * @optional {Boolean} allowDuplicateKeys
 *           When set, duplicate keys will override each other.
 *           @default false
// ... existing code ...
"""
    merged = apply(INCLUDE_ALL, snippet, filename="help.js").merged_code
    assert merged == INCLUDE_ALL.replace(" *           TODO: document or deprecate\n", """ *           TODO: document or deprecate
 *           @default false
 *
 * @optional {Boolean} allowDuplicateKeys
 *           When set, duplicate keys will override each other.
""")


GATEWAY = '''class Serializer:
    def __init__(self, stream, channel_or_gateway=None):
        if isinstance(channel_or_gateway, Channel):
            gw = channel_or_gateway.gateway
        else:
            gw = channel_or_gateway
        if channel_or_gateway is None:
            strconfig = None
        else:
            strconfig = channel_or_gateway._strconfig
        if strconfig:
            self.py2str_as_py3str, self.py3str_as_py2str = strconfig
        self.stream = stream
'''


def test_an_if_else_folded_into_one_if_keeps_the_else_branch_body() -> None:
    # execnet: `if x is None: a = None / else: a = x._c` became `if x is not None: a = x._c`; the
    # body line pairs with the else branch's, not with the edited `if`'s (misparented.py stays out)
    snippet = '''# ... existing code ...
        else:
            gw = channel_or_gateway
        if channel_or_gateway is not None:
            strconfig = channel_or_gateway._strconfig
# ... existing code ...
'''
    merged = apply(GATEWAY, snippet, filename="gateway_base.py").merged_code
    assert merged == GATEWAY.replace('''        if channel_or_gateway is None:
            strconfig = None
        else:
''', "        if channel_or_gateway is not None:\n")


def test_a_keyword_argument_line_is_no_assignment_for_the_last_read_check() -> None:
    # apscheduler: `Thread(target=..., name=...)` split over lines; `target=` is an argument
    original = '''class BackgroundScheduler(BaseScheduler):
    def start(self, *args, **kwargs):
        BaseScheduler.start(self, *args, **kwargs)
        self._thread = Thread(target=self._main_loop, name='APScheduler')
        self._thread.daemon = self._daemon
        self._thread.start()
'''
    snippet = '''# ... existing code ...
        BaseScheduler.start(self, *args, **kwargs)
        self._thread = Thread(
            target=self._main_loop, name="APScheduler", daemon=self._daemon
        )
        self._thread.start()
'''
    merged = apply(original, snippet, filename="background.py").merged_code
    assert merged == original.replace('''        self._thread = Thread(target=self._main_loop, name='APScheduler')
        self._thread.daemon = self._daemon
''', '''        self._thread = Thread(
            target=self._main_loop, name="APScheduler", daemon=self._daemon
        )
''')


GRIFFE = """# SPDX-License-Identifier: ISC

# Copyright (c) 2021, contributors

# Permission to use, copy, modify, and/or distribute this software.

import sys
"""


def test_bare_comment_lines_written_between_comment_paragraphs_take_the_blank_lines_place() -> None:
    # griffecli: each blank line between the license header's paragraphs became `#`
    snippet = GRIFFE.replace("\n\n#", "\n#\n#").split("\nimport sys")[0] + "\n# ... existing code ...\n"
    merged = apply(GRIFFE, snippet, filename="__init__.py").merged_code
    assert merged == GRIFFE.replace("\n\n#", "\n#\n#")


def test_an_attribute_given_a_literal_right_under_a_closing_line_stays_glued() -> None:
    # langchain-core: `self._fields = {` written right under a call's `)`, as the file would
    original = '''class Stream:
    def finish(self, data):
        self._kwargs = cast(
            "dict[str, Any] | None",
            data.get("additional_kwargs"),
        )

        # Finalize any unswept chunks.
        self._sweep()
'''
    snippet = '''# ... existing code ...
            data.get("additional_kwargs"),
        )
        self._fields = {
            key: value
            for key in KEYS
        }

        # Finalize any unswept chunks.
# ... existing code ...
'''
    merged = apply(original, snippet, filename="stream.py").merged_code
    assert merged == original.replace('''        )

        # Finalize''', '''        )
        self._fields = {
            key: value
            for key in KEYS
        }

        # Finalize''')


def test_a_read_replaced_by_a_word_that_is_no_new_variable_is_no_lost_last_read() -> None:
    # chrono (generated one-word edit): `Ok(fixed_offset)` became `Ok(entry)` while the snippet
    # elsewhere assigns a new variable; `entry` is none of the snippet's new variables
    original = '''fn arbitrary(u: &mut Unstructured) -> Result<FixedOffset> {
    let secs = u.int_in_range(-86_399..=86_399)?;
    let fixed_offset = FixedOffset::east_opt(secs)
        .expect("Could not generate a valid offset.");
    Ok(fixed_offset)
}

fn fallback(value: Option<i64>) -> i64 {
    value.unwrap_or(0)
}
'''
    snippet = '''// ... existing code ...
    let fixed_offset = FixedOffset::east_opt(secs)
        .context("Could not generate a valid offset.");
    Ok(entry)
}

fn fallback(value: Option<i64>) -> i64 {
    let found = value.unwrap_or(0);
    found
}
'''
    merged = apply(original, snippet, filename="fixed.rs").merged_code
    assert "Ok(entry)" in merged and "let found = value.unwrap_or(0);" in merged


def test_a_repeated_line_is_not_slid_across_the_end_of_the_block_it_stands_in() -> None:
    # returns: the part's last `deps=deps,` repeats the part's first one, but the lines between
    # close that call and open another block: no stretch of new lines written above context
    original = '''def assert_equal(first, second, *, deps=None, backend: str = 'asyncio') -> None:
    assert _convert(
        first, deps=deps, backend=backend,
    ) == _convert(
        second, deps=deps, backend=backend,
    ), '{0} == {1}'.format(first, second)


def _convert(container, *, deps, backend: str):
    from returns.interfaces.specific import future, reader

    if isinstance(container, future.AwaitableFutureN):
        import anyio

        return _convert(
            anyio.run(container.awaitable, backend=backend),
            deps=deps,
            backend=backend,
        )
    elif isinstance(container, reader.Contextable):
        return _convert(
            container(deps),
            deps=deps,
            backend=backend,
        )
    return container
'''
    snippet = '''    // ... existing code ...
    assert _convert(
        first,
        deps=deps,
        backend=backend,
    ) == _convert(
        second,
        deps=deps,
        backend=backend,
    ), f'{first} == {second}'


def _convert(container, *, deps, backend: str):
    from returns.interfaces.specific import future, reader  # noqa: PLC0415

    if isinstance(container, future.AwaitableFutureN):
        import anyio  # noqa: PLC0415

        return _convert(
            // ... existing code ...
            deps=deps,
            backend=backend,
        )
    if isinstance(container, reader.Contextable):
        return _convert(
            container(deps),
            deps=deps,
            // ... existing code ...
'''
    try:
        merged = apply(original, snippet, filename="asserts.py").merged_code
    except ApplyError:
        return  # a refusal is fine here; a merge must be the right one
    assert "    elif isinstance(container, reader.Contextable):" not in merged
    assert merged.count("isinstance(container, reader.Contextable)") == 1


FIXED_SIZE = '''from pythran.passmanager import FunctionAnalysis
from pythran.tables import MODULES

import gast as ast


class FixedSizeList(FunctionAnalysis):

    def __init__(self):
        self.result = set()
        from pythran.analyses import Aliases, DefUseChains, Ancestors
        from pythran.analyses import ArgumentEffects
        super(FixedSizeList, self).__init__(Aliases, DefUseChains, Ancestors,
                                            ArgumentEffects)

    def is_fixed_size_list_def(self, node):
        if isinstance(node, ast.List):
            return True

        return False
'''


def test_a_method_under_a_class_whose_header_was_edited_keeps_its_place() -> None:
    # pythran: the class header gained type arguments and its __init__ went; the method shown under
    # it is the old one (the guard against headers inside new blocks leaves edited classes alone)
    snippet = '''# ... existing code ...
from pythran.tables import MODULES
from pythran.analyses import Aliases, Ancestors
from pythran.analyses.use_def_chain import DefUseChains
from pythran.analyses import ArgumentEffects

import gast as ast


class FixedSizeList(FunctionAnalysis[Aliases, DefUseChains, Ancestors, ArgumentEffects]):

    ResultType = set

    def is_fixed_size_list_def(self, node):
        if isinstance(node, ast.List):
            return True
        # ... existing code ...
'''
    merged = apply(FIXED_SIZE, snippet, filename="fixed_size_list.py").merged_code
    assert merged == FIXED_SIZE.replace('''from pythran.tables import MODULES
''', '''from pythran.tables import MODULES
from pythran.analyses import Aliases, Ancestors
from pythran.analyses.use_def_chain import DefUseChains
from pythran.analyses import ArgumentEffects
''').replace('''class FixedSizeList(FunctionAnalysis):

    def __init__(self):
        self.result = set()
        from pythran.analyses import Aliases, DefUseChains, Ancestors
        from pythran.analyses import ArgumentEffects
        super(FixedSizeList, self).__init__(Aliases, DefUseChains, Ancestors,
                                            ArgumentEffects)
''', '''class FixedSizeList(FunctionAnalysis[Aliases, DefUseChains, Ancestors, ArgumentEffects]):

    ResultType = set
''')


def test_an_annotated_field_is_declared_not_read_for_the_last_read_check() -> None:
    # mashumaro: a dataclass field's multi-line annotation rewritten on one line
    original = '''@dataclass
class JSONSchema:
    const: Optional[Any] = None
    format: Optional[
        Union[JSONSchemaStringFormat, JSONSchemaInstanceFormatExtension]
    ] = None
    title: Optional[str] = None
'''
    snippet = '''# ... existing code ...
    const: Optional[Any] = None
    format: Optional[JSONSchemaInstanceFormat] = None
    title: Optional[str] = None
'''
    merged = apply(original, snippet, filename="models.py").merged_code
    assert merged == original.replace('''    format: Optional[
        Union[JSONSchemaStringFormat, JSONSchemaInstanceFormatExtension]
    ] = None
''', "    format: Optional[JSONSchemaInstanceFormat] = None\n")


DIAGRAM = '''class DotGraphMachine:
    def _actions_getter(self):
        if isinstance(self.machine, StateMachine):

            def getter(grouper):
                return self.machine._get_callbacks(grouper.key)
        else:

            def getter(grouper):
                all_names = set(dir(self.machine))
                return ", ".join(
                    str(c) for c in grouper if not c.is_convention or c.func in all_names
                )

        return getter
'''


def test_a_rewritten_header_under_an_else_pairs_with_the_old_one() -> None:
    # python-statemachine: both `def getter(grouper):` gained `-> str`; the one under `else:`
    snippet = '''    # ... existing code ...
    def _actions_getter(self):
        if isinstance(self.machine, StateMachine):

            def getter(grouper) -> str:
                return self.machine._callbacks.str(grouper.key)
        else:

            def getter(grouper) -> str:
                all_names = set(dir(self.machine))
                return ", ".join(
                    str(c) for c in grouper if not c.is_convention or c.func in all_names
    # ... existing code ...
'''
    merged = apply(DIAGRAM, snippet, filename="diagram.py").merged_code
    assert merged == DIAGRAM.replace("def getter(grouper):", "def getter(grouper) -> str:").replace(
        "self.machine._get_callbacks(grouper.key)", "self.machine._callbacks.str(grouper.key)")
