// ... existing code ...
import com.acme.shop.payments.PaymentGateway;
import com.acme.shop.payments.PaymentResult;
import com.acme.shop.payments.RefundResult;

// ... existing code ...

    @Transactional
    public PaymentResult pay(String orderId, String paymentToken) {
        // ... existing code ...
    }

    @Transactional
    public RefundResult refund(String orderId, String reason) {
        Order order = load(orderId);
        if (order.status != Status.PAID) {
            throw new IllegalStateException("only paid orders can be refunded: " + orderId);
        }
        RefundResult result = payments.refund(order.customerId(), grandTotal(order), reason);
        if (result.accepted()) {
            for (OrderLine line : order.lines) {
                inventory.release(line.sku(), line.quantity());
            }
            order.status = Status.CANCELLED;
            repository.save(order);
            log.info("refunded order {}: {}", orderId, reason);
        }
        return result;
    }

    @Transactional
    public void cancel(String orderId) {
        // ... existing code ...
    }

// ... existing code ...
