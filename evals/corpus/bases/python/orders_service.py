"""Order management endpoints for the storefront API.

The handlers are thin: validation lives in `OrderRequest`, persistence in `OrderRepository`, and
pricing in `PriceCalculator`, so each piece can be tested without a running server.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from decimal import Decimal
from typing import Any

from flask import Blueprint, abort, jsonify, request

from .auth import current_user, require_role
from .db import Session, transaction

log = logging.getLogger(__name__)

orders = Blueprint("orders", __name__, url_prefix="/api/orders")

MAX_ITEMS_PER_ORDER = 50
TAX_RATE = Decimal("0.08")


class OrderError(Exception):
    """Raised for requests that are well-formed JSON but make no sense as an order."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class LineItem:
    sku: str
    quantity: int
    unit_price: Decimal

    @property
    def total(self) -> Decimal:
        return self.unit_price * self.quantity


@dataclass
class Order:
    id: str
    customer_id: str
    items: list[LineItem] = field(default_factory=list)
    status: str = "pending"
    created_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))
    notes: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "customer_id": self.customer_id,
            "status": self.status,
            "created_at": self.created_at.isoformat(),
            "items": [
                {"sku": item.sku, "quantity": item.quantity, "unit_price": str(item.unit_price)}
                for item in self.items
            ],
            "notes": self.notes,
        }


@dataclass
class OrderRequest:
    customer_id: str
    items: list[dict[str, Any]]
    notes: str = ""

    @classmethod
    def from_json(cls, payload: dict[str, Any] | None) -> "OrderRequest":
        if not payload:
            raise OrderError("request body must be a JSON object")
        customer_id = payload.get("customer_id")
        if not isinstance(customer_id, str) or not customer_id:
            raise OrderError("customer_id is required")
        items = payload.get("items") or []
        if not items:
            raise OrderError("an order needs at least one item")
        if len(items) > MAX_ITEMS_PER_ORDER:
            raise OrderError(f"at most {MAX_ITEMS_PER_ORDER} items per order")
        return cls(customer_id=customer_id, items=items, notes=payload.get("notes", ""))

    def line_items(self, catalog: dict[str, Decimal]) -> list[LineItem]:
        result = []
        for raw in self.items:
            sku = raw.get("sku")
            if sku not in catalog:
                raise OrderError(f"unknown sku {sku!r}")
            quantity = int(raw.get("quantity", 1))
            if quantity <= 0:
                raise OrderError(f"quantity for {sku} must be positive")
            result.append(LineItem(sku=sku, quantity=quantity, unit_price=catalog[sku]))
        return result


class PriceCalculator:
    def __init__(self, tax_rate: Decimal = TAX_RATE) -> None:
        self.tax_rate = tax_rate

    def subtotal(self, order: Order) -> Decimal:
        return sum((item.total for item in order.items), Decimal("0"))

    def tax(self, order: Order) -> Decimal:
        return (self.subtotal(order) * self.tax_rate).quantize(Decimal("0.01"))

    def total(self, order: Order) -> Decimal:
        return self.subtotal(order) + self.tax(order)


class OrderRepository:
    """All SQL for orders. Methods take an open session so callers control the transaction."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def get(self, order_id: str) -> Order | None:
        row = self.session.fetch_one("SELECT * FROM orders WHERE id = :id", {"id": order_id})
        if row is None:
            return None
        items = self.session.fetch_all(
            "SELECT sku, quantity, unit_price FROM order_items WHERE order_id = :id",
            {"id": order_id},
        )
        return Order(
            id=row["id"],
            customer_id=row["customer_id"],
            status=row["status"],
            created_at=row["created_at"],
            notes=row["notes"],
            items=[LineItem(r["sku"], r["quantity"], Decimal(r["unit_price"])) for r in items],
        )

    def add(self, order: Order) -> None:
        self.session.execute(
            "INSERT INTO orders (id, customer_id, status, created_at, notes) "
            "VALUES (:id, :customer_id, :status, :created_at, :notes)",
            {
                "id": order.id,
                "customer_id": order.customer_id,
                "status": order.status,
                "created_at": order.created_at,
                "notes": order.notes,
            },
        )
        for item in order.items:
            self.session.execute(
                "INSERT INTO order_items (order_id, sku, quantity, unit_price) "
                "VALUES (:order_id, :sku, :quantity, :unit_price)",
                {"order_id": order.id, "sku": item.sku, "quantity": item.quantity,
                 "unit_price": str(item.unit_price)},
            )

    def set_status(self, order_id: str, status: str) -> None:
        self.session.execute(
            "UPDATE orders SET status = :status WHERE id = :id", {"id": order_id, "status": status}
        )

    def list_for_customer(self, customer_id: str, limit: int = 20) -> list[Order]:
        rows = self.session.fetch_all(
            "SELECT id FROM orders WHERE customer_id = :cid ORDER BY created_at DESC LIMIT :limit",
            {"cid": customer_id, "limit": limit},
        )
        return [order for row in rows if (order := self.get(row["id"])) is not None]


def load_catalog(session: Session) -> dict[str, Decimal]:
    rows = session.fetch_all("SELECT sku, price FROM products WHERE active = 1", {})
    return {row["sku"]: Decimal(row["price"]) for row in rows}


def _error(message: str, status: int):
    response = jsonify({"error": message})
    response.status_code = status
    return response


@orders.errorhandler(OrderError)
def handle_order_error(exc: OrderError):
    log.info("rejected order request: %s", exc)
    return _error(str(exc), exc.status)


@orders.route("", methods=["POST"])
def create_order():
    req = OrderRequest.from_json(request.get_json(silent=True))
    with transaction() as session:
        catalog = load_catalog(session)
        order = Order(id=str(uuid.uuid4()), customer_id=req.customer_id, notes=req.notes)
        order.items = req.line_items(catalog)
        OrderRepository(session).add(order)
    log.info("created order %s for %s", order.id, order.customer_id)
    body = order.to_dict()
    body["total"] = str(PriceCalculator().total(order))
    return jsonify(body), 201


@orders.route("/<order_id>", methods=["GET"])
def get_order(order_id: str):
    with transaction() as session:
        order = OrderRepository(session).get(order_id)
    if order is None:
        abort(404)
    if order.customer_id != current_user().id and not current_user().is_staff:
        abort(403)
    return jsonify(order.to_dict())


@orders.route("/<order_id>/cancel", methods=["POST"])
def cancel_order(order_id: str):
    with transaction() as session:
        repo = OrderRepository(session)
        order = repo.get(order_id)
        if order is None:
            abort(404)
        if order.status not in ("pending", "paid"):
            raise OrderError(f"cannot cancel an order that is {order.status}", status=409)
        repo.set_status(order_id, "cancelled")
    log.info("cancelled order %s", order_id)
    return jsonify({"id": order_id, "status": "cancelled"})


@orders.route("/customer/<customer_id>", methods=["GET"])
@require_role("staff")
def list_customer_orders(customer_id: str):
    limit = min(int(request.args.get("limit", 20)), 100)
    with transaction() as session:
        found = OrderRepository(session).list_for_customer(customer_id, limit=limit)
    return jsonify([order.to_dict() for order in found])


@orders.route("/<order_id>/ship", methods=["POST"])
@require_role("warehouse")
def ship_order(order_id: str):
    with transaction() as session:
        repo = OrderRepository(session)
        order = repo.get(order_id)
        if order is None:
            abort(404)
        if order.status != "paid":
            raise OrderError("only paid orders can be shipped", status=409)
        repo.set_status(order_id, "shipped")
    return jsonify({"id": order_id, "status": "shipped"})
