    // ... existing code ...

    @Transactional
    public Order place(String orderId) {
        Order order = load(orderId);
        if (order.lines.isEmpty()) {
            throw new IllegalStateException("cannot place an empty order");
        }
        List<OrderLine> reserved = new ArrayList<>();
        try {
            for (OrderLine line : order.lines) {
                inventory.reserve(line.sku(), line.quantity());
                reserved.add(line);
            }
        } catch (RuntimeException e) {
            for (OrderLine line : reserved) {
                inventory.release(line.sku(), line.quantity());
            }
            throw e;
        }
        order.status = Status.PLACED;
        // ... existing code ...
    }

    // ... existing code ...
