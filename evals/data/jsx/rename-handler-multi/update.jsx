// ... existing code ...
import { fetchTasks, updateTask, deleteTask, renameTask } from '../api/tasks';
// ... existing code ...
  }, [tasks]);

  const handleRename = useCallback(async (taskId, title) => {
    setTasks((current) => current.map((t) => (t.id === taskId ? { ...t, title } : t)));
    try {
      await renameTask(taskId, title);
    } catch (err) {
      setError(`Could not rename task: ${err.message}`);
    }
  }, []);

  const visible = useMemo(() => {
  // ... existing code ...
          <Column
            key={column.id}
            column={column}
            tasks={visible.filter((t) => t.status === column.id)}
            onMove={handleMove}
            onDelete={handleDelete}
            onRename={handleRename}
          />
  {/* ... existing code ... */}
