        // ... existing code ...

        [HttpPost]
        [ProducesResponseType(typeof(OrderDto), StatusCodes.Status201Created)]
        [ProducesResponseType(StatusCodes.Status400BadRequest)]
        public async Task<ActionResult<OrderDto>> Create(
            CreateOrderRequest request,
            [FromHeader(Name = "Idempotency-Key")] string? idempotencyKey,
            CancellationToken ct)
        {
            if (idempotencyKey is not null)
            {
                var existing = await _store.FindByIdempotencyKeyAsync(idempotencyKey, ct);
                if (existing is not null)
                {
                    return Ok(ToDto(existing));
                }
            }
            if (request.Lines.Count == 0)
            {
                return BadRequest("an order needs at least one line");
            }
            // ... existing validation ...

            var order = new Order
            {
                Id = Guid.NewGuid(),
                CustomerId = request.CustomerId,
                Status = OrderStatus.Placed,
                CreatedAt = _time.GetUtcNow(),
                IdempotencyKey = idempotencyKey,
                Lines = request.Lines
                    .Select(line => new OrderLine(line.Sku, line.Quantity, line.UnitPrice))
                    .ToList(),
            };

            // ... existing code ...
        }

        // ... existing code ...
