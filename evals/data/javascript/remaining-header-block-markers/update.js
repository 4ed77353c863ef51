/* ... */
export function rateLimit(options = {}) {
  /* ... */
  const middleware = (req, res, next) => {
    const key = keyOf(req);
    const allowed = limiter.tryRemove(key);
    const remaining = Math.floor(limiter.bucketFor(key).tokens);
    res.setHeader('X-RateLimit-Remaining', String(remaining));
    if (allowed) {
      return next();
    }
    const retryMs = limiter.retryAfterMs(key);
    /* ... */
  };
  /* ... */
}
/* ... */
