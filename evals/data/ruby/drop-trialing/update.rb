# ... existing code ...
  scope :active, -> { where(status: "active") }
  scope :renewing_before, ->(time) { active.where("current_period_end < ?", time) }
# ... existing code ...
  def active?
    status == "active"
  end

  def canceled?
    status == "canceled"
  end
# ... existing code ...
