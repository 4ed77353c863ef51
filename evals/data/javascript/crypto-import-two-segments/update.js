'use strict';

const crypto = require('crypto');
const express = require('express');
// ... existing code ...
    if (user) {
      const token = crypto.randomBytes(32).toString('hex');
// ... existing code ...
