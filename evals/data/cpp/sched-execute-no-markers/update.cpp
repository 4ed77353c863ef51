    bool execute(Job& job) {
        try {
            job.spec.task();
            job.last_error.clear();
            return true;
        } catch (const std::exception& e) {
            job.last_error = e.what();
        } catch (...) {
            job.last_error = "unknown exception";
        }
        if (options_.on_error) {
            std::ostringstream what;
            what << describe(job.spec) << ", attempt " << job.attempts;
            options_.on_error(job.id, what.str(), job.last_error);
        }
        return false;
    }
