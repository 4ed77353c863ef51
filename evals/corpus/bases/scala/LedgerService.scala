package com.acme.ledger

import java.time.{Instant, LocalDate, ZoneOffset}
import java.util.UUID

import scala.collection.immutable.SortedMap
import scala.concurrent.{ExecutionContext, Future}
import scala.util.control.NonFatal

final case class AccountId(value: UUID) extends AnyVal

final case class Money(cents: Long, currency: String) {
  require(currency.length == 3, s"currency must be an ISO code, got $currency")

  def +(other: Money): Money = {
    require(other.currency == currency, s"cannot add $currency and ${other.currency}")
    copy(cents = cents + other.cents)
  }

  def unary_- : Money = copy(cents = -cents)

  def isNegative: Boolean = cents < 0

  override def toString: String = f"${cents / 100.0}%.2f $currency"
}

object Money {
  def zero(currency: String): Money = Money(0L, currency)
}

sealed trait Entry {
  def id: UUID
  def account: AccountId
  def at: Instant
}

final case class Deposit(id: UUID, account: AccountId, amount: Money, at: Instant) extends Entry
final case class Withdrawal(id: UUID, account: AccountId, amount: Money, at: Instant) extends Entry
final case class Transfer(id: UUID, account: AccountId, to: AccountId, amount: Money, at: Instant) extends Entry
final case class Fee(id: UUID, account: AccountId, amount: Money, reason: String, at: Instant) extends Entry

sealed trait LedgerError extends Product with Serializable {
  def message: String
}

object LedgerError {
  final case class InsufficientFunds(account: AccountId, balance: Money, requested: Money) extends LedgerError {
    def message: String = s"account ${account.value} has $balance, needs $requested"
  }
  final case class UnknownAccount(account: AccountId) extends LedgerError {
    def message: String = s"unknown account ${account.value}"
  }
  final case class StorageFailure(cause: Throwable) extends LedgerError {
    def message: String = s"storage failed: ${cause.getMessage}"
  }
}

trait EntryStore {
  def append(entry: Entry): Future[Unit]
  def entriesFor(account: AccountId): Future[Vector[Entry]]
  def accountExists(account: AccountId): Future[Boolean]
}

trait Clock {
  def now(): Instant
}

object Clock {
  val system: Clock = () => Instant.now()
}

class LedgerService(store: EntryStore, clock: Clock, currency: String)(implicit ec: ExecutionContext) {
  import LedgerError._

  def balance(account: AccountId): Future[Either[LedgerError, Money]] =
    withAccount(account) {
      store.entriesFor(account).map(entries => Right(balanceOf(account, entries)))
    }

  def deposit(account: AccountId, amount: Money): Future[Either[LedgerError, Deposit]] =
    withAccount(account) {
      val entry = Deposit(UUID.randomUUID(), account, amount, clock.now())
      store.append(entry).map(_ => Right(entry))
    }

  def withdraw(account: AccountId, amount: Money): Future[Either[LedgerError, Withdrawal]] =
    withAccount(account) {
      store.entriesFor(account).flatMap { entries =>
        val current = balanceOf(account, entries)
        if ((current + -amount).isNegative) {
          Future.successful(Left(InsufficientFunds(account, current, amount)))
        } else {
          val entry = Withdrawal(UUID.randomUUID(), account, amount, clock.now())
          store.append(entry).map(_ => Right(entry))
        }
      }
    }

  def transfer(from: AccountId, to: AccountId, amount: Money): Future[Either[LedgerError, Transfer]] =
    store.accountExists(to).flatMap {
      case false => Future.successful(Left(UnknownAccount(to)))
      case true =>
        withdrawable(from, amount).flatMap {
          case Left(error) => Future.successful(Left(error))
          case Right(_) =>
            val entry = Transfer(UUID.randomUUID(), from, to, amount, clock.now())
            store.append(entry).map(_ => Right(entry))
        }
    }

  def dailyTotals(account: AccountId): Future[SortedMap[LocalDate, Money]] =
    store.entriesFor(account).map { entries =>
      val byDay = entries.groupBy(e => LocalDate.ofInstant(e.at, ZoneOffset.UTC))
      SortedMap.from(byDay.view.mapValues(es => balanceOf(account, es)))
    }

  private def withdrawable(account: AccountId, amount: Money): Future[Either[LedgerError, Money]] =
    store.entriesFor(account).map { entries =>
      val current = balanceOf(account, entries)
      if ((current + -amount).isNegative) Left(InsufficientFunds(account, current, amount))
      else Right(current)
    }

  private def balanceOf(account: AccountId, entries: Vector[Entry]): Money =
    entries.foldLeft(Money.zero(currency)) { (total, entry) =>
      entry match {
        case Deposit(_, _, amount, _)                      => total + amount
        case Withdrawal(_, _, amount, _)                   => total + -amount
        case Transfer(_, from, _, amount, _) if from == account => total + -amount
        case Transfer(_, _, _, amount, _)                  => total + amount
        case Fee(_, _, amount, _, _)                       => total + -amount
      }
    }

  private def withAccount[A](account: AccountId)(
      body: => Future[Either[LedgerError, A]]
  ): Future[Either[LedgerError, A]] =
    store
      .accountExists(account)
      .flatMap {
        case true  => body
        case false => Future.successful(Left(UnknownAccount(account)))
      }
      .recover { case NonFatal(e) => Left(StorageFailure(e)) }
}
