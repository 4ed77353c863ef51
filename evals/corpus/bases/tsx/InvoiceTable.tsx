import { useMemo, useState } from 'react';
import type { ChangeEvent, ReactNode } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatCurrency, formatDate } from '@/lib/format';

export type InvoiceStatus = 'draft' | 'sent' | 'paid' | 'overdue';

export interface Invoice {
  id: string;
  number: string;
  customer: string;
  issuedAt: string;
  dueAt: string;
  amountCents: number;
  currency: string;
  status: InvoiceStatus;
}

type SortKey = 'number' | 'customer' | 'dueAt' | 'amountCents';

interface InvoiceTableProps {
  invoices: Invoice[];
  onOpen: (invoice: Invoice) => void;
  onMarkPaid?: (invoice: Invoice) => Promise<void>;
  emptyState?: ReactNode;
}

const STATUS_VARIANT: Record<InvoiceStatus, 'secondary' | 'default' | 'success' | 'destructive'> = {
  draft: 'secondary',
  sent: 'default',
  paid: 'success',
  overdue: 'destructive',
};

function compareInvoices(a: Invoice, b: Invoice, key: SortKey): number {
  const left = a[key];
  const right = b[key];
  if (typeof left === 'number' && typeof right === 'number') {
    return left - right;
  }
  return String(left).localeCompare(String(right));
}

function StatusBadge({ status }: { status: InvoiceStatus }) {
  return <Badge variant={STATUS_VARIANT[status]}>{status}</Badge>;
}

function SortHeader({
  label,
  sortKey,
  active,
  descending,
  onSort,
}: {
  label: string;
  sortKey: SortKey;
  active: boolean;
  descending: boolean;
  onSort: (key: SortKey) => void;
}) {
  return (
    <th scope="col" aria-sort={active ? (descending ? 'descending' : 'ascending') : 'none'}>
      <button type="button" className="sort-header" onClick={() => onSort(sortKey)}>
        {label}
        {active && <span aria-hidden="true">{descending ? ' ▼' : ' ▲'}</span>}
      </button>
    </th>
  );
}

export function InvoiceTable({ invoices, onOpen, onMarkPaid, emptyState }: InvoiceTableProps) {
  const [sortKey, setSortKey] = useState<SortKey>('dueAt');
  const [descending, setDescending] = useState(false);
  const [filter, setFilter] = useState('');
  const [busyId, setBusyId] = useState<string | null>(null);

  const rows = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    const matching = needle
      ? invoices.filter(
          (inv) => inv.customer.toLowerCase().includes(needle) || inv.number.includes(needle),
        )
      : invoices;
    const sorted = [...matching].sort((a, b) => compareInvoices(a, b, sortKey));
    return descending ? sorted.reverse() : sorted;
  }, [invoices, filter, sortKey, descending]);

  const handleSort = (key: SortKey) => {
    if (key === sortKey) {
      setDescending((value) => !value);
    } else {
      setSortKey(key);
      setDescending(false);
    }
  };

  const markPaid = async (invoice: Invoice) => {
    if (!onMarkPaid) {
      return;
    }
    setBusyId(invoice.id);
    try {
      await onMarkPaid(invoice);
    } finally {
      setBusyId(null);
    }
  };

  if (invoices.length === 0) {
    return <>{emptyState ?? <p className="invoice-table__empty">No invoices yet.</p>}</>;
  }

  return (
    <div className="invoice-table">
      <input
        className="invoice-table__filter"
        placeholder="Filter by customer or number"
        value={filter}
        onChange={(event: ChangeEvent<HTMLInputElement>) => setFilter(event.target.value)}
      />
      <table>
        <thead>
          <tr>
            <SortHeader label="Number" sortKey="number" active={sortKey === 'number'} descending={descending} onSort={handleSort} />
            <SortHeader label="Customer" sortKey="customer" active={sortKey === 'customer'} descending={descending} onSort={handleSort} />
            <SortHeader label="Due" sortKey="dueAt" active={sortKey === 'dueAt'} descending={descending} onSort={handleSort} />
            <SortHeader label="Amount" sortKey="amountCents" active={sortKey === 'amountCents'} descending={descending} onSort={handleSort} />
            <th scope="col">Status</th>
            <th scope="col" />
          </tr>
        </thead>
        <tbody>
          {rows.map((invoice) => (
            <tr key={invoice.id} onClick={() => onOpen(invoice)}>
              <td>{invoice.number}</td>
              <td>{invoice.customer}</td>
              <td>{formatDate(invoice.dueAt)}</td>
              <td className="numeric">{formatCurrency(invoice.amountCents / 100, invoice.currency)}</td>
              <td>
                <StatusBadge status={invoice.status} />
              </td>
              <td>
                {onMarkPaid && invoice.status !== 'paid' && (
                  <Button
                    size="sm"
                    disabled={busyId === invoice.id}
                    onClick={(event) => {
                      event.stopPropagation();
                      void markPaid(invoice);
                    }}
                  >
                    Mark paid
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default InvoiceTable;
