// ... existing code ...
    @Published private(set) var city: City?
    @Published var usesMetric: Bool = true
// ... existing code ...
    func select(_ city: City) {
        self.city = city
        refresh()
    }

    private func load() async {
// ... existing code ...
