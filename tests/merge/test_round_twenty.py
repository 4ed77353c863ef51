"""Issue 8, twentieth round: real release edits of the nineteenth round's kept-aside batch
check-17 (now tune-51) and of the fresh batches drawn in this round, read case by case."""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply

CLOSURE_PY = """class ClosureJS(JavaTool):
    name = 'closure_js'

    def setup(self):
        super(ClosureJS, self).setup()

        try:
            self.jar = self.get_config('CLOSURE_COMPRESSOR_PATH',
                                       what='Google Closure Compiler')
        except EnvironmentError:
            try:
                import closure
                self.jar = closure.get_jar_filename()
            except ImportError:
                raise EnvironmentError("Closure Compiler jar can't be found.")

    def output(self, _in, out, **kw):
        args = ['--charset', 'UTF-8']
        self.subprocess(args, out, _in)
"""


def test_an_except_left_at_a_column_no_try_has_is_refused() -> None:
    # the inner `try:` lost between the rewritten `except EnvironmentError:` and `import closure`
    # left `except ImportError:` at a column no open block has: Python rejects the file, and
    # tree-sitter-python reads the `except` as its `try`'s clause, so only the columns tell
    broken = CLOSURE_PY.replace("        except EnvironmentError:\n            try:\n",
                                "        except EnvironmentError:\n")
    snippet = broken.replace("self.jar = closure", "return closure")
    with pytest.raises(ApplyError) as info:
        apply(CLOSURE_PY, snippet, filename="closure.py")
    assert info.value.code == "syntax_regressed"


PROTO_PY = """from google.protobuf import descriptor as _descriptor
from google.protobuf import symbol_database as _symbol_database
from google.protobuf.internal import builder as _builder

# @@protoc_insertion_point(imports)

_sym_db = _symbol_database.Default()
"""


def test_a_new_call_statement_glued_to_the_comment_under_it_stays_glued() -> None:
    # protobuf 6's `_runtime_version.Validate...(` .. `)` written where the blank line stood, right
    # above `# @@protoc_insertion_point`: the snippet moved the blank line above it
    snippet = """# ... existing code ...
from google.protobuf.internal import builder as _builder

_runtime_version.ValidateProtobufRuntimeVersion(
    _runtime_version.Domain.PUBLIC, 6, 33, 5, "", "google/iam/v1/policy.proto"
)
# @@protoc_insertion_point(imports)
# ... existing code ...
"""
    merged = apply(PROTO_PY, snippet, filename="policy_pb2.py").merged_code
    assert merged == PROTO_PY.replace("\n# @@protoc", "\n" + snippet.split("\n\n")[1].split("# @@")[0] + "# @@protoc")


SPRITES_PY = """from __future__ import print_function
from __future__ import absolute_import
from webassets.six import StringIO
from contextlib import contextmanager
from webassets.filter import Filter

__all__ = ('Spritemapper',)
"""


def test_a_head_of_python2_futures_and_imports_goes_with_the_import_block_shown_without_it() -> None:
    # the snippet starts with the file's imports from their fourth line, `from io import StringIO`
    # taking the place of `from webassets.six import StringIO`, and ends with a marker
    snippet = """from contextlib import contextmanager
from io import StringIO
from webassets.filter import Filter
# ... existing code ...
"""
    merged = apply(SPRITES_PY, snippet, filename="spritemapper.py").merged_code
    assert merged == """from contextlib import contextmanager
from io import StringIO
from webassets.filter import Filter

__all__ = ('Spritemapper',)
"""


def test_a_head_with_a_future_import_that_still_acts_stays() -> None:
    original = SPRITES_PY.replace("from __future__ import absolute_import", "from __future__ import annotations")
    snippet = """from contextlib import contextmanager
from io import StringIO
from webassets.filter import Filter
# ... existing code ...
"""
    try:
        merged = apply(original, snippet, filename="spritemapper.py").merged_code
    except ApplyError:
        return
    assert "from __future__ import annotations" in merged


