"""A small persistent job queue with workers, retries and a scheduler.

Jobs are stored in SQLite so that they survive restarts. Workers claim jobs with a lease; a job whose
lease expires (its worker died) goes back to the queue. Failed jobs are retried with exponential
backoff until `max_attempts`, then moved to the dead-letter state.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
import traceback
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

log = logging.getLogger(__name__)

DEFAULT_LEASE_SECONDS = 60
DEFAULT_MAX_ATTEMPTS = 5
BACKOFF_BASE_SECONDS = 2.0
BACKOFF_CAP_SECONDS = 600.0

SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    queue TEXT NOT NULL,
    name TEXT NOT NULL,
    payload TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL,
    run_at REAL NOT NULL,
    lease_until REAL,
    worker TEXT,
    last_error TEXT,
    created_at REAL NOT NULL,
    finished_at REAL
);
CREATE INDEX IF NOT EXISTS jobs_ready ON jobs (queue, state, run_at);
"""


class JobState(str, Enum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    DEAD = "dead"


class QueueClosed(RuntimeError):
    """Raised when a closed queue is used."""


class UnknownJob(KeyError):
    """Raised when no job has the given id."""


@dataclass
class Job:
    id: str
    queue: str
    name: str
    payload: dict[str, Any]
    state: JobState = JobState.QUEUED
    attempts: int = 0
    max_attempts: int = DEFAULT_MAX_ATTEMPTS
    run_at: float = field(default_factory=time.time)
    lease_until: float | None = None
    worker: str | None = None
    last_error: str | None = None
    created_at: float = field(default_factory=time.time)
    finished_at: float | None = None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> "Job":
        return cls(
            id=row["id"],
            queue=row["queue"],
            name=row["name"],
            payload=json.loads(row["payload"]),
            state=JobState(row["state"]),
            attempts=row["attempts"],
            max_attempts=row["max_attempts"],
            run_at=row["run_at"],
            lease_until=row["lease_until"],
            worker=row["worker"],
            last_error=row["last_error"],
            created_at=row["created_at"],
            finished_at=row["finished_at"],
        )

    @property
    def is_finished(self) -> bool:
        return self.state in (JobState.DONE, JobState.DEAD)


def backoff_seconds(attempts: int) -> float:
    """Exponential backoff: 2, 4, 8, ... seconds, capped."""
    return min(BACKOFF_BASE_SECONDS ** max(attempts, 1), BACKOFF_CAP_SECONDS)


class JobQueue:
    """The queue itself: enqueue, claim, complete, fail. Thread-safe; one connection per queue."""

    def __init__(self, path: str = ":memory:", *, lease_seconds: int = DEFAULT_LEASE_SECONDS) -> None:
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        self._db.executescript(SCHEMA)
        self._lock = threading.Lock()
        self._closed = False
        self.lease_seconds = lease_seconds

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        if self._closed:
            raise QueueClosed("the queue is closed")
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            else:
                self._db.execute("COMMIT")

    def enqueue(self, name: str, payload: dict[str, Any] | None = None, *, queue: str = "default",
                delay: float = 0.0, max_attempts: int = DEFAULT_MAX_ATTEMPTS) -> Job:
        job = Job(id=uuid.uuid4().hex, queue=queue, name=name, payload=payload or {},
                  max_attempts=max_attempts, run_at=time.time() + delay)
        with self._transaction() as db:
            db.execute(
                "INSERT INTO jobs (id, queue, name, payload, state, attempts, max_attempts, run_at,"
                " created_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)",
                (job.id, job.queue, job.name, json.dumps(job.payload), job.state.value,
                 job.max_attempts, job.run_at, job.created_at),
            )
        log.debug("enqueued %s (%s) on %s", job.id, job.name, job.queue)
        return job

    def get(self, job_id: str) -> Job:
        with self._transaction() as db:
            row = db.execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
        if row is None:
            raise UnknownJob(job_id)
        return Job.from_row(row)

    def claim(self, worker: str, queue: str = "default") -> Job | None:
        """Take the oldest ready job, or one whose lease expired, and lease it to `worker`."""
        now = time.time()
        with self._transaction() as db:
            row = db.execute(
                "SELECT * FROM jobs WHERE queue = ? AND ("
                " (state = 'queued' AND run_at <= ?) OR (state = 'running' AND lease_until < ?)"
                ") ORDER BY run_at LIMIT 1",
                (queue, now, now),
            ).fetchone()
            if row is None:
                return None
            db.execute(
                "UPDATE jobs SET state = 'running', worker = ?, lease_until = ?,"
                " attempts = attempts + 1 WHERE id = ?",
                (worker, now + self.lease_seconds, row["id"]),
            )
        job = Job.from_row(row)
        job.state, job.worker, job.attempts = JobState.RUNNING, worker, job.attempts + 1
        job.lease_until = now + self.lease_seconds
        return job

    def extend_lease(self, job: Job) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE jobs SET lease_until = ? WHERE id = ? AND worker = ?",
                (time.time() + self.lease_seconds, job.id, job.worker),
            )

    def complete(self, job: Job) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE jobs SET state = 'done', finished_at = ?, lease_until = NULL WHERE id = ?",
                (time.time(), job.id),
            )
        log.debug("job %s done after %d attempt(s)", job.id, job.attempts)

    def fail(self, job: Job, error: str) -> JobState:
        """Record a failure; retry later with backoff, or give up after max_attempts."""
        if job.attempts >= job.max_attempts:
            state, run_at = JobState.DEAD, job.run_at
        else:
            state, run_at = JobState.QUEUED, time.time() + backoff_seconds(job.attempts)
        with self._transaction() as db:
            db.execute(
                "UPDATE jobs SET state = ?, run_at = ?, last_error = ?, lease_until = NULL,"
                " worker = NULL WHERE id = ?",
                (state.value, run_at, error[-4000:], job.id),
            )
        if state is JobState.DEAD:
            log.warning("job %s (%s) is dead after %d attempts", job.id, job.name, job.attempts)
        return state

    def counts(self, queue: str = "default") -> dict[str, int]:
        with self._transaction() as db:
            rows = db.execute(
                "SELECT state, COUNT(*) AS n FROM jobs WHERE queue = ? GROUP BY state", (queue,)
            ).fetchall()
        return {row["state"]: row["n"] for row in rows}

    def purge_finished(self, older_than: float) -> int:
        with self._transaction() as db:
            cursor = db.execute(
                "DELETE FROM jobs WHERE state IN ('done', 'dead') AND finished_at < ?",
                (time.time() - older_than,),
            )
        return cursor.rowcount

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._db.close()


