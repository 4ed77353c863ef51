        // ... existing code ...

        [HttpGet("{id:guid}")]
        [ProducesResponseType(typeof(OrderDto), StatusCodes.Status200OK)]
        [ProducesResponseType(StatusCodes.Status304NotModified)]
        [ProducesResponseType(StatusCodes.Status404NotFound)]
        public async Task<ActionResult<OrderDto>> Get(
            Guid id,
            [FromHeader(Name = "If-None-Match")] string? ifNoneMatch,
            CancellationToken ct)
        {
            var order = await _store.FindAsync(id, ct);
            if (order is null)
            {
                return NotFound();
            }

            var etag = $"\"{order.Version}\"";
            if (ifNoneMatch == etag)
            {
                return StatusCode(StatusCodes.Status304NotModified);
            }
            Response.Headers.ETag = etag;
            return Ok(ToDto(order));
        }

        // ... existing code ...
