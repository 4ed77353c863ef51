    // ... existing code ...
    public function markPaid(Invoice $invoice, DateTimeImmutable $paidAt, ?string $reference = null): void
    {
        if ($invoice->status !== InvoiceStatus::Open) {
            throw new InvalidArgumentException("invoice {$invoice->number} is not open");
        }

        $this->execute(
            "UPDATE {$this->table} SET status = :status, paid_at = :paid, payment_reference = :reference WHERE id = :id",
            [
                'status' => InvoiceStatus::Paid->value,
                'paid' => $paidAt->format('Y-m-d H:i:s'),
                'reference' => $reference,
                'id' => $invoice->id,
            ],
        );
    }
    // ... existing code ...
