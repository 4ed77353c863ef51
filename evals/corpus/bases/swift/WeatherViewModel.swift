import Combine
import Foundation

protocol WeatherService {
    func currentConditions(for city: City) async throws -> Conditions
    func forecast(for city: City, days: Int) async throws -> [DailyForecast]
}

protocol LocationProvider {
    var lastKnownCity: City? { get }
    func requestCity() async throws -> City
}

struct City: Hashable, Codable, Identifiable {
    let id: Int
    let name: String
    let countryCode: String
    let latitude: Double
    let longitude: Double
}

struct Conditions: Equatable {
    let temperature: Measurement<UnitTemperature>
    let summary: String
    let humidity: Double
    let windSpeed: Measurement<UnitSpeed>
    let observedAt: Date
}

struct DailyForecast: Identifiable, Equatable {
    let id = UUID()
    let day: Date
    let high: Measurement<UnitTemperature>
    let low: Measurement<UnitTemperature>
    let chanceOfRain: Double
}

enum WeatherError: LocalizedError {
    case locationDenied
    case offline
    case server(status: Int)

    var errorDescription: String? {
        switch self {
        case .locationDenied:
            return "Location access is turned off."
        case .offline:
            return "You appear to be offline."
        case .server(let status):
            return "The weather service failed (\(status))."
        }
    }
}

@MainActor
final class WeatherViewModel: ObservableObject {
    enum State: Equatable {
        case idle
        case loading
        case loaded(Conditions, [DailyForecast])
        case failed(String)
    }

    @Published private(set) var state: State = .idle
    @Published private(set) var city: City?
    @Published var favorites: [City] = []
    @Published var usesMetric: Bool = true

    private let service: WeatherService
    private let locations: LocationProvider
    private let forecastDays: Int
    private var refreshTask: Task<Void, Never>?
    private var lastRefresh: Date?

    init(service: WeatherService, locations: LocationProvider, forecastDays: Int = 5) {
        self.service = service
        self.locations = locations
        self.forecastDays = forecastDays
        self.city = locations.lastKnownCity
    }

    func onAppear() {
        guard state == .idle else { return }
        refresh()
    }

    func refresh() {
        refreshTask?.cancel()
        refreshTask = Task { [weak self] in
            await self?.load()
        }
    }

    func select(_ city: City) {
        self.city = city
        refresh()
    }

    func toggleFavorite(_ city: City) {
        if let index = favorites.firstIndex(of: city) {
            favorites.remove(at: index)
        } else {
            favorites.append(city)
        }
    }

    private func load() async {
        state = .loading
        do {
            let target = try await resolveCity()
            async let conditions = service.currentConditions(for: target)
            async let forecast = service.forecast(for: target, days: forecastDays)
            let (now, days) = try await (conditions, forecast)
            guard !Task.isCancelled else { return }
            city = target
            state = .loaded(now, days)
            lastRefresh = Date()
        } catch is CancellationError {
            return
        } catch {
            state = .failed(message(for: error))
        }
    }

    private func resolveCity() async throws -> City {
        if let city {
            return city
        }
        return try await locations.requestCity()
    }

    private func message(for error: Error) -> String {
        if let weatherError = error as? WeatherError {
            return weatherError.errorDescription ?? "Something went wrong."
        }
        if (error as? URLError)?.code == .notConnectedToInternet {
            return WeatherError.offline.errorDescription ?? "Offline."
        }
        return "Something went wrong. Pull to try again."
    }
}

extension WeatherViewModel {
    var temperatureText: String {
        guard case let .loaded(conditions, _) = state else { return "--" }
        let unit: UnitTemperature = usesMetric ? .celsius : .fahrenheit
        let value = conditions.temperature.converted(to: unit).value
        return String(format: "%.0f°", value)
    }

    var isLoading: Bool {
        state == .loading
    }
}

extension DailyForecast {
    var weekdayName: String {
        day.formatted(.dateTime.weekday(.abbreviated))
    }

    var rainText: String {
        "\(Int((chanceOfRain * 100).rounded()))%"
    }
}
