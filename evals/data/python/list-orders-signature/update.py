class OrderRepository:
    # ... existing code ...

    def list_for_customer(self, customer_id: str, limit: int = 20,
                          status: str | None = None) -> list[Order]:
        query = "SELECT id FROM orders WHERE customer_id = :cid"
        params: dict[str, Any] = {"cid": customer_id, "limit": limit}
        if status is not None:
            query += " AND status = :status"
            params["status"] = status
        rows = self.session.fetch_all(query + " ORDER BY created_at DESC LIMIT :limit", params)
        return [order for row in rows if (order := self.get(row["id"])) is not None]


# ... existing code ...
