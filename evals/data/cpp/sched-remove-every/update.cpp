// ... existing code ...
JobId Scheduler::submit(JobSpec spec) {
    assert(spec.task && "a job needs a task");
    return impl_->submit(std::move(spec));
}

bool Scheduler::cancel(JobId id) {
    return impl_->cancel(id);
}
// ... existing code ...