EXPRESS_JS = """/**
 * Create a handler for the express framework.
 *
 * ```js
 * import express from 'express';
 *
 * const app = express();
 * app.all('/graphql', createHandler({ schema }));
 *
 * app.listen({ port: 4000 });
 * console.log('Listening to port 4000');
 * ```
 *
 * @category Server/express
 */
function createHandler(options) {
  return handler;
}
"""


def test_a_doc_example_rewritten_at_length_ends_on_the_files_own_fence() -> None:
    # the rewritten example ends `*   return true;`, ` * }`, ` * ```` before the marker: only the
    # fence is the file's (its last line, not the two), and the new lines replace `console.log(...)`
    snippet = """// ... existing code ...
 * app.listen({ port: 4000 });
 * ```
 *
 * A resolver can then manipulate the response:
 *
 * ```js
 * resolve(_, __, { res }) {
 *   return true;
 * }
 * ```
// ... existing code ...
"""
    merged = apply(EXPRESS_JS, snippet, filename="express.js").merged_code
    assert merged == EXPRESS_JS.replace(" * console.log('Listening to port 4000');\n * ```\n", """ * ```
 *
 * A resolver can then manipulate the response:
 *
 * ```js
 * resolve(_, __, { res }) {
 *   return true;
 * }
 * ```
""")


METRICS_YAML = """---
metric:
  name: visits
  type: simple
---
metric:
  name: buys
  type: simple
"""


def test_a_new_yaml_document_repeats_the_key_of_the_others() -> None:
    # `---` starts a document: `metric:` once per document is no duplicate key
    snippet = """# ... existing code ...
metric:
  name: buys
  type: simple
---
metric:
  name: buys_null_filled
  type: simple
"""
    merged = apply(METRICS_YAML, snippet, filename="metrics.yaml").merged_code
    assert merged == METRICS_YAML + "---\nmetric:\n  name: buys_null_filled\n  type: simple\n"


def test_a_repeated_key_in_one_yaml_document_is_still_refused() -> None:
    snippet = """# ... existing code ...
  name: buys
  type: simple
metric:
  name: buys_null_filled
  type: simple
"""
    with pytest.raises(ApplyError) as info:
        apply(METRICS_YAML, snippet, filename="metrics.yaml")
    assert "second time in one mapping" in str(info.value)


ACCORDION_PY = """def _inherited_variant_selector(variant, *selectors):
    return ",".join(selectors)


STYLE = {
    "width": "100%",
    "margin_top": "1px",
    "border_top": divider_style,
    "&:first-child": {
        "margin_top": 0,
        "border_top": 0,
        "border_top_left_radius": "var(--radius-4)",
    },
    "&:focus-within": {
        "z_index": 1,
    },
    _inherited_variant_selector("ghost", "&:first-child"): {
        "border_radius": 0,
        "border_top": divider_style,
    },
}


def accordion_theme():
    return STYLE
"""


@pytest.mark.parametrize("above", ['    "margin_top": "1px",\n', ""])
def test_a_renamed_dict_key_with_a_marker_at_column_zero_inside_is_edited_in_place(above: str) -> None:
    # `"&:first-child": {` became `"&:first-of-type": {`; the marker inside its block is written at
    # column 0, and the line above it is shown (the unique one, or only the repeated one under a marker)
    snippet = f"""# ... existing code ...
{above}    "border_top": divider_style,
    "&:first-of-type": {{
        "margin_top": 0,
# ... existing code ...


def accordion_theme():
    return STYLE
"""
    merged = apply(ACCORDION_PY, snippet, filename="accordion.py").merged_code
    assert merged == ACCORDION_PY.replace('    "&:first-child": {', '    "&:first-of-type": {')


