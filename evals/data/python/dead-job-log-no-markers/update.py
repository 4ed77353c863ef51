    def fail(self, job: Job, error: str) -> JobState:
        """Record a failure; retry later with backoff, or give up after max_attempts."""
        if job.attempts >= job.max_attempts:
            state, run_at = JobState.DEAD, job.run_at
        else:
            state, run_at = JobState.QUEUED, time.time() + backoff_seconds(job.attempts)
        finished_at = time.time() if state is JobState.DEAD else None
        with self._transaction() as db:
            db.execute(
                "UPDATE jobs SET state = ?, run_at = ?, last_error = ?, lease_until = NULL,"
                " worker = NULL, finished_at = ? WHERE id = ?",
                (state.value, run_at, error[-4000:], finished_at, job.id),
            )
        if state is JobState.DEAD:
            last_line = error.strip().splitlines()[-1] if error.strip() else "no error text"
            log.warning("job %s (%s) is dead after %d attempts: %s", job.id, job.name, job.attempts,
                        last_line)
        return state
