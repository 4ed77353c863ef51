@dataclass
class Order:
    # ... existing fields ...
    notes: str = ""

    @property
    def is_open(self) -> bool:
        return self.status in ("pending", "paid")

    def to_dict(self) -> dict[str, Any]:
        # ... existing code ...
