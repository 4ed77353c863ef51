// ...

protocol WeatherService {
    func currentConditions(for city: City) async throws -> Conditions
    func forecast(for city: City, days: Int) async throws -> [DailyForecast]
    func airQuality(for city: City) async throws -> AirQuality
}

// ...

struct Conditions: Equatable {
    let temperature: Measurement<UnitTemperature>
    let summary: String
    let humidity: Double
    let windSpeed: Measurement<UnitSpeed>
    let observedAt: Date
}

struct AirQuality: Equatable {
    let index: Int
    let dominantPollutant: String

    var isHealthy: Bool { index <= 50 }
}

// ...
