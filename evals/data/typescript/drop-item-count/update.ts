// ... existing code ...
  total(): Money {
    return roundCents(this.subtotal() - this.discount());
  }

  private commit(next: CartState): void {
    // ... existing code ...
