class Scheduler:
	# ... existing code ...

	def tick(self, now: float | None = None) -> list[Job]:
		now = time.time() if now is None else now
		enqueued = []
		for schedule in self.schedules:
			if schedule.next_run <= now:
				try:
					job = self.jobs.enqueue(schedule.name, schedule.payload, queue=schedule.queue)
				except QueueClosed:
					log.info("scheduler: queue closed, skipping %s", schedule.name)
					break
				enqueued.append(job)
				schedule.next_run = now + schedule.every
		return enqueued
# ... existing code ...
