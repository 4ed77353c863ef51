// ... existing code ...
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.slf4j.Logger;
// ... existing code ...
    private final PaymentGateway payments;
    private final Clock clock;

    public OrderService(OrderRepository repository, InventoryClient inventory,
// ... existing code ...
        order.status = Status.CANCELLED;
        repository.save(order);
    }
// ... existing code ...
