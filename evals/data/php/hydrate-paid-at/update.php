// ... existing code ...
            dueAt: $row['due_at'] !== null ? new DateTimeImmutable($row['due_at']) : null,
            totalCents: (int) $row['total_cents'],
            paidAt: $row['paid_at'] !== null ? new DateTimeImmutable($row['paid_at']) : null,
        );
    }
// ... existing code ...