Handler = Callable[[dict[str, Any]], None]


class Worker:
    """Runs jobs from one queue in a background thread until stopped."""

    def __init__(self, jobs: JobQueue, handlers: dict[str, Handler], *, queue: str = "default",
                 poll_interval: float = 0.5, name: str | None = None) -> None:
        self.jobs = jobs
        self.handlers = handlers
        self.queue = queue
        self.poll_interval = poll_interval
        self.name = name or f"worker-{uuid.uuid4().hex[:8]}"
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.processed = 0
        self.failed = 0

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError(f"{self.name} is already running")
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def stop(self, timeout: float | None = 10.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def run_one(self) -> bool:
        """Claim and run a single job. Returns False when the queue had nothing ready."""
        job = self.jobs.claim(self.name, self.queue)
        if job is None:
            return False
        handler = self.handlers.get(job.name)
        if handler is None:
            self.jobs.fail(job, f"no handler for job name {job.name!r}")
            self.failed += 1
            return True
        try:
            handler(job.payload)
        except Exception:
            self.jobs.fail(job, traceback.format_exc())
            self.failed += 1
        else:
            self.jobs.complete(job)
            self.processed += 1
        return True

    def _run(self) -> None:
        log.info("%s started on queue %s", self.name, self.queue)
        while not self._stop.is_set():
            try:
                busy = self.run_one()
            except QueueClosed:
                break
            except Exception:
                log.exception("%s: unexpected error", self.name)
                busy = False
            if not busy:
                self._stop.wait(self.poll_interval)
        log.info("%s stopped (%d done, %d failed)", self.name, self.processed, self.failed)


@dataclass
class Schedule:
    name: str
    every: float
    payload: dict[str, Any] = field(default_factory=dict)
    queue: str = "default"
    next_run: float = 0.0


class Scheduler:
    """Enqueues recurring jobs. Call `tick()` from a loop or a timer."""

    def __init__(self, jobs: JobQueue) -> None:
        self.jobs = jobs
        self.schedules: list[Schedule] = []

    def every(self, seconds: float, name: str, payload: dict[str, Any] | None = None,
              queue: str = "default") -> Schedule:
        if seconds <= 0:
            raise ValueError("interval must be positive")
        schedule = Schedule(name=name, every=seconds, payload=payload or {}, queue=queue)
        self.schedules.append(schedule)
        return schedule

    def tick(self, now: float | None = None) -> list[Job]:
        now = time.time() if now is None else now
        enqueued = []
        for schedule in self.schedules:
            if schedule.next_run <= now:
                enqueued.append(self.jobs.enqueue(schedule.name, schedule.payload, queue=schedule.queue))
                schedule.next_run = now + schedule.every
        return enqueued


def run_workers(jobs: JobQueue, handlers: dict[str, Handler], count: int = 2,
                queue: str = "default") -> list[Worker]:
    """Start `count` workers on `queue` and return them (call `stop()` on each to shut down)."""
    workers = [Worker(jobs, handlers, queue=queue, name=f"{queue}-{i}") for i in range(count)]
    for worker in workers:
        worker.start()
    return workers
