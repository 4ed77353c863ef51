// ... existing code ...
            order.Status = OrderStatus.Cancelled;
            await _store.UpdateAsync(order, ct);
            _logger.LogInformation("Cancelled order {OrderId}", id);
            return NoContent();
        }

        private static OrderDto ToDto(Order order) =>
// ... existing code ...
