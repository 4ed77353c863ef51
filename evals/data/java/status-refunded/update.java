    // ... fields and constructor unchanged ...

    public enum Status {
        DRAFT, PLACED, PAID, SHIPPED, CANCELLED, REFUNDED;

        public boolean isTerminal() {
            return this == SHIPPED || this == CANCELLED || this == REFUNDED;
        }
    }

    // ... rest of OrderService (OrderLine, Order, service methods) ...
