    public BigDecimal tax(Order order) {
        BigDecimal sum = BigDecimal.ZERO;
        for (OrderLine line : order.lines) {
            sum = sum.add(line.total().multiply(TAX_RATE).setScale(2, RoundingMode.HALF_UP));
        }
        return sum;
    }

    public BigDecimal grandTotal(Order order) {
        return subtotal(order).add(tax(order)).setScale(2, RoundingMode.HALF_UP);
    }
