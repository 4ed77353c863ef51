export type CartEvent =
  | { type: 'line-added'; line: CartLine }
  | { type: 'line-removed'; productId: ProductId }
  | { type: 'quantity-changed'; productId: ProductId; quantity: number }
  | { type: 'coupon-applied'; coupon: Coupon }
  | { type: 'coupon-removed'; code: string }
  | { type: 'cleared' };

// ... existing code ...

export class CartStore {
  // ... existing fields, constructor and methods up to applyCoupon ...

  removeCoupon(): void {
    const coupon = this.state.coupon;
    if (!coupon) {
      return;
    }
    this.commit({ ...this.state, coupon: null });
    this.bus.publish({ type: 'coupon-removed', code: coupon.code });
  }

  clear(): void {
    // ... existing code ...
  }

  // ... existing methods (subtotal, discount, total, itemCount, commit, persist, restore) ...
}

// ... existing code ...
