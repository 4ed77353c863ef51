'use strict';

const express = require('express');
const bcrypt = require('bcrypt');
const { body, param, validationResult } = require('express-validator');

const db = require('../db');
const { requireAuth, requireAdmin } = require('../middleware/auth');
const mailer = require('../services/mailer');
const logger = require('../logger');

const router = express.Router();

const PAGE_SIZE = 25;
const SALT_ROUNDS = 12;

/**
 * Strip fields that must never leave the server.
 */
function publicUser(row) {
  if (!row) {
    return null;
  }
  const { password_hash, reset_token, ...rest } = row;
  return rest;
}

function handleValidation(req, res, next) {
  const errors = validationResult(req);
  if (!errors.isEmpty()) {
    return res.status(422).json({ errors: errors.array() });
  }
  return next();
}

function asyncRoute(fn) {
  return (req, res, next) => {
    Promise.resolve(fn(req, res, next)).catch(next);
  };
}

async function findUserByEmail(email) {
  const result = await db.query('SELECT * FROM users WHERE email = $1', [email.toLowerCase()]);
  return result.rows[0] || null;
}

async function findUserById(id) {
  const result = await db.query('SELECT * FROM users WHERE id = $1', [id]);
  return result.rows[0] || null;
}

router.get(
  '/',
  requireAuth,
  requireAdmin,
  asyncRoute(async (req, res) => {
    const page = Math.max(parseInt(req.query.page, 10) || 1, 1);
    const offset = (page - 1) * PAGE_SIZE;
    const result = await db.query(
      'SELECT * FROM users ORDER BY created_at DESC LIMIT $1 OFFSET $2',
      [PAGE_SIZE, offset]
    );
    const count = await db.query('SELECT COUNT(*) AS n FROM users');
    res.json({
      page,
      pageSize: PAGE_SIZE,
      total: Number(count.rows[0].n),
      users: result.rows.map(publicUser),
    });
  })
);

router.get(
  '/:id',
  requireAuth,
  param('id').isUUID(),
  handleValidation,
  asyncRoute(async (req, res) => {
    if (req.user.id !== req.params.id && !req.user.isAdmin) {
      return res.status(403).json({ error: 'forbidden' });
    }
    const user = await findUserById(req.params.id);
    if (!user) {
      return res.status(404).json({ error: 'user not found' });
    }
    return res.json(publicUser(user));
  })
);

router.post(
  '/',
  body('email').isEmail().normalizeEmail(),
  body('password').isLength({ min: 10 }),
  body('name').trim().isLength({ min: 1, max: 100 }),
  handleValidation,
  asyncRoute(async (req, res) => {
    const { email, password, name } = req.body;
    if (await findUserByEmail(email)) {
      return res.status(409).json({ error: 'email already registered' });
    }
    const hash = await bcrypt.hash(password, SALT_ROUNDS);
    const result = await db.query(
      'INSERT INTO users (email, password_hash, name) VALUES ($1, $2, $3) RETURNING *',
      [email, hash, name]
    );
    const user = result.rows[0];
    await mailer.sendWelcome(user.email, user.name);
    logger.info('registered user %s', user.id);
    return res.status(201).json(publicUser(user));
  })
);

router.patch(
  '/:id',
  requireAuth,
  param('id').isUUID(),
  body('name').optional().trim().isLength({ min: 1, max: 100 }),
  body('email').optional().isEmail().normalizeEmail(),
  handleValidation,
  asyncRoute(async (req, res) => {
    if (req.user.id !== req.params.id && !req.user.isAdmin) {
      return res.status(403).json({ error: 'forbidden' });
    }
    const fields = [];
    const values = [];
    for (const key of ['name', 'email']) {
      if (req.body[key] !== undefined) {
        values.push(req.body[key]);
        fields.push(`${key} = $${values.length}`);
      }
    }
    if (fields.length === 0) {
      return res.status(400).json({ error: 'nothing to update' });
    }
    values.push(req.params.id);
    const result = await db.query(
      `UPDATE users SET ${fields.join(', ')} WHERE id = $${values.length} RETURNING *`,
      values
    );
    if (result.rowCount === 0) {
      return res.status(404).json({ error: 'user not found' });
    }
    return res.json(publicUser(result.rows[0]));
  })
);

router.delete(
  '/:id',
  requireAuth,
  requireAdmin,
  param('id').isUUID(),
  handleValidation,
  asyncRoute(async (req, res) => {
    const result = await db.query('DELETE FROM users WHERE id = $1', [req.params.id]);
    if (result.rowCount === 0) {
      return res.status(404).json({ error: 'user not found' });
    }
    logger.info('admin %s deleted user %s', req.user.id, req.params.id);
    return res.status(204).end();
  })
);

router.post(
  '/password-reset',
  body('email').isEmail().normalizeEmail(),
  handleValidation,
  asyncRoute(async (req, res) => {
    const user = await findUserByEmail(req.body.email);
    if (user) {
      const token = require('crypto').randomBytes(32).toString('hex');
      await db.query(
        "UPDATE users SET reset_token = $1, reset_expires = NOW() + INTERVAL '1 hour' WHERE id = $2",
        [token, user.id]
      );
      await mailer.sendPasswordReset(user.email, token);
    }
    // Same answer either way so the endpoint cannot be used to probe for accounts.
    return res.status(202).json({ ok: true });
  })
);

module.exports = router;
module.exports.publicUser = publicUser;