CONFORMANCE_PY = """def verify_signature(base_params, params):
    for bp in base_params:
        cp = next(params)

        while (
            bp.kind is Parameter.VAR_POSITIONAL
            and cp.kind is Parameter.POSITIONAL_OR_KEYWORD
        ):
            cp = next(params)

        while (
            bp.kind is Parameter.VAR_KEYWORD
            and cp.kind is not Parameter.VAR_KEYWORD
        ):
            cp = next(params)

        if not (cp.name == bp.name and bp.kind == cp.kind):
            raise ValueError(bp, cp)
    return True
"""


def test_a_wrapped_header_left_with_its_body_at_its_own_depth_is_refused() -> None:
    # the joined `while ... :` lines are not read as the wrapped ones' edits; the body line the
    # snippet shows under the marker lands right under the old `):`, at its depth: Python rejects
    # that (interface-meta's black-formatted conditions joined again)
    snippet = """def verify_signature(base_params, params):
    # ... existing code ...
        cp = next(params)

        while bp.kind is Parameter.VAR_POSITIONAL and cp.kind is Parameter.POSITIONAL_OR_KEYWORD:
            cp = next(params)

        while bp.kind is Parameter.VAR_KEYWORD and cp.kind is not Parameter.VAR_KEYWORD:
            cp = next(params)

        if not (cp.name == bp.name and bp.kind == cp.kind):
            raise ValueError(bp, cp)
    # ... existing code ...
"""
    try:
        merged = apply(CONFORMANCE_PY, snippet, filename="conformance.py").merged_code
    except ApplyError as error:
        assert error.code == "syntax_regressed"
        return
    compile(merged, "conformance.py", "exec")  # (merged: then as valid Python)


DATETIME_C = """    if (check_tzinfo_subclass(tzinfo) < 0) {
        return NULL;
    }
#endif

    PyObject *t = PyDateTimeAPI->Time_FromTime(
        hour, minute, second, microsecond, tzinfo, PyDateTimeAPI->TimeType);

    Py_DECREF(tzinfo);
    return t;

invalid_string_error:
    PyErr_Format(PyExc_ValueError, "Invalid isoformat string: %R", tstr);
    return NULL;
}

static PyObject *
_sanitize_isoformat_str(PyObject *dtstr)
{
    Py_ssize_t len = PyUnicode_GetLength(dtstr);
    if (len < 7) {  // All valid ISO 8601 strings are at least 7 characters long
        return NULL;
    }

    return dtstr;
}
"""


UNICODE_COPY_C = """PyObject *
_PyUnicode_Copy(PyObject *unicode)
{
    Py_ssize_t length;
    PyObject *copy;

    if (!PyUnicode_Check(unicode)) {
        PyErr_BadInternalCall();
        return NULL;
    }

    length = PyUnicode_GET_LENGTH(unicode);
    copy = PyUnicode_New(length, PyUnicode_MAX_CHAR_VALUE(unicode));
    if (!copy)
        return NULL;
    assert(PyUnicode_KIND(copy) == PyUnicode_KIND(unicode));

    memcpy(PyUnicode_DATA(copy), PyUnicode_DATA(unicode),
           length * PyUnicode_KIND(unicode));
    assert(_PyUnicode_CheckConsistency(copy, 1));
    return copy;
}
"""


def test_common_lines_under_a_marker_stand_beside_the_anchor_after_the_new_code() -> None:
    # `return NULL;` + `}` under a marker, a new function, then `static PyObject *`: the two lines
    # are the ones right above that anchor, not the copy in the `#if` block above, and the new
    # function goes between them (backports-datetime-fromisoformat; its file has `return NULL;`
    # eighteen times, one copy starting a longer run of common lines)
    snippet = "// ... existing code ...\n    return NULL;\n}\n\n" + UNICODE_COPY_C + """
static PyObject *
_sanitize_isoformat_str(PyObject *dtstr)
// ... existing code ...

"""
    merged = apply(DATETIME_C, snippet, filename="_datetimemodule.c").merged_code
    assert merged == DATETIME_C.replace("static PyObject *\n_sanitize_isoformat_str",
                                       UNICODE_COPY_C + "\nstatic PyObject *\n_sanitize_isoformat_str")


