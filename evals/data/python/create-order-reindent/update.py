# ... existing code ...
@orders.route("", methods=["POST"])
def create_order():
    req = OrderRequest.from_json(request.get_json(silent=True))
    try:
        with transaction() as session:
            catalog = load_catalog(session)
            order = Order(id=str(uuid.uuid4()), customer_id=req.customer_id, notes=req.notes)
            order.items = req.line_items(catalog)
            OrderRepository(session).add(order)
    except OrderError:
        raise
    except Exception:
        log.exception("could not store order for %s", req.customer_id)
        return _error("could not store the order, try again", 503)
    log.info("created order %s for %s", order.id, order.customer_id)
# ... existing code ...
