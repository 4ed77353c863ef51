# ... existing code ...


@orders.route("/<order_id>/price", methods=["GET"])
def order_price(order_id: str):
    with transaction() as session:
        order = OrderRepository(session).get(order_id)
    if order is None:
        abort(404)
    calc = PriceCalculator()
    return jsonify({
        "subtotal": str(calc.subtotal(order)),
        "tax": str(calc.tax(order)),
        "total": str(calc.total(order)),
    })
