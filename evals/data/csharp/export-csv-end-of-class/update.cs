using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Text;
// ... existing code ...
        private static OrderDto ToDto(Order order) =>
            new(order.Id,
                order.CustomerId,
                order.Status.ToString(),
                order.CreatedAt,
                order.Lines.Select(l => new OrderLineDto(l.Sku, l.Quantity, l.UnitPrice)).ToList());

        [HttpGet("export.csv")]
        [Produces("text/csv")]
        public async Task<IActionResult> ExportCsv(CancellationToken ct)
        {
            var orders = await _store.QueryAsync(ct);
            var csv = new StringBuilder("id,customer,status,created_at,total\n");
            foreach (var dto in orders.Select(ToDto))
            {
                csv.Append(CultureInfo.InvariantCulture,
                    $"{dto.Id},{dto.CustomerId},{dto.Status},{dto.CreatedAt:O},{dto.Total}\n");
            }
            return File(Encoding.UTF8.GetBytes(csv.ToString()), "text/csv", "orders.csv");
        }
    }
}
