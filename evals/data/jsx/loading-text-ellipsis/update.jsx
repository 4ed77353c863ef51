export default function TaskBoard({ projectId }) {
  // ... existing code ...

  if (loading) {
    // Spinner first... the message only helps screen readers and slow networks.
    return (
      <div className="task-board task-board--loading">
        <Spinner label="Loading tasks" />
        <p className="task-board__loading-text">Loading tasks for {projectId}...</p>
      </div>
    );
  }

  // ... existing code ...
}
