// ... existing code ...

    @Transactional
    public Order addLine(String orderId, OrderLine line, boolean mergeSameSku) {
        Order order = load(orderId);
        if (order.status != Status.DRAFT) {
            throw new IllegalStateException("order " + orderId + " is no longer a draft");
        }
        if (mergeSameSku) {
            for (int i = 0; i < order.lines.size(); i++) {
                OrderLine existing = order.lines.get(i);
                if (existing.sku().equals(line.sku())) {
                    order.lines.set(i, new OrderLine(line.sku(),
                            existing.quantity() + line.quantity(), line.unitPrice));
                    repository.save(order);
                    return order;
                }
            }
        }
        if (order.lines.size() >= MAX_LINES_PER_ORDER) {
// ... existing code ...
