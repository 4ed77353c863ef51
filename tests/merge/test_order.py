"""Segments shown out of file order are put back in order by their own anchors (fastapply/merge/order.py)."""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply

PRICING = '''import math
from dataclasses import dataclass

TAX_RATE = 0.2


def round_cents(value: float) -> int:
    """Round a price in cents half up."""
    return int(math.floor(value + 0.5))


@dataclass
class Item:
    name: str
    cents: int
    quantity: int = 1


def line_total(item: Item) -> int:
    return round_cents(item.cents * item.quantity)


def order_total(items: list[Item]) -> int:
    subtotal = sum(line_total(item) for item in items)
    return round_cents(subtotal * (1 + TAX_RATE))
'''


def test_a_later_edit_shown_first_and_a_head_edit_placed_by_one_telling_line() -> None:
    """The constant's segment has one unchanged line of its own, at its edge: enough to place it
    (main refused: "starts new code between two markers")."""
    snippet = '''# ... existing code ...
def order_total(items: list[Item]) -> int:
    subtotal = sum(line_total(item) for item in items)
    return round_cents(subtotal * (1 + TAX_RATE) - DISCOUNT)
# ... existing code ...
from dataclasses import dataclass

TAX_RATE = 0.21
DISCOUNT = 0
# ... existing code ...
'''
    expected = PRICING.replace("TAX_RATE = 0.2\n", "TAX_RATE = 0.21\nDISCOUNT = 0\n").replace(
        "(1 + TAX_RATE))", "(1 + TAX_RATE) - DISCOUNT)")
    assert apply(PRICING, snippet, filename="pricing.py").merged_code == expected


def test_a_segment_with_one_short_line_of_its_own_is_not_placed() -> None:
    """`TAX_RATE = 0.2` alone says too little (it could be new code equal to an old line): refuse."""
    snippet = '''# ... existing code ...
def order_total(items: list[Item]) -> int:
    subtotal = sum(line_total(item) for item in items)
    return round_cents(subtotal * (1 + TAX_RATE) - DISCOUNT)
# ... existing code ...
TAX_RATE = 0.2
DISCOUNT = 0
# ... existing code ...
'''
    with pytest.raises(ApplyError) as error:
        apply(PRICING, snippet, filename="pricing.py")
    assert error.value.code == "ambiguous_anchor"
