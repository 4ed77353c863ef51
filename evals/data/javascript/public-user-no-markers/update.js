/**
 * Strip fields that must never leave the server.
 */
function publicUser(row) {
  if (!row) {
    return null;
  }
  const { password_hash, reset_token, reset_expires, failed_logins, ...rest } = row;
  return rest;
}
