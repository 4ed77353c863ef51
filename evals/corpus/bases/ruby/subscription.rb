# frozen_string_literal: true

require "securerandom"

# A customer's paid subscription to a plan, billed monthly or yearly.
class Subscription < ApplicationRecord
  module Billing
    GRACE_PERIOD = 3.days

    def next_billing_date
      return nil if canceled?

      interval = yearly? ? 1.year : 1.month
      (last_billed_at || started_at) + interval
    end

    def billable?(now = Time.current)
      active? && next_billing_date.present? && next_billing_date <= now
    end

    def past_due?(now = Time.current)
      billable?(now) && next_billing_date + GRACE_PERIOD < now
    end
  end

  module Notifications
    def notify_renewal!
      SubscriptionMailer.with(subscription: self).renewal_notice.deliver_later
    end

    def notify_cancellation!
      SubscriptionMailer.with(subscription: self).cancellation_notice.deliver_later
    end
  end

  include Billing
  include Notifications

  STATUSES = %w[trialing active past_due canceled].freeze
  INTERVALS = %w[monthly yearly].freeze

  belongs_to :customer
  belongs_to :plan
  has_many :invoices, dependent: :destroy
  has_many :usage_records, dependent: :delete_all

  validates :status, inclusion: { in: STATUSES }
  validates :interval, inclusion: { in: INTERVALS }
  validates :seats, numericality: { only_integer: true, greater_than: 0 }
  validate :plan_allows_seats

  before_validation :assign_reference, on: :create
  after_commit :notify_cancellation!, if: -> { saved_change_to_status?(to: "canceled") }

  scope :active, -> { where(status: "active") }
  scope :trialing, -> { where(status: "trialing") }
  scope :renewing_before, ->(time) { active.where("current_period_end < ?", time) }
  scope :for_plan, ->(plan) { where(plan: plan) }

  class << self
    def start!(customer:, plan:, seats: 1, interval: "monthly")
      create!(
        customer: customer,
        plan: plan,
        seats: seats,
        interval: interval,
        status: plan.trial_days.positive? ? "trialing" : "active",
        started_at: Time.current,
        trial_ends_at: plan.trial_days.positive? ? plan.trial_days.days.from_now : nil
      )
    end

    def monthly_recurring_revenue
      active.includes(:plan).sum(&:monthly_amount)
    end
  end

  def active?
    status == "active"
  end

  def trialing?
    status == "trialing"
  end

  def canceled?
    status == "canceled"
  end

  def yearly?
    interval == "yearly"
  end

  def monthly_amount
    amount = plan.price_cents * seats
    yearly? ? (amount * 10 / 12.0).round : amount
  end

  def change_seats!(count)
    raise ArgumentError, "seats must be positive" unless count.positive?

    transaction do
      update!(seats: count)
      usage_records.create!(kind: "seats_changed", quantity: count)
    end
  end

  def upgrade!(new_plan)
    raise ArgumentError, "already on #{new_plan.name}" if new_plan == plan

    prorated = proration_for(new_plan)
    transaction do
      update!(plan: new_plan)
      invoices.create!(amount_cents: prorated, description: "Upgrade to #{new_plan.name}")
    end
  end

  def cancel!(at_period_end: true)
    if at_period_end
      update!(cancel_at_period_end: true)
    else
      update!(status: "canceled", canceled_at: Time.current)
    end
  end

  def renew!
    return unless billable?

    invoice = invoices.create!(amount_cents: monthly_amount * (yearly? ? 12 : 1),
                               description: "#{plan.name} renewal")
    update!(last_billed_at: Time.current)
    notify_renewal!
    invoice
  end

  def to_s
    "#{plan.name} x#{seats} (#{status})"
  end

  private

  def proration_for(new_plan)
    remaining = (next_billing_date - Time.current) / 1.day
    days_in_period = yearly? ? 365 : 30
    difference = (new_plan.price_cents - plan.price_cents) * seats
    (difference * remaining / days_in_period).round
  end

  def assign_reference
    self.reference ||= "sub_#{SecureRandom.alphanumeric(14)}"
  end

  def plan_allows_seats
    return if plan.nil? || seats.nil?
    return if plan.max_seats.nil? || seats <= plan.max_seats

    errors.add(:seats, "exceeds the #{plan.max_seats} seats allowed by #{plan.name}")
  end
end
