// ... existing code ...
  return (
    <div className="task-board">
      {/* ... existing code ... */}
      {error && (
        <div role="alert" className="task-board__error">
          {error}
          <button type="button" className="task-board__dismiss" onClick={() => setError(null)}>
            Dismiss
          </button>
        </div>
      )}
      {/* ... existing code ... */}
    </div>
  );
}
// ... existing code ...
