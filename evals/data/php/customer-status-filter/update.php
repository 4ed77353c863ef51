    // ... existing code ...

    /**
     * @return list<Invoice>
     */
    public function forCustomer(int $customerId, int $page = 1, ?InvoiceStatus $status = null): array
    {
        if ($page < 1) {
            throw new InvalidArgumentException("page must be >= 1, got {$page}");
        }
        $filter = $status !== null ? 'AND status = :status' : '';
        $sql = "SELECT * FROM {$this->table} WHERE customer_id = :customer {$filter}
                ORDER BY issued_at DESC LIMIT :limit OFFSET :offset";
        $params = [
            'customer' => $customerId,
            'limit' => self::PAGE_SIZE,
            'offset' => ($page - 1) * self::PAGE_SIZE,
        ];
        if ($status !== null) {
            $params['status'] = $status->value;
        }
        $rows = $this->fetchAll($sql, $params);

        return array_map(fn (array $row): Invoice => $this->hydrateInvoice($row), $rows);
    }

    // ... rest of the class unchanged ...
