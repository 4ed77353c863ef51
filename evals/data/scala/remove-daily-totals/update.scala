package com.acme.ledger

import java.time.Instant
import java.util.UUID

import scala.concurrent.{ExecutionContext, Future}
import scala.util.control.NonFatal
// ... existing code ...
            store.append(entry).map(_ => Right(entry))
        }
    }

  private def withdrawable(account: AccountId, amount: Money): Future[Either[LedgerError, Money]] =
// ... existing code ...
