// ...

function formatDue(due, now = Date.now()) {
  if (!due) {
    return 'no due date';
  }
  const date = new Date(due);
  const days = Math.round((date - now) / 86400000);
  // ...
}

// ...
