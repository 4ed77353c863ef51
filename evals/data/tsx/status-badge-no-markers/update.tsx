function StatusBadge({ status }: { status: InvoiceStatus }) {
  const label = status.charAt(0).toUpperCase() + status.slice(1);
  return (
    <Badge variant={STATUS_VARIANT[status]} title={`Invoice is ${status}`}>
      {label}
    </Badge>
  );
}
