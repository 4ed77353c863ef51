# ... existing code ...
MAX_ITEMS_PER_ORDER = 50
MAX_NOTES_LENGTH = 500
TAX_RATE = Decimal("0.08")
# ... existing code ...
    @classmethod
    def from_json(cls, payload: dict[str, Any] | None) -> "OrderRequest":
        # ... existing code ...
        if len(items) > MAX_ITEMS_PER_ORDER:
            raise OrderError(f"at most {MAX_ITEMS_PER_ORDER} items per order")
        notes = payload.get("notes", "")
        if len(notes) > MAX_NOTES_LENGTH:
            raise OrderError(f"notes must be at most {MAX_NOTES_LENGTH} characters")
        return cls(customer_id=customer_id, items=items, notes=notes)
# ... existing code ...
