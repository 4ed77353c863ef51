import React, { useCallback, useEffect, useMemo, useState } from 'react';
// ... existing code ...

const COLUMNS = [
  { id: 'todo', title: 'To do' },
  { id: 'doing', title: 'In progress' },
  { id: 'review', title: 'Review' },
  { id: 'done', title: 'Done' },
];

// ... existing code ...
