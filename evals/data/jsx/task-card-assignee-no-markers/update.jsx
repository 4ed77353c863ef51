function TaskCard({ task, onMove, onDelete }) {
  const overdue = task.due && new Date(task.due) < new Date();
  return (
    <li className={`task-card ${overdue ? 'task-card--overdue' : ''}`}>
      <div className="task-card__header">
        <span className="task-card__title">{task.title}</span>
        <button
          type="button"
          className="task-card__delete"
          aria-label={`Delete ${task.title}`}
          onClick={() => onDelete(task.id)}
        >
          ×
        </button>
      </div>
      {task.description && <p className="task-card__description">{task.description}</p>}
      {task.assignee && (
        <p className="task-card__assignee">Assigned to {task.assignee.name}</p>
      )}
      <div className="task-card__footer">
        <span className="task-card__due">{formatDue(task.due)}</span>
        <select
          value={task.status}
          onChange={(event) => onMove(task.id, event.target.value)}
          aria-label="Move task"
        >
          {COLUMNS.map((column) => (
            <option key={column.id} value={column.id}>
              {column.title}
            </option>
          ))}
        </select>
      </div>
    </li>
  );
}
