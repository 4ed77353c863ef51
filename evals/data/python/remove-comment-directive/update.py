# ... existing code ...
    return jsonify([order.to_dict() for order in found])


# remove ship_order endpoint
