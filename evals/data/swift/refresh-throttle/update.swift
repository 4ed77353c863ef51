    // ... existing code ...
    @Published var usesMetric: Bool = true

    private static let minimumRefreshInterval: TimeInterval = 60

    private let service: WeatherService
    // ... existing code ...

    func refresh(force: Bool = false) {
        if !force, let lastRefresh, Date().timeIntervalSince(lastRefresh) < Self.minimumRefreshInterval {
            return
        }
        refreshTask?.cancel()
        refreshTask = Task { [weak self] in
            await self?.load()
        }
    }

    func select(_ city: City) {
        self.city = city
        refresh(force: true)
    }

    // ... existing code ...
