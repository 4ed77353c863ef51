        // ... existing code ...
        public async Task<ActionResult<PageResult<OrderDto>>> List(
            [FromQuery] string? customerId,
            [FromQuery] OrderStatus? status,
            [FromQuery] int page = 1,
            [FromQuery] int pageSize = 20,
            CancellationToken ct = default)
        {
            // ... validation unchanged ...

            var orders = await _store.QueryAsync(ct);
            var filtered = orders
                .Where(o => customerId == null || o.CustomerId == customerId)
                .Where(o => status == null || o.Status == status)
                .OrderByDescending(o => o.CreatedAt)
                .ToList();

            // ... paging unchanged ...
        }
        // ... existing code ...
