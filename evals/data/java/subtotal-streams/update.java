    public BigDecimal subtotal(Order order) {
        return order.lines.stream()
                .map(OrderLine::total)
                .reduce(BigDecimal.ZERO, BigDecimal::add);
    }
