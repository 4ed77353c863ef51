    public function void(Invoice $invoice): bool
    {
        if ($invoice->status === InvoiceStatus::Paid) {
            throw new InvalidArgumentException("invoice {$invoice->number} is paid and cannot be voided");
        }

        return $this->execute(
            "UPDATE {$this->table} SET status = :status WHERE id = :id AND status <> :status",
            ['status' => InvoiceStatus::Void->value, 'id' => $invoice->id],
        ) > 0;
    }
