  # ... existing code ...
      usage_records.create!(kind: "seats_changed", quantity: count)
    end
  end

  def change_plan!(new_plan, prorate: true)
    raise ArgumentError, "already on #{new_plan.name}" if new_plan == plan

    prorated = prorate ? proration_for(new_plan) : 0
    transaction do
      update!(plan: new_plan)
      if prorated.positive?
        invoices.create!(amount_cents: prorated, description: "Switch to #{new_plan.name}")
      end
    end
  end

  def cancel!(at_period_end: true)
  # ... rest of the code ...