CLIZE_PY = """class Clize(object):
    def __init__(self, fn, owner=None, alt=(), extra=(),
                 help_names=('help', 'h'), helper_class=None, hide_help=False,
                 ):
        self.func = fn
        self.owner = owner

    def __repr__(self):
        return '<Clize>'
"""


def test_a_hung_closing_parenthesis_of_a_signature_is_no_empty_block() -> None:
    # clize's `):` hangs deeper than `def`, the body shallower than it: not a block left empty
    snippet = """class Clize(object):
    def __init__(self, fn, owner=None, alt=(), extra=(),
                 help_names=('help', 'h'), helper_class=None, hide_help=False,
                 description=None,
                 ):
        self.func = fn
# ... existing code ...
"""
    merged = apply(CLIZE_PY, snippet, filename="runner.py").merged_code
    assert merged == CLIZE_PY.replace("hide_help=False,\n", "hide_help=False,\n                 description=None,\n")


KECCAK_PY = """from typing import (
    Union,
)

from .abc import (
    BackendAPI,
)


class Keccak256:
    def __init__(self, backend: BackendAPI) -> None:
        self._backend = backend

    def __call__(self, preimage: Union[bytearray, bytes]) -> bytes:
        return self._backend.keccak256(preimage)

    def new(self, preimage: Union[bytearray, bytes]) -> bytes:
        return self._backend.preimage(preimage)
"""


def test_an_import_wrapped_in_parentheses_whose_last_use_the_snippet_rewrites_goes() -> None:
    # eth-hash: every `Union[bytearray, bytes]` became `bytearray | bytes`; the snippet starts
    # at the next import without a marker, and the `from typing import (` / `Union,` / `)` above
    # it goes with its last use
    snippet = """from .abc import (
    BackendAPI,
# ... existing code ...
    def __call__(self, preimage: bytearray | bytes) -> bytes:
        return self._backend.keccak256(preimage)

    def new(self, preimage: bytearray | bytes) -> bytes:
        return self._backend.preimage(preimage)
"""
    merged = apply(KECCAK_PY, snippet, filename="main.py").merged_code
    assert merged == KECCAK_PY.replace("from typing import (\n    Union,\n)\n\n", "") \
        .replace("Union[bytearray, bytes]", "bytearray | bytes")


def test_an_import_block_shown_from_its_second_wrapped_import_drops_the_first() -> None:
    # eth-account: the snippet starts with the file's second import (wrapped) and a marker at its
    # end; the wrapped `from typing import (` above it counts as one import line
    original = KECCAK_PY.replace("class Keccak256:", "ETHEREUM_DEFAULT_PATH = \"m/44'/60'/0'/0/0\"\n\n\nclass Keccak256:")
    snippet = """from .abc import (
    BackendAPI,
)


ETHEREUM_DEFAULT_PATH = "m/44'/60'/0'/0/1"
# ... existing code ...
"""
    merged = apply(original, snippet, filename="__init__.py").merged_code
    assert merged == original.replace("from typing import (\n    Union,\n)\n\n", "").replace("0'/0/0", "0'/0/1")


OVERLOADS_PY = """@overload
def gaussian_blur3d(
    volume: np.ndarray,
    sigma: float,
) -> np.ndarray: ...


@overload
def gaussian_blur3d(
    volume: torch.Tensor,
    sigma: float,
) -> torch.Tensor: ...


def gaussian_blur3d(volume, sigma):
    return volume
"""


