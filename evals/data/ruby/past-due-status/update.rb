    def past_due?(now = Time.current)
      return true if status == "past_due"
      return false unless billable?(now)

      next_billing_date + GRACE_PERIOD < now
    end
