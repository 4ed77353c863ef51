"""Tenth round: cases from release pairs (tune-19) that merged wrong, each reduced to its rule."""

from __future__ import annotations

from fastapply import apply

SWAPPABLE = '''\
class _LawSpec(LawSpecDef):
    """Laws for :class:`~SwappableN` type."""

    __slots__ = ()

    @law_definition
    def double_swap_law(container) -> None:
        assert_equal(container, container.swap().swap())


class SwappableN(Lawful['SwappableN']):
    """Interface that allows swapping first and second type values."""

    __slots__ = ()

    _laws: ClassVar[Sequence[Law]] = (
        Law1(_LawSpec.double_swap_law),
    )

    @abstractmethod
    def swap(self):
        """Swaps first and second types in ``SwappableN``."""
'''


def test_a_call_closed_before_its_comma_is_no_header() -> None:
    """returns' `_laws` tuple joined onto one line: `Law1(spec.law),` is an element of the tuple,
    not the first line of a definition's signature, so the copy of `__slots__ = ()` right above
    it is the one the snippet edits (the other copy lies in another class)."""
    snippet = '''    # ... existing code ...
    __slots__ = ()

    _laws: ClassVar[Sequence[Law]] = (Law1(_LawSpec.double_swap_law),)

    @abstractmethod
    # ... existing code ...
'''
    expected = SWAPPABLE.replace("(\n        Law1(_LawSpec.double_swap_law),\n    )", "(Law1(_LawSpec.double_swap_law),)")
    assert apply(SWAPPABLE, snippet, filename="swappable.py").merged_code == expected


def test_a_signature_continued_after_a_comma_is_still_a_header() -> None:
    from fastapply.merge.lines import header_key

    assert header_key("int compute(int a,") == "compute"
    assert header_key("Law1(_LawSpec.double_swap_law),") is None


STUB = '''\
from typing import Any, List

CallbacksArg = List[Any]
ModelParameter = List[Any]

def listify(obj: Any) -> List[Any]: ...

def _prep_ordered_arg(desired_length: int) -> List[Any]: ...

class State:
    dynamic_methods: List[str]
    def __init__(self, name: str) -> None: ...

class Model:
    name: str
    def __init__(self, model: Any = ...) -> None: ...

class Condition:
    target: bool
    def __init__(self, func: Any, target: bool = ...) -> None: ...

def ensure(value: Any) -> None: ...
'''


def test_two_blank_lines_before_a_top_level_definition_after_new_code_stay() -> None:
    """transitions' core.pyi writes one blank line between its stubs; the release added a class
    with PEP 8's two blank lines on both sides, and the snippet shows them. Two blank lines before
    a top-level Python definition are never a slip (the generator's blank_doubled habit never
    writes them either): both runs stay as the snippet writes them."""
    snippet = '''from typing import Any, List
# ... existing code ...
ModelParameter = List[Any]


class MachineConfig(TypedDict, total=False):
    states: List[Any]
    queued: bool


def listify(obj: Any) -> List[Any]: ...
# ... existing code ...
'''
    expected = STUB.replace("ModelParameter = List[Any]\n\n", "ModelParameter = List[Any]\n\n\nclass MachineConfig("
                            "TypedDict, total=False):\n    states: List[Any]\n    queued: bool\n\n\n")
    assert apply(STUB, snippet, filename="core.pyi").merged_code == expected


BUMP_JS = """\
class Bump {
  constructor(context) {
    this._context = context;
  }
  point(x, y) {
    x = +x, y = +y;
    switch (this._point) {
      case 0: {
        this._point = 1;
        this._context.moveTo(x, y);
        break;
      }
      default: {
        this._context.lineTo(x, y);
        break;
      }
    }
    this._x0 = x, this._y0 = y;
  }
}

class BumpRadial {
  constructor(context) {
    this._context = context;
  }
  point(x, y) {
    x = +x, y = +y;
    if (this._point++ === 0) {
      this._x0 = x, this._y0 = y;
    } else {
      const p0 = pointRadial(this._x0, this._y0);
      this._context.moveTo(...p0);
    }
  }
}
"""


def test_an_else_of_the_snippet_does_not_vouch_for_dropping_another_class() -> None:
    """d3-shape's curve/bump.js: the edited line `this._point = 1;` of the second class's method is
    also a line of the first class; paired there, the link to `} else {` and `const p0` would drop
    the first class's end and the second class's head and keep the rest. The snippet's `} else {`
    is a header for the lines below it, not for the class and method the link drops."""
    snippet = """    // ... existing code ...
    x = +x, y = +y;
    if (this._point === 0) {
      this._point = 1;
    } else {
      const p0 = pointRadial(this._x0, this._y0);
      // ... existing code ...
      this._context.moveTo(...p0);
    }
    this._x0 = x, this._y0 = y;
  }
}
"""
    expected = BUMP_JS.replace("""    if (this._point++ === 0) {
      this._x0 = x, this._y0 = y;""", """    if (this._point === 0) {
      this._point = 1;""").replace("""      this._context.moveTo(...p0);
    }
""", """      this._context.moveTo(...p0);
    }
    this._x0 = x, this._y0 = y;
""")
    assert apply(BUMP_JS, snippet, filename="bump.js").merged_code == expected


