export function InvoiceTable({ invoices, onOpen, onMarkPaid, emptyState }: InvoiceTableProps) {
  // ... existing state ...
  const [busyId, setBusyId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  // ... existing code ...

  const markPaid = async (invoice: Invoice) => {
    if (!onMarkPaid) {
      return;
    }
    setBusyId(invoice.id);
    setError(null);
    try {
      await onMarkPaid(invoice);
    } catch (err) {
      setError(`Could not mark ${invoice.number} as paid: ${(err as Error).message}`);
    } finally {
      setBusyId(null);
    }
  };

  // ... existing code ...

  return (
    <div className="invoice-table">
      {error && <p role="alert" className="invoice-table__error">{error}</p>}
      <input
      {/* ... existing code ... */}