def test_a_dotted_annotation_swapped_for_a_plain_name_is_an_edit_in_place() -> None:
    # albucore: `np.ndarray` became `ImageArrayT` in the first overload; its `) -> np.ndarray: ...`
    # is the edited line, not a line kept under the next overload's header
    snippet = """# ... existing code ...
@overload
def gaussian_blur3d(
    volume: ImageArrayT,
    sigma: float,
) -> ImageArrayT: ...


@overload
def gaussian_blur3d(
# ... existing code ...
"""
    merged = apply(OVERLOADS_PY, snippet, filename="filter3d.py").merged_code
    assert merged == OVERLOADS_PY.replace("np.ndarray", "ImageArrayT")


CTR_PY = """class CtrMode:
    def encrypt(self, data, output=None):
        \"\"\"Encrypt or decrypt (which are the same operation in CTR mode)\"\"\"

        if output is None:
            result_buffer = create_output_buffer(len(data))
        else:
            result_buffer = output

        with c_uint8_ptr_out(result_buffer) as result_ptr:
            result = self._ctr(data, result_ptr)
        self._check(result, what)

        if output is None:
            return get_raw_buffer(result_buffer)
        else:
            return None
"""


def test_a_line_of_a_new_block_the_file_has_once_elsewhere_does_not_anchor_it() -> None:
    # pycryptodome's new fast path ends `if result:` / `self._check(result, what)`, a line the
    # file has once, further down and shallower: paired, it deleted the `if output is None:` block
    # that the snippet goes on with after a marker
    snippet = """# ... existing code ...
        \"\"\"Encrypt or decrypt (which are the same operation in CTR mode)\"\"\"

        if output is None and type(data) is bytes:
            buffer = create_string_buffer(len(data))
            result = raw_ctr_lib.CTR_encrypt(self._state.get(), data, buffer)
            if result:
                self._check(result, what)
            return get_raw_buffer(buffer)

        if output is None:
            # ... existing code ...
"""
    merged = apply(CTR_PY, snippet, filename="_mode_ctr.py").merged_code
    assert merged == CTR_PY.replace("""mode)\"\"\"

""", """mode)\"\"\"

        if output is None and type(data) is bytes:
            buffer = create_string_buffer(len(data))
            result = raw_ctr_lib.CTR_encrypt(self._state.get(), data, buffer)
            if result:
                self._check(result, what)
            return get_raw_buffer(buffer)

""")


ITERATORS_PY = """def item_iterator(value, path=()):
    yield path, value


def reference_iterator(specs, path=()):
    \"\"\"Iterate through the given specs, returning only references.\"\"\"
    # We need to iterate through the nested specification dict.
    for item_path, item in item_iterator(specs, path):
        if len(item_path) <= 0:
            continue
        key = item_path[-1]
        if key == "$ref":
            yield key, item, item_path[:-1]
"""


def test_a_rewritten_last_body_whose_one_common_line_moved_deeper_still_replaces_the_old_one() -> None:
    # prance: the new body's `if key == "$ref":` (deeper, in a new loop) is its only line the old
    # body has; nothing follows it to place elsewhere, so it still ends the old body, which goes
    snippet = """# ... existing code ...
def reference_iterator(specs, path=()):
    \"\"\"Iterate through the given specs, returning only references.\"\"\"
    stack = [(path, specs)]
    while stack:
        current_path, value = stack.pop()
        for key, item in value.items():
            if key == "$ref":
                yield "$ref", item, current_path
"""
    merged = apply(ITERATORS_PY, snippet, filename="iterators.py").merged_code
    assert merged == ITERATORS_PY.split("    # We need")[0] + snippet.split("references.\"\"\"\n")[1]


PYOGRIO_PY = '''"""Vectorized vector I/O using OGR."""

try:
    # we try importing shapely, to ensure it is imported (and it can load its
    # own GEOS copy) before we load GDAL and its linked GEOS
    import shapely
    import shapely.geos  # noqa: F401
except Exception:
    pass

from pyogrio.core import (
    list_drivers,
    list_layers,
)
'''


