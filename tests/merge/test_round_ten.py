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
