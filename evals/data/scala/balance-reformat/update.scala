  // ... existing code ...

  private def balanceOf(account: AccountId, entries: Vector[Entry]): Money =
    entries.foldLeft(Money.zero(currency)) { (total, entry) =>
      entry match {
        case Deposit(_, _, amount, _) => total + amount
        case Withdrawal(_, _, amount, _) => total + -amount
        case Transfer(_, from, _, amount, _) if from == account => total + -amount
        case Transfer(_, _, to, amount, _) if to == account => total + amount
        case _: Transfer => total
        case Fee(_, _, amount, _, _) => total + -amount
      }
    }

  // ... existing code ...
