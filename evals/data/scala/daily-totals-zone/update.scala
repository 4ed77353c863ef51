package com.acme.ledger

import java.time.{Instant, LocalDate, ZoneId, ZoneOffset}
// ... unchanged ...

  def dailyTotals(account: AccountId, zone: ZoneId = ZoneOffset.UTC): Future[SortedMap[LocalDate, Money]] =
    store.entriesFor(account).map { entries =>
      val byDay = entries.groupBy(e => LocalDate.ofInstant(e.at, zone))
      SortedMap.from(byDay.view.mapValues(es => balanceOf(account, es)))
    }

  // ... rest of the code ...