LAZY_PYI = '''\
from _typeshed import Incomplete
from collections.abc import Iterator
from typing import TypeVar

_T = TypeVar("_T")

class LazyList(list[_T]):
    def __new__(cls, fill_iter: Incomplete | None = None) -> LazyList[_T]: ...

class LazySet(set[_T]):
    def __new__(cls, fill_iter: Incomplete | None = None) -> LazySet[_T]: ...
'''


def test_a_snippet_reaching_the_files_end_from_its_second_import_deletes_the_first() -> None:
    """typeshed's pytz stub: the edit drops `Incomplete` and its import; the snippet starts at the
    second import and runs to the file's end without a last marker (no open end to doubt)."""
    snippet = '''from collections.abc import Iterator
from typing import TypeVar

_T = TypeVar("_T")
# ... existing code ...
class LazyList(list[_T]):
    def __new__(cls, fill_iter=None) -> LazyList[_T]: ...

class LazySet(set[_T]):
    def __new__(cls, fill_iter=None) -> LazySet[_T]: ...
'''
    expected = LAZY_PYI.replace("from _typeshed import Incomplete\n", "").replace(
        "fill_iter: Incomplete | None = None", "fill_iter=None")
    assert apply(LAZY_PYI, snippet, filename="lazy.pyi").merged_code == expected


def test_a_whole_file_without_markers_drops_the_import_its_edit_left_unused() -> None:
    """typeshed's reportlab stub: the whole new file, no markers, without its first import, whose
    only use the edit removed: the import goes too. (An import the file never used stays:
    tests/merge/test_round_seven.py.)"""
    snippet = LAZY_PYI.replace("from _typeshed import Incomplete\n", "").replace(
        "fill_iter: Incomplete | None = None", "fill_iter=None")
    assert apply(LAZY_PYI, snippet, filename="lazy.pyi").merged_code == snippet


CONFIG_PYI = '''\
from _typeshed import Incomplete

debug: int
defCWRF: float
T1SearchPath: Incomplete
TTFSearchPath: Incomplete
CMapSearchPath: Incomplete
shapedFontGlob: list[Incomplete]
'''


def test_the_files_last_declarations_edited_in_another_order_replace_it() -> None:
    """reportlab's rl_config stub: the last declarations retyped, one renamed and moved up among
    them; each old line has its counterpart by the name it declares, so they are the file's tail
    edited, not new lines above it."""
    snippet = '''# ... existing code ...
defCWRF: float
unShapedFontGlob: list[str] | None
T1SearchPath: list[str]
TTFSearchPath: list[str]
CMapSearchPath: list[str]
'''
    expected = CONFIG_PYI.replace(
        "T1SearchPath: Incomplete\nTTFSearchPath: Incomplete\nCMapSearchPath: Incomplete\nshapedFontGlob: list[Incomplete]\n",
        "unShapedFontGlob: list[str] | None\nT1SearchPath: list[str]\nTTFSearchPath: list[str]\nCMapSearchPath: list[str]\n")
    assert apply(CONFIG_PYI, snippet, filename="rl_config.pyi").merged_code == expected


ERRORS_JS = """\
const codes = {
  FST_ERR_DEC_MISSING_DEPENDENCY: createError(
    'FST_ERR_DEC_MISSING_DEPENDENCY',
    "The decorator is missing dependency '%s'."
  ),
  FST_ERR_DEC_AFTER_START: createError(
    'FST_ERR_DEC_AFTER_START',
    "The decorator '%s' has been added after start!"
  ),

  /**
   * hooks
  */
  FST_ERR_HOOK_INVALID_TYPE: createError(
    'FST_ERR_HOOK_INVALID_TYPE',
    'The hook name must be a string'
  ),
  FST_ERR_HOOK_TIMEOUT: createError(
    'FST_ERR_HOOK_TIMEOUT',
    "A callback for '%s' hook timed out."
  ),

  /**
   * logger
  */
  FST_ERR_LOG_INVALID_DESTINATION: createError(
    'FST_ERR_LOG_INVALID_DESTINATION',
    'Cannot specify both logger.stream and logger.file options'
  )
}
"""


