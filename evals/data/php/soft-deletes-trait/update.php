// ... existing code ...
        $this->logger?->debug('sql: {sql}', ['sql' => $sql, 'params' => $params]);
    }
}

trait SoftDeletes
{
    private function notDeleted(string $alias = ''): string
    {
        $prefix = $alias === '' ? '' : "{$alias}.";

        return "{$prefix}deleted_at IS NULL";
    }
}

final class InvoiceRepository
{
    use HydratesRows;
    use LogsQueries;
    use SoftDeletes;

    // ... existing code ...

    public function find(int $id): ?Invoice
    {
        $row = $this->fetchOne(
            "SELECT * FROM {$this->table} WHERE id = :id AND {$this->notDeleted()}",
            ['id' => $id],
        );

        return $row === null ? null : $this->hydrateInvoice($row);
    }

    // ... existing code ...
}