def test_a_common_opener_the_file_has_once_above_a_marker_inside_it_is_placed() -> None:
    # the first line edited, no first marker, then `try:` and a marker for its body: `try:` is the
    # file's only one, so the marker stands for that block's lines
    snippet = '''"""Bulk-oriented vector I/O using OGR."""

try:
    # ... existing code ...
from pyogrio.core import (
    list_drivers,
    list_drivers_details,
    list_layers,
)
'''
    merged = apply(PYOGRIO_PY, snippet, filename="__init__.py").merged_code
    assert merged == PYOGRIO_PY.replace("Vectorized", "Bulk-oriented") \
        .replace("    list_drivers,\n", "    list_drivers,\n    list_drivers_details,\n")


PARSER_JS = """class Decoder {
    add(packet) {
        if (isBinaryEvent) {
            // binary packet's json
            this.reconstructor = new BinaryReconstructor(packet);
            // no attachments, labeled binary but no binary data to follow
            if (packet.attachments === 0) {
                super.emitReserved("decoded", packet);
            }
        }
        else {
            // non-binary full packet
            super.emitReserved("decoded", packet);
        }
    }
    destroy() {
        if (this.reconstructor) {
            this.reconstructor = null;
        }
        else {
            return;
        }
    }
}
"""


def test_lines_deleted_between_an_anchor_and_the_closing_context_under_it_go() -> None:
    # socket.io-parser: the snippet goes from `this.reconstructor = ...` straight to `}` and
    # `else {` (the file has several): the inner `if` between them is deleted, the `}` / `else {`
    # are the nearest ones, and the marker stands for the else branch
    snippet = """        // ... existing code ...
            // binary packet's json
            this.reconstructor = new BinaryReconstructor(packet);
        }
        else {
        // ... existing code ...
"""
    merged = apply(PARSER_JS, snippet, filename="index.js").merged_code
    assert merged == PARSER_JS.replace("""            // no attachments, labeled binary but no binary data to follow
            if (packet.attachments === 0) {
                super.emitReserved("decoded", packet);
            }
""", "")


FAST_ENUM_PY = '''"""
This is a replacement for the stdlib enum.IntEnum.

Notably, it has much better import time performance, since it doesn't generate
and evaluate Python code at startup time.

It supports the most important subset of the IntEnum API.  See `test_enum` in
`cuda_bindings/tests/test_basics.py` for details.
"""

from typing import Any, Iterator


class FastEnumMetaclass(type):
    def __init__(cls, name, bases, namespace):
        super().__init__(name, bases, namespace)

        cls.__singletons__ = {}
        cls.__members__ = {}
        for name, value in cls.__dict__.items():
            if name.startswith("__") and name.endswith("__"):
                continue

            if isinstance(value, tuple):
                value, doc = value
            elif isinstance(value, int):
                doc = None
            else:
                continue

            singleton = int.__new__(cls, value)
            singleton.__doc__ = doc
            singleton._name = name
            cls.__singletons__[value] = singleton
            cls.__members__[name] = singleton

        for name, member in cls.__members__.items():
            setattr(cls, name, member)

'''


def test_a_common_line_over_a_body_moved_into_a_new_block_keeps_its_place() -> None:
    # cuda-bindings: `continue` under a marker, then the old body lines wrapped in a new `if`
    # (re-indented, so the anchor after `continue` is deeper than in the file): `continue` is the
    # copy right above them, at the depth the part above the marker keeps
    snippet = '''"""
This is a replacement for the stdlib enum.IntEnum.
                # ... existing code ...
                continue

            # A name sharing a value with an already-processed member is an
            # alias (e.g. a deprecated name kept for backward compatibility):
            # it resolves to the same singleton, but isn't a distinct member.
            if (singleton := cls.__singletons__.get(value)) is None:
                singleton = int.__new__(cls, value)
                singleton.__doc__ = doc
                singleton._name = name
                cls.__singletons__[value] = singleton
            cls.__members__[name] = singleton

        for name, member in cls.__members__.items():
        # ... existing code ...
'''
    merged = apply(FAST_ENUM_PY, snippet, filename="_fast_enum.py").merged_code
    assert merged == FAST_ENUM_PY.replace('''            singleton = int.__new__(cls, value)
            singleton.__doc__ = doc
            singleton._name = name
            cls.__singletons__[value] = singleton
''', '''            # A name sharing a value with an already-processed member is an
            # alias (e.g. a deprecated name kept for backward compatibility):
            # it resolves to the same singleton, but isn't a distinct member.
            if (singleton := cls.__singletons__.get(value)) is None:
                singleton = int.__new__(cls, value)
                singleton.__doc__ = doc
                singleton._name = name
                cls.__singletons__[value] = singleton
''')


