package com.acme.shop.orders;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import com.acme.shop.inventory.InventoryClient;
import com.acme.shop.payments.PaymentGateway;
import com.acme.shop.payments.PaymentResult;

/**
 * Coordinates the lifecycle of customer orders: creation, payment, fulfilment and cancellation.
 * Inventory is reserved when an order is placed and released again when it is cancelled.
 */
@Service
public class OrderService {

    private static final Logger log = LoggerFactory.getLogger(OrderService.class);
    private static final BigDecimal TAX_RATE = new BigDecimal("0.0825");
    private static final int MAX_LINES_PER_ORDER = 50;

    private final OrderRepository repository;
    private final InventoryClient inventory;
    private final PaymentGateway payments;
    private final Clock clock;
    private final Map<String, Instant> recentlyCancelled = new ConcurrentHashMap<>();

    public OrderService(OrderRepository repository, InventoryClient inventory,
                        PaymentGateway payments, Clock clock) {
        this.repository = Objects.requireNonNull(repository);
        this.inventory = Objects.requireNonNull(inventory);
        this.payments = Objects.requireNonNull(payments);
        this.clock = clock;
    }

    public enum Status {
        DRAFT, PLACED, PAID, SHIPPED, CANCELLED;

        public boolean isTerminal() {
            return this == SHIPPED || this == CANCELLED;
        }
    }

    public static final class OrderLine {
        private final String sku;
        private final int quantity;
        private final BigDecimal unitPrice;

        public OrderLine(String sku, int quantity, BigDecimal unitPrice) {
            if (quantity <= 0) {
                throw new IllegalArgumentException("quantity must be positive: " + quantity);
            }
            this.sku = sku;
            this.quantity = quantity;
            this.unitPrice = unitPrice;
        }

        public String sku() {
            return sku;
        }

        public int quantity() {
            return quantity;
        }

        public BigDecimal total() {
            return unitPrice.multiply(BigDecimal.valueOf(quantity));
        }
    }

    public static final class Order {
        private final String id;
        private final String customerId;
        private final List<OrderLine> lines = new ArrayList<>();
        private Status status = Status.DRAFT;
        private Instant placedAt;

        Order(String id, String customerId) {
            this.id = id;
            this.customerId = customerId;
        }

        public String id() {
            return id;
        }

        public String customerId() {
            return customerId;
        }

        public List<OrderLine> lines() {
            return Collections.unmodifiableList(lines);
        }

        public Status status() {
            return status;
        }

        public Optional<Instant> placedAt() {
            return Optional.ofNullable(placedAt);
        }
    }

    public static class OrderNotFoundException extends RuntimeException {
        public OrderNotFoundException(String id) {
            super("order not found: " + id);
        }
    }

    @Transactional
    public Order createDraft(String customerId) {
        Order order = new Order(repository.nextId(), customerId);
        repository.save(order);
        log.debug("created draft {} for customer {}", order.id(), customerId);
        return order;
    }

    @Transactional
    public Order addLine(String orderId, OrderLine line) {
        Order order = load(orderId);
        if (order.status != Status.DRAFT) {
            throw new IllegalStateException("order " + orderId + " is no longer a draft");
        }
        if (order.lines.size() >= MAX_LINES_PER_ORDER) {
            throw new IllegalStateException("order " + orderId + " has too many lines");
        }
        order.lines.add(line);
        repository.save(order);
        return order;
    }

    public BigDecimal subtotal(Order order) {
        BigDecimal sum = BigDecimal.ZERO;
        for (OrderLine line : order.lines) {
            sum = sum.add(line.total());
        }
        return sum;
    }

    public BigDecimal tax(Order order) {
        return subtotal(order).multiply(TAX_RATE).setScale(2, RoundingMode.HALF_UP);
    }

    public BigDecimal grandTotal(Order order) {
        return subtotal(order).add(tax(order));
    }

    @Transactional
    public Order place(String orderId) {
        Order order = load(orderId);
        if (order.lines.isEmpty()) {
            throw new IllegalStateException("cannot place an empty order");
        }
        for (OrderLine line : order.lines) {
            inventory.reserve(line.sku(), line.quantity());
        }
        order.status = Status.PLACED;
        order.placedAt = clock.instant();
        repository.save(order);
        log.info("placed order {} ({} lines)", order.id(), order.lines.size());
        return order;
    }

    @Transactional
    public PaymentResult pay(String orderId, String paymentToken) {
        Order order = load(orderId);
        if (order.status != Status.PLACED) {
            throw new IllegalStateException("order " + orderId + " is not awaiting payment");
        }
        PaymentResult result = payments.charge(order.customerId(), grandTotal(order), paymentToken);
        if (result.approved()) {
            order.status = Status.PAID;
            repository.save(order);
        } else {
            log.warn("payment declined for order {}: {}", orderId, result.reason());
        }
        return result;
    }

    @Transactional
    public void cancel(String orderId) {
        Order order = load(orderId);
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

    public List<Order> openOrdersFor(String customerId) {
        List<Order> result = new ArrayList<>();
        for (Order order : repository.findByCustomer(customerId)) {
            if (!order.status.isTerminal()) {
                result.add(order);
            }
        }
        return result;
    }

    private Order load(String orderId) {
        return repository.findById(orderId).orElseThrow(() -> new OrderNotFoundException(orderId));
    }

    public interface OrderRepository {
        String nextId();

        Optional<Order> findById(String id);

        List<Order> findByCustomer(String customerId);

        void save(Order order);
    }
}
