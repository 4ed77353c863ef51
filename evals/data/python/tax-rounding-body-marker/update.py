# ... existing code ...
from datetime import datetime, timezone
from decimal import ROUND_HALF_UP, Decimal
from typing import Any
# ... existing code ...

class PriceCalculator:
    # ... existing code ...

    def tax(self, order: Order) -> Decimal:
        raw = self.subtotal(order) * self.tax_rate
        return raw.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)

    # ... existing code ...
