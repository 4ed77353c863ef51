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
