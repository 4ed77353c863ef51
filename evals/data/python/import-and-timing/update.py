import logging
import time
import uuid
# ... existing code ...

@orders.route("", methods=["POST"])
def create_order():
    started = time.perf_counter()
    req = OrderRequest.from_json(request.get_json(silent=True))
    # ... existing code ...
    log.info("created order %s for %s in %.1f ms", order.id, order.customer_id,
             (time.perf_counter() - started) * 1000)
    body = order.to_dict()
    # ... existing code ...