COLLECTIONS_PY = '''import collections


def dict2namedtuple(*args, **kwargs) -> tuple:
    """Helper function to create a `namedtuple` from a dictionary.

    Examples:
        >>> tpl = dict2namedtuple(foo=1, bar="hello")
        >>> assert tpl.foo == 1 and tpl.bar == "hello"

        >>> tpl = dict2namedtuple([("foo", 1), ("bar", "hello")])
        >>> assert tpl[0] is tpl.foo and tpl[1] is tpl.bar

    Warnings:
        - The order of the items in the namedtuple is not deterministic if
          `kwargs` are used. namedtuples, however, should always be accessed
          by attribute hence this behaviour should not be a serious problem.

        - Don't use this function in code where memory and performance are
          crucial, since a dict is needed to instantiate the tuple!

    """
    dct = collections.OrderedDict(*args)
    dct.update(**kwargs)
    return collections.namedtuple(
        typename="dict2namedtuple", field_names=list(dct.keys())
    )(**dct)
'''


def test_docstring_prose_a_rewritten_paragraph_replaces_goes() -> None:
    # monty: the `Warnings:` paragraph rewritten as one sentence; the prose lines it replaces
    # share no word with it, which for code would mean code the snippet left out: prose goes, as
    # comment lines do
    snippet = '''        # ... existing code ...
        >>> assert tpl[0] is tpl.foo and tpl[1] is tpl.bar

    Warnings:
        Don't use this function in code where memory and performance are
          crucial, since a dict is needed to instantiate the tuple!

    """
    dct = dict(*args)
    dct.update(**kwargs)
    # ... existing code ...
'''
    merged = apply(COLLECTIONS_PY, snippet, filename="collections.py").merged_code
    assert merged == COLLECTIONS_PY.replace('''        - The order of the items in the namedtuple is not deterministic if
          `kwargs` are used. namedtuples, however, should always be accessed
          by attribute hence this behaviour should not be a serious problem.

        - Don't use''', "        Don't use").replace("collections.OrderedDict(*args)", "dict(*args)")


LAYOUT_PY = '''class ImageProcessor:
    def _is_image_too_large(self, height, width):
        return height * width > 1024

    def resize_and_split(self, images, height, width):
        is_image_large = self._is_image_too_large(
            height=height,
            width=width,
        )
        return images if is_image_large else None
'''


def test_a_marker_inside_a_call_of_a_new_method_is_refused() -> None:
    # lfm2-vl: a new method whose body opens `self._is_image_too_large(` (a line the file has in
    # another method) and goes on after a column-0 marker: the marker stands for lines of a method
    # the file does not have
    snippet = '''# ... existing code ...
        return height * width > 1024

    def _get_split_layout(
        self,
        height: int,
        width: int,
    ) -> bool:
        is_image_large = self._is_image_too_large(
# ... existing code ...
        )
        return is_image_large

    def resize_and_split(self, images, height, width):
# ... existing code ...
'''
    with pytest.raises(ApplyError) as info:
        apply(LAYOUT_PY, snippet, filename="image_processing.py")
    assert info.value.code == "anchor_not_found" and "_get_split_layout" in str(info.value)


