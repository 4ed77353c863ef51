  discount(): Money {
    const coupon = this.state.coupon;
    if (!coupon) {
      return 0;
    }
    const subtotal = this.subtotal();
    if (coupon.percentOff !== undefined) {
      const percent = Math.min(Math.max(coupon.percentOff, 0), 100);
      return roundCents((subtotal * percent) / 100);
    }
    return Math.min(Math.max(coupon.amountOff ?? 0, 0), subtotal);
  }
