"""A small inventory service used as the README's quick-start example."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Item:
    sku: str
    name: str
    quantity: int = 0
    price_cents: int = 0


@dataclass
class Inventory:
    items: dict[str, Item] = field(default_factory=dict)

    def add(self, item: Item) -> None:
        if item.sku in self.items:
            raise KeyError(f"duplicate sku {item.sku}")
        self.items[item.sku] = item

    def remove(self, sku: str) -> Item:
        return self.items.pop(sku)

    def restock(self, sku: str, amount: int) -> int:
        if amount <= 0:
            raise ValueError(f"restock amount must be positive, got {amount}")
        item = self.items[sku]
        item.quantity += amount
        return item.quantity

    def low_stock(self, threshold: int = 5) -> list[Item]:
        return [item for item in self.items.values() if item.quantity < threshold]

    def total_value(self) -> int:
        return sum(item.quantity * item.price_cents for item in self.items.values())


def load(rows: list[dict[str, str]]) -> Inventory:
    inventory = Inventory()
    for row in rows:
        inventory.add(Item(row["sku"], row["name"], int(row["quantity"]), int(row["price_cents"])))
    return inventory
