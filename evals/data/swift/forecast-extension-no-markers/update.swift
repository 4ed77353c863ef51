extension DailyForecast {
    var weekdayName: String {
        day.formatted(.dateTime.weekday(.wide).locale(.autoupdatingCurrent))
    }

    var rainText: String? {
        guard chanceOfRain >= 0.1 else { return nil }
        return "\(Int((chanceOfRain * 100).rounded()))%"
    }
}
