// ... existing code ...
    const user = result.rows[0];
    try {
      await mailer.sendWelcome(user.email, user.name);
    } catch (err) {
      logger.warn('welcome mail to %s failed: %s', user.id, err.message);
    }
    logger.info('registered user %s', user.id);
// ... existing code ...
