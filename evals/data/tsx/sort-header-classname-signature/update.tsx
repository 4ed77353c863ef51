// ... existing code ...
function SortHeader({
  label,
  sortKey,
  active,
  descending,
  onSort,
  className,
}: {
  label: string;
  sortKey: SortKey;
  active: boolean;
  descending: boolean;
  onSort: (key: SortKey) => void;
  className?: string;
}) {
  return (
    <th scope="col" className={className} aria-sort={active ? (descending ? 'descending' : 'ascending') : 'none'}>
      {/* ... existing code ... */}
    </th>
  );
}
// ... existing code ...
            <SortHeader label="Amount" sortKey="amountCents" active={sortKey === 'amountCents'} descending={descending} onSort={handleSort} className="numeric" />
// ... existing code ...
