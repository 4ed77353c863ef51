    def slowest(self, count=10, min_samples=3):
        medians = [
            (median(times), path)
            for path, times in self.durations.items()
            if len(times) >= min_samples
        ]
        return sorted(medians, reverse=True)[:count]
