# ... existing code ...

  STATUSES = %w[trialing active paused past_due canceled].freeze
  INTERVALS = %w[monthly yearly].freeze

# ... existing code ...

  def cancel!(at_period_end: true)
    if at_period_end
      update!(cancel_at_period_end: true)
    else
      update!(status: "canceled", canceled_at: Time.current)
    end
  end

  def pause!
    raise ArgumentError, "only active subscriptions can be paused" unless active?

    update!(status: "paused", paused_at: Time.current)
  end

  def resume!
    raise ArgumentError, "subscription is not paused" unless status == "paused"

    update!(status: "active", paused_at: nil, started_at: Time.current)
  end

# ... existing code ...
