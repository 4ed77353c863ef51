using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Logging;
using Acme.Shop.Domain;
using Acme.Shop.Persistence;

namespace Acme.Shop.Api.Controllers
{
    public record OrderLineDto(string Sku, int Quantity, decimal UnitPrice);

    public record OrderDto(Guid Id, string CustomerId, string Status, DateTimeOffset CreatedAt,
        IReadOnlyList<OrderLineDto> Lines)
    {
        public decimal Total => Lines.Sum(line => line.Quantity * line.UnitPrice);
    }

    public record CreateOrderRequest(string CustomerId, IReadOnlyList<OrderLineDto> Lines);

    public record PageResult<T>(IReadOnlyList<T> Items, int Page, int PageSize, int TotalCount)
    {
        public int TotalPages => (int)Math.Ceiling(TotalCount / (double)PageSize);
    }

    [ApiController]
    [Route("api/orders")]
    [Produces("application/json")]
    public class OrdersController : ControllerBase
    {
        private const int MaxPageSize = 100;

        private readonly IOrderStore _store;
        private readonly ILogger<OrdersController> _logger;
        private readonly TimeProvider _time;

        public OrdersController(IOrderStore store, ILogger<OrdersController> logger, TimeProvider time)
        {
            _store = store;
            _logger = logger;
            _time = time;
        }

        [HttpGet]
        [ProducesResponseType(typeof(PageResult<OrderDto>), StatusCodes.Status200OK)]
        public async Task<ActionResult<PageResult<OrderDto>>> List(
            [FromQuery] string? customerId,
            [FromQuery] int page = 1,
            [FromQuery] int pageSize = 20,
            CancellationToken ct = default)
        {
            if (page < 1 || pageSize < 1 || pageSize > MaxPageSize)
            {
                return BadRequest($"page must be >= 1 and pageSize between 1 and {MaxPageSize}");
            }

            var orders = await _store.QueryAsync(ct);
            var filtered = orders
                .Where(o => customerId == null || o.CustomerId == customerId)
                .OrderByDescending(o => o.CreatedAt)
                .ToList();

            var items = filtered
                .Skip((page - 1) * pageSize)
                .Take(pageSize)
                .Select(ToDto)
                .ToList();

            return Ok(new PageResult<OrderDto>(items, page, pageSize, filtered.Count));
        }

        [HttpGet("{id:guid}")]
        [ProducesResponseType(typeof(OrderDto), StatusCodes.Status200OK)]
        [ProducesResponseType(StatusCodes.Status404NotFound)]
        public async Task<ActionResult<OrderDto>> Get(Guid id, CancellationToken ct)
        {
            var order = await _store.FindAsync(id, ct);
            if (order is null)
            {
                return NotFound();
            }
            return Ok(ToDto(order));
        }

        [HttpPost]
        [ProducesResponseType(typeof(OrderDto), StatusCodes.Status201Created)]
        [ProducesResponseType(StatusCodes.Status400BadRequest)]
        public async Task<ActionResult<OrderDto>> Create(CreateOrderRequest request, CancellationToken ct)
        {
            if (request.Lines.Count == 0)
            {
                return BadRequest("an order needs at least one line");
            }
            if (request.Lines.Any(line => line.Quantity <= 0))
            {
                return BadRequest("quantities must be positive");
            }

            var order = new Order
            {
                Id = Guid.NewGuid(),
                CustomerId = request.CustomerId,
                Status = OrderStatus.Placed,
                CreatedAt = _time.GetUtcNow(),
                Lines = request.Lines
                    .Select(line => new OrderLine(line.Sku, line.Quantity, line.UnitPrice))
                    .ToList(),
            };

            await _store.AddAsync(order, ct);
            _logger.LogInformation("Created order {OrderId} for {CustomerId}", order.Id, order.CustomerId);
            return CreatedAtAction(nameof(Get), new { id = order.Id }, ToDto(order));
        }

        [HttpPost("{id:guid}/cancel")]
        [ProducesResponseType(StatusCodes.Status204NoContent)]
        [ProducesResponseType(StatusCodes.Status404NotFound)]
        [ProducesResponseType(StatusCodes.Status409Conflict)]
        public async Task<IActionResult> Cancel(Guid id, CancellationToken ct)
        {
            var order = await _store.FindAsync(id, ct);
            if (order is null)
            {
                return NotFound();
            }
            if (order.Status is OrderStatus.Shipped or OrderStatus.Cancelled)
            {
                return Conflict($"order {id} is already {order.Status}");
            }

            order.Status = OrderStatus.Cancelled;
            await _store.UpdateAsync(order, ct);
            _logger.LogInformation("Cancelled order {OrderId}", id);
            return NoContent();
        }

        [HttpGet("stats")]
        public async Task<ActionResult<IDictionary<string, int>>> Stats(CancellationToken ct)
        {
            var orders = await _store.QueryAsync(ct);
            var byStatus = orders
                .GroupBy(o => o.Status.ToString())
                .ToDictionary(g => g.Key, g => g.Count());
            return Ok(byStatus);
        }

        private static OrderDto ToDto(Order order) =>
            new(order.Id,
                order.CustomerId,
                order.Status.ToString(),
                order.CreatedAt,
                order.Lines.Select(l => new OrderLineDto(l.Sku, l.Quantity, l.UnitPrice)).ToList());
    }
}
