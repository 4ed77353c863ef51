// ... existing code ...
    return res.json(publicUser(result.rows[0]));
  })
);

router.post(
  '/password-reset',
// ... existing code ...
