  def withdraw(account: AccountId, amount: Money): Future[Either[LedgerError, Withdrawal]] =
    withAccount(account) {
      withdrawable(account, amount).flatMap {
        case Left(error) => Future.successful(Left(error))
        case Right(_) =>
          val entry = Withdrawal(UUID.randomUUID(), account, amount, clock.now())
          store.append(entry).map(_ => Right(entry))
      }
    }
