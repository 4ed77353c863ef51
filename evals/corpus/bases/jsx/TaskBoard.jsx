import React, { useCallback, useEffect, useMemo, useState } from 'react';
import PropTypes from 'prop-types';

import { fetchTasks, updateTask, deleteTask } from '../api/tasks';
import Spinner from './Spinner';
import './TaskBoard.css';

const COLUMNS = [
  { id: 'todo', title: 'To do' },
  { id: 'doing', title: 'In progress' },
  { id: 'done', title: 'Done' },
];

function formatDue(due) {
  if (!due) {
    return 'no due date';
  }
  const date = new Date(due);
  const days = Math.round((date - Date.now()) / 86400000);
  if (days < 0) {
    return `overdue by ${-days}d`;
  }
  if (days === 0) {
    return 'due today';
  }
  return `due in ${days}d`;
}

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

TaskCard.propTypes = {
  task: PropTypes.shape({
    id: PropTypes.string.isRequired,
    title: PropTypes.string.isRequired,
    description: PropTypes.string,
    status: PropTypes.string.isRequired,
    due: PropTypes.string,
  }).isRequired,
  onMove: PropTypes.func.isRequired,
  onDelete: PropTypes.func.isRequired,
};

function Column({ column, tasks, onMove, onDelete }) {
  return (
    <section className="board-column" aria-labelledby={`column-${column.id}`}>
      <h2 id={`column-${column.id}`} className="board-column__title">
        {column.title} <span className="board-column__count">{tasks.length}</span>
      </h2>
      {tasks.length === 0 ? (
        <p className="board-column__empty">Nothing here yet.</p>
      ) : (
        <ul className="board-column__list">
          {tasks.map((task) => (
            <TaskCard key={task.id} task={task} onMove={onMove} onDelete={onDelete} />
          ))}
        </ul>
      )}
    </section>
  );
}

export default function TaskBoard({ projectId }) {
  const [tasks, setTasks] = useState([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState(null);
  const [query, setQuery] = useState('');

  useEffect(() => {
    let cancelled = false;
    setLoading(true);
    fetchTasks(projectId)
      .then((data) => {
        if (!cancelled) {
          setTasks(data);
          setError(null);
        }
      })
      .catch((err) => {
        if (!cancelled) {
          setError(err.message);
        }
      })
      .finally(() => {
        if (!cancelled) {
          setLoading(false);
        }
      });
    return () => {
      cancelled = true;
    };
  }, [projectId]);

  const handleMove = useCallback(async (taskId, status) => {
    setTasks((current) => current.map((t) => (t.id === taskId ? { ...t, status } : t)));
    try {
      await updateTask(taskId, { status });
    } catch (err) {
      setError(`Could not move task: ${err.message}`);
    }
  }, []);

  const handleDelete = useCallback(async (taskId) => {
    const previous = tasks;
    setTasks((current) => current.filter((t) => t.id !== taskId));
    try {
      await deleteTask(taskId);
    } catch (err) {
      setTasks(previous);
      setError(`Could not delete task: ${err.message}`);
    }
  }, [tasks]);

  const visible = useMemo(() => {
    const needle = query.trim().toLowerCase();
    if (!needle) {
      return tasks;
    }
    return tasks.filter((t) => t.title.toLowerCase().includes(needle));
  }, [tasks, query]);

  if (loading) {
    return <Spinner label="Loading tasks" />;
  }

  return (
    <div className="task-board">
      <header className="task-board__toolbar">
        <input
          type="search"
          placeholder="Filter tasks"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      </header>
      {error && (
        <div role="alert" className="task-board__error">
          {error}
        </div>
      )}
      <div className="task-board__columns">
        {COLUMNS.map((column) => (
          <Column
            key={column.id}
            column={column}
            tasks={visible.filter((t) => t.status === column.id)}
            onMove={handleMove}
            onDelete={handleDelete}
          />
        ))}
      </div>
    </div>
  );
}

TaskBoard.propTypes = {
  projectId: PropTypes.string.isRequired,
};
