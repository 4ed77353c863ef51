  # ... existing code ...

  SEAT_RANGE = (1...1000).freeze

  def change_seats!(count)
    raise ArgumentError, "seats must be in #{SEAT_RANGE}" unless SEAT_RANGE.cover?(count)

    # ... existing code ...
  end

  # ... existing code ...
