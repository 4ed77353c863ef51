// ... existing code ...
        </tbody>
        <tfoot>
          <tr>
            <td colSpan={3}>Total ({rows.length} invoices)</td>
            <td className="numeric">
              {formatCurrency(rows.reduce((sum, inv) => sum + inv.amountCents, 0) / 100, rows[0]?.currency ?? 'EUR')}
            </td>
            <td colSpan={2} />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
{/* ... existing code ... */}
