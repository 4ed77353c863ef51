<?php
// ... existing code ...
use InvalidArgumentException;
use PDO;

trait HydratesRows
// ... existing code ...
            unitCents: (int) $row['unit_cents'],
        );
    }
}

final class InvoiceRepository
{
    use HydratesRows;

    private const PAGE_SIZE = 50;
// ... existing code ...
    private function fetchOne(string $sql, array $params): ?array
    {
        $statement = $this->db->prepare($sql);
        $statement->execute($params);
        $row = $statement->fetch(PDO::FETCH_ASSOC);

        return $row === false ? null : $row;
    }

    private function fetchAll(string $sql, array $params): array
    {
        $statement = $this->db->prepare($sql);
        $statement->execute($params);

        return $statement->fetchAll(PDO::FETCH_ASSOC);
    }

    private function execute(string $sql, array $params): int
    {
        $statement = $this->db->prepare($sql);
        $statement->execute($params);

        return $statement->rowCount();
    }
}
