// ... existing code ...

export function formatMoney(amount: Money, currency: string, locale?: string): string {
  return new Intl.NumberFormat(locale ?? navigator.language, { style: 'currency', currency }).format(
    amount,
  );
}
