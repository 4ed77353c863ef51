// ... existing code ...

router.put(
  '/:id/avatar',
  requireAuth,
  param('id').isUUID(),
  body('url').isURL({ protocols: ['https'] }),
  handleValidation,
  asyncRoute(async (req, res) => {
    if (req.user.id !== req.params.id) {
      return res.status(403).json({ error: 'forbidden' });
    }
    await db.query('UPDATE users SET avatar_url = $1 WHERE id = $2', [req.body.url, req.params.id]);
    return res.status(204).end();
  })
);

router.post(
  '/password-reset',
// ... existing code ...
