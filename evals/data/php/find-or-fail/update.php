<?php

declare(strict_types=1);

namespace Acme\Billing\Repository;

use Acme\Billing\Exception\InvoiceNotFound;
use Acme\Billing\Model\Invoice;
// ... existing code ...

    public function find(int $id): ?Invoice
    {
        $row = $this->fetchOne("SELECT * FROM {$this->table} WHERE id = :id", ['id' => $id]);

        return $row === null ? null : $this->hydrateInvoice($row);
    }

    public function findOrFail(int $id): Invoice
    {
        return $this->find($id) ?? throw InvoiceNotFound::withId($id);
    }

// ... existing code ...

        return array_map(fn (array $row): Invoice => $this->hydrateInvoice($row), $rows);
    }

    public function outstandingCents(int $customerId): int
    {
        $row = $this->fetchOne(
            "SELECT COALESCE(SUM(total_cents), 0) AS total FROM {$this->table}
             WHERE customer_id = :customer AND status = :status",
            ['customer' => $customerId, 'status' => InvoiceStatus::Open->value],
        );

        return (int) ($row['total'] ?? 0);
    }

    /**
     * @return list<InvoiceLine>
     */
    public function linesOf(Invoice $invoice): array
// ... existing code ...
