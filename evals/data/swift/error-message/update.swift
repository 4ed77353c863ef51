    private func message(for error: Error) -> String {
        switch error {
        case WeatherError.server(let status) where status == 503:
            return "The weather service is down for maintenance. Try again soon."
        case let weatherError as WeatherError:
            return weatherError.errorDescription ?? "Something went wrong."
        case let urlError as URLError where urlError.code == .notConnectedToInternet:
            return WeatherError.offline.errorDescription ?? "Offline."
        default:
            return "Something went wrong. Pull to try again."
        }
    }
