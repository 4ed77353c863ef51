    // ... existing code ...

    init(service: WeatherService, locations: LocationProvider, forecastDays: Int = 5) {
        self.service = service
        self.locations = locations
        self.forecastDays = (1...10).contains(forecastDays) ? forecastDays : 5
        self.city = locations.lastKnownCity
    }

    // ... existing code ...
