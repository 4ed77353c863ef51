# ... associations and validations unchanged ...

  scope :active, -> { where(status: "active") }
  scope :trialing, -> { where(status: "trialing") }
  scope :past_due, -> { where(status: "past_due") }
  scope :renewing_before, ->(time) { active.where("current_period_end < ?", time) }
  scope :for_plan, ->(plan) { where(plan: plan) }

  class << self
    # ... start! unchanged ...

    def monthly_recurring_revenue
      active.where.not(id: past_due.select(:id)).includes(:plan).sum(&:monthly_amount)
    end
  end

# ... instance methods unchanged ...
