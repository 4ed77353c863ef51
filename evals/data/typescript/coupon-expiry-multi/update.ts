// ... existing code ...
export interface Coupon {
  code: string;
  percentOff?: number;
  amountOff?: Money;
  minSubtotal?: Money;
  expiresAt?: number;
}
// ... existing code ...
  applyCoupon(coupon: Coupon): void {
    if (coupon.expiresAt !== undefined && coupon.expiresAt < Date.now()) {
      throw new CartError(`coupon ${coupon.code} has expired`, 'coupon_expired');
    }
    // ... existing code ...
  }
// ... existing code ...
