class JobQueue:
    # ... existing code ...

    def get(self, job_id: str) -> Job:
        # ... existing code ...
        return Job.from_row(row)

    def cancel(self, job_id: str) -> bool:
        """Cancel a job that has not started yet. Returns False if it is running or finished."""
        with self._transaction() as db:
            cursor = db.execute(
                "UPDATE jobs SET state = 'dead', last_error = 'cancelled', finished_at = ?"
                " WHERE id = ? AND state = 'queued'",
                (time.time(), job_id),
            )
        return cursor.rowcount == 1

    def claim(self, worker: str, queue: str = "default") -> Job | None:
        # ... existing code ...
