// ... existing code ...
    public record CreateOrderRequest(string CustomerId, IReadOnlyList<OrderLineDto> Lines);

    public record CancelOrderRequest(string Reason);

// ... existing code ...
        [HttpPost("{id:guid}/cancel")]
        [ProducesResponseType(StatusCodes.Status204NoContent)]
        [ProducesResponseType(StatusCodes.Status400BadRequest)]
        [ProducesResponseType(StatusCodes.Status404NotFound)]
        [ProducesResponseType(StatusCodes.Status409Conflict)]
        public async Task<IActionResult> Cancel(Guid id, [FromBody] CancelOrderRequest request, CancellationToken ct)
        {
            if (string.IsNullOrWhiteSpace(request.Reason))
            {
                return BadRequest("a cancellation reason is required");
            }
            var order = await _store.FindAsync(id, ct);
            // ... existing code ...

            order.Status = OrderStatus.Cancelled;
            await _store.UpdateAsync(order, ct);
            _logger.LogInformation("Cancelled order {OrderId}: {Reason}", id, request.Reason);
            return NoContent();
        }
// ... existing code ...
