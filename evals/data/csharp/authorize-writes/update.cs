using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Http;
// ... existing code ...
        [HttpPost]
        [Authorize(Policy = "orders:write")]
        [ProducesResponseType(typeof(OrderDto), StatusCodes.Status201Created)]
// ... existing code ...
        [HttpPost("{id:guid}/cancel")]
        [Authorize(Policy = "orders:write")]
        [ProducesResponseType(StatusCodes.Status204NoContent)]
// ... existing code ...
