class LedgerService(store: EntryStore, clock: Clock, currency: String)(implicit ec: ExecutionContext) {
  // ... existing code ...

  def chargeFee(account: AccountId, amount: Money, reason: String): Future[Either[LedgerError, Fee]] =
    withAccount(account) {
      val entry = Fee(UUID.randomUUID(), account, amount, reason, clock.now())
      store.append(entry).map(_ => Right(entry))
    }

  def dailyTotals(account: AccountId): Future[SortedMap[LocalDate, Money]] =
  // ... existing code ...
}
