@Transactional
public void cancel(String orderId) {
    Order order = load(orderId);
    if (order.status == Status.CANCELLED) {
        return;
    }
    if (order.status.isTerminal()) {
        throw new IllegalStateException("order " + orderId + " is already " + order.status);
    }
    if (order.status == Status.PLACED || order.status == Status.PAID) {
        for (OrderLine line : order.lines) {
            inventory.release(line.sku(), line.quantity());
        }
    }
    order.status = Status.CANCELLED;
    recentlyCancelled.put(orderId, clock.instant());
    repository.save(order);
}
