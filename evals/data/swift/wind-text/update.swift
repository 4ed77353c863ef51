extension WeatherViewModel {
    // ... temperatureText unchanged ...

    var windText: String {
        guard case let .loaded(conditions, _) = state else { return "--" }
        let unit: UnitSpeed = usesMetric ? .kilometersPerHour : .milesPerHour
        let value = conditions.windSpeed.converted(to: unit).value
        return "\(Int(value.rounded())) \(usesMetric ? "km/h" : "mph")"
    }

    var isLoading: Bool {
        state == .loading
    }
}
