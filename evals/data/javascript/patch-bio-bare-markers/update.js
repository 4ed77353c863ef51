router.patch(
  '/:id',
  requireAuth,
  param('id').isUUID(),
  body('name').optional().trim().isLength({ min: 1, max: 100 }),
  body('email').optional().isEmail().normalizeEmail(),
  body('bio').optional().trim().isLength({ max: 500 }),
  handleValidation,
  asyncRoute(async (req, res) => {
    // ...
    for (const key of ['name', 'email', 'bio']) {
      // ...
    }
    // ...
  })
);
