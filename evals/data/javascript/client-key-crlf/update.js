function clientKey(req) {
  let forwarded = req.headers['x-forwarded-for'];
  if (Array.isArray(forwarded)) {
    forwarded = forwarded[0];
  }
  if (typeof forwarded === 'string' && forwarded.length > 0) {
    return forwarded.split(',')[0].trim();
  }
  return req.socket?.remoteAddress ?? 'unknown';
}
