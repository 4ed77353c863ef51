    def line_items(self, catalog: dict[str, Decimal]) -> list[LineItem]:
        result = []
        by_sku: dict[str, LineItem] = {}
        for raw in self.items:
            # ... existing validation ...
            if quantity <= 0:
                raise OrderError(f"quantity for {sku} must be positive")
            if sku in by_sku:
                by_sku[sku].quantity += quantity
                continue
            item = LineItem(sku=sku, quantity=quantity, unit_price=catalog[sku])
            by_sku[sku] = item
            result.append(item)
        return result
