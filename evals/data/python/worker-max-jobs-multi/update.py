# ... existing code ...
class Worker:
    """Runs jobs from one queue in a background thread until stopped."""

    def __init__(self, jobs: JobQueue, handlers: dict[str, Handler], *, queue: str = "default",
                 poll_interval: float = 0.5, name: str | None = None,
                 max_jobs: int | None = None) -> None:
        # ... existing assignments ...
        self.processed = 0
        self.failed = 0
        self.max_jobs = max_jobs

    # ... start, stop and run_one unchanged ...

    def _run(self) -> None:
        log.info("%s started on queue %s", self.name, self.queue)
        while not self._stop.is_set():
            if self.max_jobs is not None and self.processed + self.failed >= self.max_jobs:
                log.info("%s reached its limit of %d jobs", self.name, self.max_jobs)
                break
            try:
                busy = self.run_one()
            # ... existing code ...
