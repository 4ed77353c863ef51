// ... existing code ...
final case class Fee(id: UUID, account: AccountId, amount: Money, reason: String, at: Instant) extends Entry
final case class Interest(id: UUID, account: AccountId, amount: Money, rate: BigDecimal, at: Instant) extends Entry

// ... existing code ...
        case Transfer(_, _, _, amount, _)                  => total + amount
        case Fee(_, _, amount, _, _)                       => total + -amount
        case Interest(_, _, amount, _, _)                  => total + amount
      }
    }
// ... existing code ...
