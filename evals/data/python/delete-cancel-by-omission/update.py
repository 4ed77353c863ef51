# ... existing code ...
    if order.customer_id != current_user().id and not current_user().is_staff:
        abort(403)
    return jsonify(order.to_dict())


@orders.route("/customer/<customer_id>", methods=["GET"])
@require_role("staff")
def list_customer_orders(customer_id: str):
# ... existing code ...
