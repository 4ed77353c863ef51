// ... existing code ...
        order.status = Status.CANCELLED;
        recentlyCancelled.put(orderId, clock.instant());
        repository.save(order);
    }

    // Remove openOrdersFor (moved to OrderQueryService)

    private Order load(String orderId) {
// ... existing code ...
