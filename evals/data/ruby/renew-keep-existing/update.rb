  # ... keep existing code

  def renew!
    return unless billable?

    if cancel_at_period_end?
      update!(status: "canceled", canceled_at: Time.current)
      return
    end

    invoice = invoices.create!(amount_cents: monthly_amount * (yearly? ? 12 : 1),
                               description: "#{plan.name} renewal")
    # ... keep existing code
  end

  # ... keep existing code
