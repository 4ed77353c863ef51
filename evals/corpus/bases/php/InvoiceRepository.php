<?php

declare(strict_types=1);

namespace Acme\Billing\Repository;

use Acme\Billing\Model\Invoice;
use Acme\Billing\Model\InvoiceLine;
use Acme\Billing\Model\InvoiceStatus;
use DateTimeImmutable;
use InvalidArgumentException;
use PDO;
use Psr\Log\LoggerInterface;

trait HydratesRows
{
    /**
     * @param array<string, mixed> $row
     */
    private function hydrateInvoice(array $row): Invoice
    {
        return new Invoice(
            id: (int) $row['id'],
            number: (string) $row['number'],
            customerId: (int) $row['customer_id'],
            status: InvoiceStatus::from($row['status']),
            issuedAt: new DateTimeImmutable($row['issued_at']),
            dueAt: $row['due_at'] !== null ? new DateTimeImmutable($row['due_at']) : null,
            totalCents: (int) $row['total_cents'],
        );
    }

    /**
     * @param array<string, mixed> $row
     */
    private function hydrateLine(array $row): InvoiceLine
    {
        return new InvoiceLine(
            description: (string) $row['description'],
            quantity: (int) $row['quantity'],
            unitCents: (int) $row['unit_cents'],
        );
    }
}

trait LogsQueries
{
    private ?LoggerInterface $logger = null;

    public function setLogger(LoggerInterface $logger): void
    {
        $this->logger = $logger;
    }

    private function logQuery(string $sql, array $params): void
    {
        $this->logger?->debug('sql: {sql}', ['sql' => $sql, 'params' => $params]);
    }
}

final class InvoiceRepository
{
    use HydratesRows;
    use LogsQueries;

    private const PAGE_SIZE = 50;

    public function __construct(
        private readonly PDO $db,
        private readonly string $table = 'invoices',
    ) {
    }

    public function find(int $id): ?Invoice
    {
        $row = $this->fetchOne("SELECT * FROM {$this->table} WHERE id = :id", ['id' => $id]);

        return $row === null ? null : $this->hydrateInvoice($row);
    }

    public function findByNumber(string $number): ?Invoice
    {
        $row = $this->fetchOne(
            "SELECT * FROM {$this->table} WHERE number = :number",
            ['number' => $number],
        );

        return $row === null ? null : $this->hydrateInvoice($row);
    }

    /**
     * @return list<Invoice>
     */
    public function forCustomer(int $customerId, int $page = 1): array
    {
        if ($page < 1) {
            throw new InvalidArgumentException("page must be >= 1, got {$page}");
        }
        $sql = "SELECT * FROM {$this->table} WHERE customer_id = :customer
                ORDER BY issued_at DESC LIMIT :limit OFFSET :offset";
        $rows = $this->fetchAll($sql, [
            'customer' => $customerId,
            'limit' => self::PAGE_SIZE,
            'offset' => ($page - 1) * self::PAGE_SIZE,
        ]);

        return array_map(fn (array $row): Invoice => $this->hydrateInvoice($row), $rows);
    }

    /**
     * @return list<Invoice>
     */
    public function overdue(DateTimeImmutable $now): array
    {
        $rows = $this->fetchAll(
            "SELECT * FROM {$this->table} WHERE status = :status AND due_at < :now",
            ['status' => InvoiceStatus::Open->value, 'now' => $now->format('Y-m-d H:i:s')],
        );

        return array_map(fn (array $row): Invoice => $this->hydrateInvoice($row), $rows);
    }

    /**
     * @return list<InvoiceLine>
     */
    public function linesOf(Invoice $invoice): array
    {
        $rows = $this->fetchAll(
            'SELECT * FROM invoice_lines WHERE invoice_id = :id ORDER BY position',
            ['id' => $invoice->id],
        );

        return array_map(fn (array $row): InvoiceLine => $this->hydrateLine($row), $rows);
    }

    public function markPaid(Invoice $invoice, DateTimeImmutable $paidAt): void
    {
        if ($invoice->status !== InvoiceStatus::Open) {
            throw new InvalidArgumentException("invoice {$invoice->number} is not open");
        }
        $this->execute(
            "UPDATE {$this->table} SET status = :status, paid_at = :paid WHERE id = :id",
            [
                'status' => InvoiceStatus::Paid->value,
                'paid' => $paidAt->format('Y-m-d H:i:s'),
                'id' => $invoice->id,
            ],
        );
    }

    public function void(Invoice $invoice): void
    {
        $this->execute(
            "UPDATE {$this->table} SET status = :status WHERE id = :id",
            ['status' => InvoiceStatus::Void->value, 'id' => $invoice->id],
        );
    }

    private function fetchOne(string $sql, array $params): ?array
    {
        $this->logQuery($sql, $params);
        $statement = $this->db->prepare($sql);
        $statement->execute($params);
        $row = $statement->fetch(PDO::FETCH_ASSOC);

        return $row === false ? null : $row;
    }

    private function fetchAll(string $sql, array $params): array
    {
        $this->logQuery($sql, $params);
        $statement = $this->db->prepare($sql);
        $statement->execute($params);

        return $statement->fetchAll(PDO::FETCH_ASSOC);
    }

    private function execute(string $sql, array $params): int
    {
        $this->logQuery($sql, $params);
        $statement = $this->db->prepare($sql);
        $statement->execute($params);

        return $statement->rowCount();
    }
}