OPERATOR_PY = '''"""Useful additional functions for operators."""

import contextlib
import operator


def operator_from_str(op: str):
    d = {
        "==": operator.eq,
        "*": operator.mul,
    }

    with contextlib.suppress(AttributeError):
        d["/"] = operator.truediv

    return d[op]
'''


def test_a_statement_block_deleted_with_its_blank_lines_leaves_the_rest_glued() -> None:
    # monty: the `with contextlib.suppress(...)` block and the blank lines around it went, the
    # snippet gluing `}` and `return d[op]`: no method went, so no blank line is owed there
    snippet = '''"""Useful additional functions for operators."""

import operator
# ... existing code ...
        "*": operator.mul,
        "/": operator.truediv,
    }
    return d[op]
'''
    merged = apply(OPERATOR_PY, snippet, filename="operator.py").merged_code
    assert merged == OPERATOR_PY.replace("import contextlib\n", "").replace('''    }

    with contextlib.suppress(AttributeError):
        d["/"] = operator.truediv

    return''', '''        "/": operator.truediv,
    }
    return''')


CONV_PY = '''def causal_conv1d_fn(x, weight, bias, **kwargs):
    return x


class ShortConvolution(nn.Module):
    def forward(self, hidden_states, cache, **kwargs):
        hidden_states = apply_mask_to_padding_states(hidden_states, self.mask)
        hidden_states = hidden_states.transpose(1, 2)

        if cache is not None:
            conv_state = cache.get_conv_state(self.layer_idx, state_idx=self.conv_idx)
        else:
            conv_state = None

        if conv_state is not None and not cache.is_recording_past(self.layer_idx):
            hidden_states = causal_conv1d_update(hidden_states, conv_state, self.conv1d.weight)
        else:
            if cache is not None:
                hidden_states = cache.update_conv_state(hidden_states, self.layer_idx, state_idx=self.conv_idx)
            hidden_states = causal_conv1d_fn(hidden_states, self.conv1d.weight, self.conv1d.bias, **kwargs)
            if cache is not None:
                hidden_states = hidden_states[:, :, -self.seq_len:]

        hidden_states = hidden_states.transpose(1, 2)
        return hidden_states
'''


def test_a_block_rewritten_as_one_call_is_replaced_up_to_the_copy_before_the_marker() -> None:
    # inkling: the conv-state block became a call of a new function (whose signature has its own
    # `**kwargs,`); the second `transpose(1, 2)`, before the marker, is the file's second one,
    # and the block between goes, though its `conv_state = None` names nothing the call does
    snippet = '''def causal_conv1d_fn(x, weight, bias, **kwargs):
    return x


def causal_conv1d_forward(
    conv1d,
    hidden_states,
    cache,
    layer_idx,
    state_idx=0,
    **kwargs,
):
    return causal_conv1d_fn(hidden_states, conv1d.weight, conv1d.bias, **kwargs)


class ShortConvolution(nn.Module):
    # ... existing code ...
        hidden_states = apply_mask_to_padding_states(hidden_states, self.mask)
        hidden_states = hidden_states.transpose(1, 2)

        hidden_states = causal_conv1d_forward(
            self.conv1d,
            hidden_states,
            cache,
            self.layer_idx,
            state_idx=self.conv_idx,
            **kwargs,
        )

        hidden_states = hidden_states.transpose(1, 2)
        # ... existing code ...
'''
    merged = apply(CONV_PY, snippet, filename="modeling_inkling.py").merged_code
    start = CONV_PY.index("        if cache is not None:\n            conv_state")
    end = CONV_PY.index("        hidden_states = hidden_states.transpose(1, 2)\n        return")
    expected = CONV_PY[:start] + snippet.split("transpose(1, 2)\n\n", 1)[1].split("\n        hidden_states = hidden_states.transpose")[0] \
        + "\n" + CONV_PY[end:]
    expected = expected.replace("    return x\n\n\n", "    return x\n\n\n" + snippet.split("    return x\n\n\n")[1].split("class ShortConvolution")[0])
    assert merged == expected
