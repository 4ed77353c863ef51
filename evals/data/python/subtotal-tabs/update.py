class PriceCalculator:
	def __init__(self, tax_rate: Decimal = TAX_RATE) -> None:
		self.tax_rate = tax_rate

	def subtotal(self, order: Order) -> Decimal:
		lines = [item for item in order.items if item.quantity > 0]
		return sum((item.total for item in lines), Decimal("0"))

	# ... existing code ...
