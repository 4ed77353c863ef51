// ... existing code ...

def load_catalog(session: Session) -> dict[str, Decimal]:
    rows = session.fetch_all(
        "SELECT sku, price FROM products WHERE active = 1 AND discontinued = 0", {}
    )
    return {row["sku"]: Decimal(row["price"]) for row in rows}

// ... existing code ...
