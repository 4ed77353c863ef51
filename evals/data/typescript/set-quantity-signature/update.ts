// ... keep existing code

  setQuantity(productId: ProductId, quantity: number, options: { silent?: boolean } = {}): void {
    if (quantity <= 0) {
      this.remove(productId);
      return;
    }
    const clamped = Math.min(quantity, MAX_QUANTITY);
    const lines = this.state.lines.map((line) =>
      line.productId === productId ? { ...line, quantity: clamped } : line,
    );
    this.commit({ ...this.state, lines });
    if (!options.silent) {
      this.bus.publish({ type: 'quantity-changed', productId, quantity: clamped });
    }
  }

// ... keep existing code