def test_an_entry_glued_to_its_sibling_stays_glued_before_a_commented_section() -> None:
    """fastify's error table glues its entries and sets off commented sections with a blank line:
    a new entry written right under the last one of a section is glued as written."""
    snippet = """  // ... existing code ...
    "The decorator '%s' has been added after start!"
  ),
  FST_ERR_DEC_UNDECLARED: createError(
    'FST_ERR_DEC_UNDECLARED',
    "No decorator '%s' has been declared on %s."
  ),

  /**
   * hooks
  */
  // ... existing code ...
"""
    expected = ERRORS_JS.replace("""added after start!"
  ),
""", """added after start!"
  ),
  FST_ERR_DEC_UNDECLARED: createError(
    'FST_ERR_DEC_UNDECLARED',
    "No decorator '%s' has been declared on %s."
  ),
""")
    assert apply(ERRORS_JS, snippet, filename="errors.js").merged_code == expected


MACHINE_JS = """\
function createMachine(config) {
  function resolveChildren(children) {
    Object.keys(children).forEach(actorId => {
      children[actorId] = spawn(actorId);
    });
    return children;
  }

  function restoreState(state) {
    return state;
  }

  return { resolveChildren, restoreState };
}
"""


def test_new_helpers_glued_under_a_statement_stay_glued_to_each_other() -> None:
    """xstate's bundle: two nested helpers written one under the other, right under the statement
    before them; the first is glued as the snippet writes it, and so is the second (the file's
    usual blank line between functions was added between them)."""
    snippet = """  // ... existing code ...
    Object.keys(children).forEach(actorId => {
      children[actorId] = spawn(actorId);
    });
    function resolveNode(id, root) {
      return root.getNode(id);
    }
    function reviveHistory(history, root) {
      return resolveNode(history, root);
    }
    return children;
  // ... existing code ...
"""
    expected = MACHINE_JS.replace("""    });
    return children;""", """    });
    function resolveNode(id, root) {
      return root.getNode(id);
    }
    function reviveHistory(history, root) {
      return resolveNode(history, root);
    }
    return children;""")
    assert apply(MACHINE_JS, snippet, filename="machine.js").merged_code == expected


CONVERT_PYI = '''\
from _typeshed import Incomplete

def to_str_or_normalized_unicode(val): ...
def attribute_to_dict(attribute): ...
def validate_assertion_value(schema, name, value, check_names): ...
def validate_attribute_value(
    schema, name, value, validator: Incomplete | None = None, check_names: bool = False
): ...
def prepare_filter_for_sending(raw_string): ...
def prepare_for_sending(raw_string): ...
'''


def test_an_import_whose_last_use_the_snippet_rewrites_goes_with_it() -> None:
    """typeshed's ldap3 stub: the only use of `Incomplete` lies in the signature the snippet
    rewrites, the snippet starts under the import without a marker and no longer uses the name:
    the import goes. With a use left outside what the snippet rewrites, it stays."""
    snippet = '''def to_str_or_normalized_unicode(val): ...
# ... existing code ...
def validate_assertion_value(schema, name, value, check_names): ...
def validate_attribute_value(schema, name, value, validator=None, check_names: bool = False): ...
def prepare_filter_for_sending(raw_string): ...
# ... existing code ...
'''
    expected = CONVERT_PYI.replace("from _typeshed import Incomplete\n\n", "").replace(
        "(\n    schema, name, value, validator: Incomplete | None = None, check_names: bool = False\n)",
        "(schema, name, value, validator=None, check_names: bool = False)")
    assert apply(CONVERT_PYI, snippet, filename="convert.pyi").merged_code == expected
    used = CONVERT_PYI.replace("def prepare_for_sending(raw_string): ...", "def prepare_for_sending(raw_string) -> Incomplete: ...")
    assert apply(used, snippet, filename="convert.pyi").merged_code.startswith("from _typeshed import Incomplete\n")


FINDERS_PYI = '''\
import sys

def spec_from_file_location(name: str, location: str | None = None) -> ModuleSpec | None: ...

class WindowsRegistryFinder(MetaPathFinder):
    @classmethod
    def find_spec(cls, fullname: str) -> ModuleSpec | None: ...

class PathFinder(MetaPathFinder):
    @classmethod
    def invalidate_caches(cls) -> None: ...
'''


def test_a_new_decorator_above_a_kept_header_is_glued_to_it() -> None:
    """typeshed's _frozen_importlib_external: a multi-line `@deprecated(...)` written right above a
    class the file had set off by a blank line; the blank line stays above the decorator, never
    between it and the class."""
    snippet = '''# ... existing code ...
def spec_from_file_location(name: str, location: str | None = None) -> ModuleSpec | None: ...
@deprecated(
    "Deprecated as of Python 3.6: Use site configuration instead. "
)
class WindowsRegistryFinder(MetaPathFinder):
    # ... existing code ...
'''
    expected = FINDERS_PYI.replace("ModuleSpec | None: ...\n\nclass WindowsRegistryFinder", 'ModuleSpec | None: ...\n@deprecated(\n    "Deprecated as of Python 3.6: Use site configuration instead. "\n)\nclass WindowsRegistryFinder')
    assert apply(FINDERS_PYI, snippet, filename="finders.pyi").merged_code == expected
