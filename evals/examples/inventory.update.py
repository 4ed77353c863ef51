# ... existing code ...

    def restock(self, sku: str, amount: int) -> int:
        if amount <= 0:
            raise ValueError(f"restock amount must be positive, got {amount}")
        item = self.items[sku]
        item.quantity += amount
        return item.quantity

    def low_stock(self, threshold: int = 5) -> list[Item]:
        return [item for item in self.items.values() if item.quantity < threshold]

# ... existing code ...
