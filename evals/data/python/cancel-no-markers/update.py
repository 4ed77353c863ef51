@orders.route("/<order_id>/cancel", methods=["POST"])
def cancel_order(order_id: str):
    user = current_user()
    allowed = ("pending", "paid", "shipped") if user.is_staff else ("pending", "paid")
    with transaction() as session:
        repo = OrderRepository(session)
        order = repo.get(order_id)
        if order is None:
            abort(404)
        if order.status not in allowed:
            raise OrderError(f"cannot cancel an order that is {order.status}", status=409)
        repo.set_status(order_id, "cancelled")
    log.info("order %s cancelled by %s", order_id, user.id)
    return jsonify({"id": order_id, "status": "cancelled", "cancelled_by": user.id})
