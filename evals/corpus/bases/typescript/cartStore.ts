import { EventBus } from './eventBus';
import type { Money, Product, ProductId } from './types';

export interface CartLine {
  productId: ProductId;
  name: string;
  unitPrice: Money;
  quantity: number;
}

export interface Coupon {
  code: string;
  percentOff?: number;
  amountOff?: Money;
  minSubtotal?: Money;
}

export interface CartState {
  lines: CartLine[];
  coupon: Coupon | null;
  currency: string;
  updatedAt: number;
}

export type CartEvent =
  | { type: 'line-added'; line: CartLine }
  | { type: 'line-removed'; productId: ProductId }
  | { type: 'quantity-changed'; productId: ProductId; quantity: number }
  | { type: 'coupon-applied'; coupon: Coupon }
  | { type: 'cleared' };

type Listener = (state: Readonly<CartState>) => void;

const MAX_QUANTITY = 99;
const STORAGE_KEY = 'cart:v2';

export class CartError extends Error {
  constructor(message: string, readonly code: string) {
    super(message);
    this.name = 'CartError';
  }
}

function emptyState(currency: string): CartState {
  return { lines: [], coupon: null, currency, updatedAt: Date.now() };
}

function roundCents(value: number): Money {
  return Math.round(value * 100) / 100;
}

export class CartStore {
  private state: CartState;
  private listeners = new Set<Listener>();

  constructor(
    private readonly bus: EventBus<CartEvent>,
    private readonly storage: Storage | null = null,
    currency = 'EUR',
  ) {
    this.state = this.restore() ?? emptyState(currency);
  }

  get snapshot(): Readonly<CartState> {
    return this.state;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    listener(this.state);
    return () => {
      this.listeners.delete(listener);
    };
  }

  addProduct(product: Product, quantity = 1): void {
    if (quantity <= 0 || !Number.isInteger(quantity)) {
      throw new CartError(`invalid quantity ${quantity}`, 'invalid_quantity');
    }
    const existing = this.state.lines.find((line) => line.productId === product.id);
    if (existing) {
      this.setQuantity(product.id, existing.quantity + quantity);
      return;
    }
    const line: CartLine = {
      productId: product.id,
      name: product.name,
      unitPrice: product.price,
      quantity: Math.min(quantity, MAX_QUANTITY),
    };
    this.commit({ ...this.state, lines: [...this.state.lines, line] });
    this.bus.publish({ type: 'line-added', line });
  }

  setQuantity(productId: ProductId, quantity: number): void {
    if (quantity <= 0) {
      this.remove(productId);
      return;
    }
    const clamped = Math.min(quantity, MAX_QUANTITY);
    const lines = this.state.lines.map((line) =>
      line.productId === productId ? { ...line, quantity: clamped } : line,
    );
    this.commit({ ...this.state, lines });
    this.bus.publish({ type: 'quantity-changed', productId, quantity: clamped });
  }

  remove(productId: ProductId): void {
    const lines = this.state.lines.filter((line) => line.productId !== productId);
    if (lines.length === this.state.lines.length) {
      return;
    }
    this.commit({ ...this.state, lines });
    this.bus.publish({ type: 'line-removed', productId });
  }

  applyCoupon(coupon: Coupon): void {
    if (coupon.minSubtotal !== undefined && this.subtotal() < coupon.minSubtotal) {
      throw new CartError(
        `coupon ${coupon.code} needs a subtotal of at least ${coupon.minSubtotal}`,
        'coupon_minimum',
      );
    }
    this.commit({ ...this.state, coupon });
    this.bus.publish({ type: 'coupon-applied', coupon });
  }

  clear(): void {
    this.commit(emptyState(this.state.currency));
    this.bus.publish({ type: 'cleared' });
  }

  subtotal(): Money {
    return roundCents(
      this.state.lines.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0),
    );
  }

  discount(): Money {
    const coupon = this.state.coupon;
    if (!coupon) {
      return 0;
    }
    const subtotal = this.subtotal();
    if (coupon.percentOff !== undefined) {
      return roundCents((subtotal * coupon.percentOff) / 100);
    }
    return Math.min(coupon.amountOff ?? 0, subtotal);
  }

  total(): Money {
    return roundCents(this.subtotal() - this.discount());
  }

  itemCount(): number {
    return this.state.lines.reduce((count, line) => count + line.quantity, 0);
  }

  private commit(next: CartState): void {
    this.state = { ...next, updatedAt: Date.now() };
    this.persist();
    for (const listener of this.listeners) {
      listener(this.state);
    }
  }

  private persist(): void {
    if (!this.storage) {
      return;
    }
    try {
      this.storage.setItem(STORAGE_KEY, JSON.stringify(this.state));
    } catch {
      // Quota exceeded or private mode: the cart still works, it just won't survive a reload.
    }
  }

  private restore(): CartState | null {
    const raw = this.storage?.getItem(STORAGE_KEY);
    if (!raw) {
      return null;
    }
    try {
      const parsed = JSON.parse(raw) as CartState;
      return Array.isArray(parsed.lines) ? parsed : null;
    } catch {
      return null;
    }
  }
}

export function formatMoney(amount: Money, currency: string, locale = 'de-DE'): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
}
