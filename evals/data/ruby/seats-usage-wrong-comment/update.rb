// ... existing code ...

  def change_seats!(count)
    raise ArgumentError, "seats must be positive" unless count.positive?
    return if count == seats

    previous = seats
    transaction do
      update!(seats: count)
      usage_records.create!(kind: "seats_changed", quantity: count, previous_quantity: previous)
    end
  end

// ... existing code ...
