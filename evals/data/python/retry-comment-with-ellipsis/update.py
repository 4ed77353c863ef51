# ... existing code ...

def load_catalog(session: Session) -> dict[str, Decimal]:
    # Try twice... the read replica sometimes drops the first query after a failover.
    for attempt in range(2):
        try:
            rows = session.fetch_all("SELECT sku, price FROM products WHERE active = 1", {})
            break
        except ConnectionError:
            if attempt == 1:
                raise
            log.warning("catalog query failed, retrying...")
    return {row["sku"]: Decimal(row["price"]) for row in rows}

# ... existing code ...
