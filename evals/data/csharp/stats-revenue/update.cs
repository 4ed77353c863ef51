        [HttpGet("stats")]
        public async Task<ActionResult<IReadOnlyList<StatusStats>>> Stats(CancellationToken ct)
        {
            var orders = await _store.QueryAsync(ct);
            var stats = orders
                .GroupBy(o => o.Status)
                .Select(g => new StatusStats(
                    g.Key.ToString(),
                    g.Count(),
                    g.Sum(o => o.Lines.Sum(l => l.Quantity * l.UnitPrice))))
                .OrderBy(s => s.Status)
                .ToList();
            return Ok(stats);
        }
