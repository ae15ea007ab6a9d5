import { randomUUID } from 'node:crypto';
import {
  addDays,
  applyDelinquencyTrigger,
  daysBetween,
  stageRank,
  timeOrderedUuid,
  toEventStatus,
  topicFor,
  type CalendarDate,
  type DelinquencyStatusChange,
  type DelinquencyTransition,
  type RentalDelinquencyStatus,
} from '@storage/domain';
import { outboxInsert } from '@storage/messaging';
import { sql } from '@storage/persistence';
import { entriesJson, entriesOfRows, lateFeeEntry, postEntriesQuery, writeOffEntry, type NewLedgerEntry } from '@storage/rental-ledger';
import type { RentalEventContext } from '@storage/rental-events';
import { eventTimes } from '@storage/rentals';
import { auctionEventObject, newAuction, type AuctionRow } from './auctions';
import { DelinquencyConflict } from './errors';
import { delinquencyState, type LockedRental } from './locked-rental';
import { envelopeOf, type PendingEvent } from './rental-event-batch';
import { STATE_VERSION, VERSIONED_RENTAL } from './state-version';

/*
 * The one implementation of a delinquency transition's effects: the late fee through the ledger, the
 * delinquency row, the auction created or canceled, the gate code suspended or restored, and the outbox
 * rows, decided by `transitionWrite` from the rental as read and written by one statement of data-modifying
 * CTEs (`transitionWritesSql`) for any number of rentals at once. Both writers run that statement: the
 * business-day advancer for a batch of rentals, each guarded by the state version it was decided on, sent with
 * the batch's lock in one round trip (its speed: one statement per batch, not per
 * rental); `writeTransition` for one rental locked inside the caller's transaction (payments, operator actions,
 * auction completion), unguarded, with bound parameters. Running the same statement everywhere keeps the two
 * from drifting apart.
 *
 * The payloads are the event context as read before the write, with the transition's ledger entries (late
 * fee, write-off) applied to the balances: nothing else in the context changes with a transition.
 */

/** A transition's options besides the transition itself. */
export interface TransitionOptions {
  /** Set when a payment caused the change (the event's paymentDate). */
  paymentDate?: CalendarDate | null;
  /** The business-day run applying it, recorded on the delinquency. */
  businessDate?: CalendarDate | null;
  /** Charged when a new episode starts (entering OVERDUE). */
  lateFeeInPennies?: number;
  /** Events that belong before the status change in the same transaction (an auction completed). */
  leadingEvents?: PendingEvent[];
  /** Events that follow it (the tenant moved out). */
  trailingEvents?: PendingEvent[];
}

/** What a rental's delinquency is after a change. */
export interface DelinquencyView {
  rentalRecordUuid: string;
  delinquencyUuid: string;
  status: RentalDelinquencyStatus;
  pausedFrom: RentalDelinquencyStatus | null;
  statusChangedOn: CalendarDate;
}

/** Everything a transition is decided from, read under the rental's lock (or, by the advancer, before it). */
export interface TransitionInput {
  rental: LockedRental;
  transition: DelinquencyTransition;
  /** The rental's auction neither canceled nor completed: canceled when the debt ends. */
  pendingAuction: AuctionRow | null;
  /** The rental's event context as read, before this transition's writes. */
  context: RentalEventContext;
  /** The state version the decision was made on (the advancer); null: the caller holds the lock and read under it. */
  stateVersion: string | null;
  options?: TransitionOptions;
}

/** What one transition writes: a row of the transition write's input. */
export interface TransitionWriteArguments {
  rentalRecordUuid: string;
  facilityUuid: string;
  delinquencyUuid: string;
  status: RentalDelinquencyStatus;
  pausedFrom: RentalDelinquencyStatus | null;
  pastDueSince: CalendarDate | null;
  day: CalendarDate;
  businessDate: CalendarDate | null;
  lastEventAt: Date;
  gate: 'SUSPEND' | 'RESTORE' | 'NONE';
  stateVersion: string | null;
  writtenOffInPennies: number;
  /** The ledger entries (late fee, write-off) as `rental_ledger_post`'s argument, a JSON array. */
  ledgerEntries: string;
  /** Auctions to insert or update, as rows of `auctions` in a JSON array. */
  auctions: string;
  topics: string[];
  keys: (string | null)[];
  types: string[];
  eventIds: string[];
  /** The envelopes, as one JSON array: no array literal to escape, element by element (as billing passes its events). */
  envelopes: string;
}

/**
 * The statement's parameters and their SQL types, in order: the transitions' input, an array per column (a
 * transition's ledger entries and auctions each a JSON array), then the events of every transition flattened in
 * order, the transition each belongs to (its 1-based place in the input) and the producing service.
 */
const PARAMETER_TYPES = {
  rentalRecordUuid: 'uuid[]',
  facilityUuid: 'uuid[]',
  delinquencyUuid: 'uuid[]',
  status: 'rental_delinquency_status[]',
  pausedFrom: 'rental_delinquency_status[]',
  pastDueSince: 'date[]',
  day: 'date[]',
  businessDate: 'date[]',
  lastEventAt: 'timestamptz[]',
  gate: 'text[]',
  stateVersion: 'text[]',
  writtenOffInPennies: 'integer[]',
  ledgerEntries: 'json[]',
  auctions: 'json[]',
  topics: 'text[]',
  keys: 'text[]',
  types: 'text[]',
  eventIds: 'text[]',
  envelopes: 'json',
  eventTransitions: 'integer[]',
  source: 'text',
} as const;

type ParameterName = keyof typeof PARAMETER_TYPES;
const PARAMETER_NAMES = Object.keys(PARAMETER_TYPES) as ParameterName[];

/** A parameter of the transition write, typed where it is used, so the statement needs no separate type list. */
function param(name: ParameterName): string {
  return `$${PARAMETER_NAMES.indexOf(name) + 1}::${PARAMETER_TYPES[name]}`;
}

/** The statement's values, in `PARAMETER_TYPES`' order. */
type TransitionWritesValues = [
  rentalRecordUuid: string[],
  facilityUuid: string[],
  delinquencyUuid: string[],
  status: RentalDelinquencyStatus[],
  pausedFrom: (RentalDelinquencyStatus | null)[],
  pastDueSince: (CalendarDate | null)[],
  day: CalendarDate[],
  businessDate: (CalendarDate | null)[],
  lastEventAt: Date[],
  gate: TransitionWriteArguments['gate'][],
  stateVersion: (string | null)[],
  writtenOffInPennies: number[],
  ledgerEntries: string[],
  auctions: string[],
  topics: string[],
  keys: (string | null)[],
  types: string[],
  eventIds: string[],
  envelopes: string,
  eventTransitions: number[],
  source: string,
];

/**
 * The statement's values for a batch of transitions, one rental each (a rental twice in one batch would have
 * its delinquency written twice by one statement, which PostgreSQL refuses). `source`: the producing service,
 * recorded on the outbox rows.
 */
export function transitionWritesValues(writes: readonly TransitionWriteArguments[], source: string): TransitionWritesValues {
  const column = <Name extends keyof TransitionWriteArguments>(name: Name): TransitionWriteArguments[Name][] => writes.map((write) => write[name]);
  return [
    column('rentalRecordUuid'),
    column('facilityUuid'),
    column('delinquencyUuid'),
    column('status'),
    column('pausedFrom'),
    column('pastDueSince'),
    column('day'),
    column('businessDate'),
    column('lastEventAt'),
    column('gate'),
    column('stateVersion'),
    column('writtenOffInPennies'),
    column('ledgerEntries'),
    column('auctions'),
    // The events flattened, the transition each belongs to, and the service.
    writes.flatMap((write) => write.topics),
    writes.flatMap((write) => write.keys),
    writes.flatMap((write) => write.types),
    writes.flatMap((write) => write.eventIds),
    `[${writes
      .map((write) => write.envelopes.slice(1, -1))
      .filter((json) => json !== '')
      .join(',')}]`,
    writes.flatMap((write, index) => write.types.map(() => index + 1)),
    source,
  ];
}

/**
 * The transition write of a batch, each rental guarded by `guard` (a condition on the input row `i`, the rental
 * `r` and its delinquency `d` of `VERSIONED_RENTAL`): writes the transitions whose guard holds, nothing of the others, and
 * answers a row per rental written. The ledger entries are posted by the ledger's own function
 * (`@storage/rental-ledger`), referenced by the final SELECT because a CTE that only reads is run only when used.
 * Outbox rows are not notified here.
 */
function transitionWritesSql(guard: string): string {
  return `
WITH input AS (
  SELECT * FROM unnest(${param('rentalRecordUuid')}, ${param('facilityUuid')}, ${param('delinquencyUuid')}, ${param('status')},
                       ${param('pausedFrom')}, ${param('pastDueSince')}, ${param('day')}, ${param('businessDate')}, ${param('lastEventAt')},
                       ${param('gate')}, ${param('stateVersion')}, ${param('writtenOffInPennies')}, ${param('ledgerEntries')}, ${param('auctions')})
    WITH ORDINALITY AS i(rental_record_uuid, facility_uuid, delinquency_uuid, status, paused_from, past_due_since, day, business_date,
                         last_event_at, gate, state_version, written_off_in_pennies, ledger_entries, auctions, ord)
), unchanged AS (
  SELECT i.* FROM input i JOIN ${VERSIONED_RENTAL} ON r.uuid = i.rental_record_uuid
   WHERE ${guard}
), ledger AS (
  ${postEntriesQuery(entriesOfRows('unchanged r'), 'EXISTS (SELECT FROM unchanged u WHERE json_array_length(u.ledger_entries) > 0)')}
), delinquency AS (
  INSERT INTO delinquencies (rental_record_uuid, facility_uuid, delinquency_uuid, status, paused_from, past_due_since,
                             status_changed_on, last_business_date, written_off_in_pennies, last_event_at)
  SELECT u.rental_record_uuid, u.facility_uuid, u.delinquency_uuid, u.status, u.paused_from, u.past_due_since, u.day, u.business_date,
         u.written_off_in_pennies, u.last_event_at
    FROM unchanged u
  ON CONFLICT (rental_record_uuid) DO UPDATE SET delinquency_uuid = EXCLUDED.delinquency_uuid, status = EXCLUDED.status,
    paused_from = EXCLUDED.paused_from, past_due_since = EXCLUDED.past_due_since, status_changed_on = EXCLUDED.status_changed_on,
    last_business_date = COALESCE(EXCLUDED.last_business_date, delinquencies.last_business_date),
    written_off_in_pennies = delinquencies.written_off_in_pennies + EXCLUDED.written_off_in_pennies,
    last_event_at = EXCLUDED.last_event_at, updated_at = now()
), auction AS (
  INSERT INTO auctions (uuid, rental_record_uuid, delinquency_uuid, facility_uuid, stage, scheduled_on, start_date, end_date,
                        canceled_on, completed_on, minimum_bid_in_pennies, winning_bid_in_pennies)
  SELECT a.uuid, a.rental_record_uuid, a.delinquency_uuid, a.facility_uuid, a.stage, a.scheduled_on, a.start_date, a.end_date,
         a.canceled_on, a.completed_on, a.minimum_bid_in_pennies, a.winning_bid_in_pennies
    FROM unchanged u, json_populate_recordset(NULL::auctions, u.auctions) a
  ON CONFLICT (uuid) DO UPDATE SET stage = EXCLUDED.stage, scheduled_on = EXCLUDED.scheduled_on,
    start_date = EXCLUDED.start_date, end_date = EXCLUDED.end_date, canceled_on = EXCLUDED.canceled_on,
    completed_on = EXCLUDED.completed_on, minimum_bid_in_pennies = EXCLUDED.minimum_bid_in_pennies,
    winning_bid_in_pennies = EXCLUDED.winning_bid_in_pennies, updated_at = now()
), suspend_gate AS (
  INSERT INTO gate_code_suspensions (rental_record_uuid, facility_uuid, suspended_on)
  SELECT u.rental_record_uuid, u.facility_uuid, u.day FROM unchanged u WHERE u.gate = 'SUSPEND'
  ON CONFLICT (rental_record_uuid) DO NOTHING
), restore_gate AS (
  DELETE FROM gate_code_suspensions g USING unchanged u WHERE g.rental_record_uuid = u.rental_record_uuid AND u.gate = 'RESTORE'
), events AS (
  ${outboxInsert(
    `(SELECT e.topic, e.key, e.type, e.event_id, e.envelope
        FROM ROWS FROM (unnest(${param('topics')}), unnest(${param('keys')}), unnest(${param('types')}), unnest(${param('eventIds')}),
                        json_array_elements(${param('envelopes')}), unnest(${param('eventTransitions')}))
             WITH ORDINALITY AS e(topic, key, type, event_id, envelope, transition, n)
       WHERE e.transition IN (SELECT u.ord FROM unchanged u) ORDER BY e.n) AS e`,
    param('source'),
  )}
)
SELECT u.rental_record_uuid::text AS uuid FROM unchanged u, (SELECT count(*) FROM ledger) AS posted`;
}

/** What the transition write answers: a row per rental written. */
export interface TransitionWritten {
  uuid: string;
}

/**
 * The business-day run's: writes a rental only if it is still at the state version its transition was decided on.
 * Its own text rather than one guard with "or no version given", so the run's hot statement keeps the plain
 * equality it was measured with. Planned for each batch, not prepared (why: business-day-advancer.ts).
 */
export const VERSIONED_TRANSITION_WRITES = sql<TransitionWritten, TransitionWritesValues>(transitionWritesSql(`${STATE_VERSION} = i.state_version`));

/** `writeTransition`'s: its caller read the rental under the lock, so there is no version to check (null). */
export const TRANSITION_WRITES = sql<TransitionWritten, TransitionWritesValues>(transitionWritesSql('i.state_version IS NULL'));

/** A decided transition: the statement's arguments and what the rental's delinquency becomes. */
export interface TransitionWrite {
  arguments: TransitionWriteArguments;
  view: DelinquencyView;
}

/**
 * Decides a transition's effects and events from the rental as read: validated by the state machine, the
 * delinquency-status-change exactly once, a pending auction canceled (announced first) when the debt ends,
 * an auction created on reaching the auction day, the late fee on a new episode, what is owed written off.
 */
export function transitionWrite(input: TransitionInput): TransitionWrite {
  const { rental, transition, options = {} } = input;
  const { state, next, day, startsEpisode, delinquencyUuid, newStatus } = planTransition(rental, transition);
  const events: PendingEvent[] = [...(options.leadingEvents ?? [])];
  const auctions: AuctionRow[] = [];
  const entries: NewLedgerEntry[] = [];

  if ((next.status === 'PAID' || next.status === 'WRITTEN_OFF') && input.pendingAuction !== null) {
    const canceled = { ...input.pendingAuction, stage: 'CANCELED' as const, canceledOn: day };
    auctions.push(canceled);
    events.push({ type: 'auction', added: { auction: auctionEventObject(canceled) } });
  }
  const lateFee = startsEpisode ? Math.max(options.lateFeeInPennies ?? 0, 0) : 0;
  if (lateFee > 0) {
    const entry = lateFeeEntry({ chargeUuid: timeOrderedUuid(), amountInPennies: lateFee, day, delinquencyUuid });
    entries.push(entry);
    events.push({
      type: 'charge-posted',
      payload: {
        rentalRecordUuid: rental.rentalRecordUuid,
        chargeUuid: entry.uuid!,
        amountInPennies: lateFee,
        description: 'Late fee',
        balanceAfterInPennies: rental.balanceInPennies + lateFee,
        dueDate: day,
      },
    });
  }
  const writeOff = transition.trigger === 'WRITE_OFF' ? writeOffEntry(rental, day) : null;
  if (writeOff !== null) entries.push(writeOff);
  events.push(statusChangeEvent(delinquencyUuid, state.status, newStatus, day, options.paymentDate ?? null));
  // Only reaching the auction day calls for an auction; resuming into AUCTION keeps the one there was.
  if (next.status === 'AUCTION' && transition.trigger === 'STAGE_ADVANCE') {
    const auction = newAuction({ ...rental, delinquencyUuid, createdOn: day });
    auctions.push(auction);
    events.push({ type: 'auction', added: { auction: auctionEventObject(auction) } });
  }
  events.push(...(options.trailingEvents ?? []));

  // The payloads show the rental as this change leaves it: its ledger entries on its balance and the tenant's.
  const posted = entries.reduce((sum, entry) => sum + entry.amountInPennies, 0);
  const { base } = input.context;
  const context: RentalEventContext = {
    ...input.context,
    base: {
      ...base,
      unitRental: { ...base.unitRental, rentalBalance: base.unitRental.rentalBalance + posted },
      tenantBalanceInPennies: base.tenantBalanceInPennies + posted,
    },
  };
  const times = eventTimes(rental.delinquency?.lastEventAt ?? null, events.length);
  const envelopes = events.map((event, index) => {
    const at = times[index];
    if (at === undefined) throw new Error('One time is needed per event');
    return envelopeOf(event, context, at);
  });
  const lastEventAt = times[times.length - 1];
  if (lastEventAt === undefined) throw new Error('A transition emits at least its status change');

  return {
    arguments: {
      rentalRecordUuid: rental.rentalRecordUuid,
      ledgerEntries: entriesJson(rental.rentalRecordUuid, entries),
      facilityUuid: rental.facilityUuid,
      delinquencyUuid,
      status: next.status,
      pausedFrom: next.pausedFrom,
      pastDueSince: pastDueSinceAfter(rental, transition, startsEpisode),
      day,
      businessDate: options.businessDate ?? null,
      lastEventAt,
      auctions: JSON.stringify(auctions.map(auctionRecord)),
      gate: gateChange(next.status),
      topics: envelopes.map((envelope) => topicFor(envelope.type)),
      keys: envelopes.map((envelope) => envelope.key),
      types: envelopes.map((envelope) => envelope.type),
      eventIds: envelopes.map((envelope) => envelope.eventId),
      envelopes: JSON.stringify(envelopes),
      stateVersion: input.stateVersion,
      writtenOffInPennies: writeOff === null ? 0 : -writeOff.amountInPennies,
    },
    view: { rentalRecordUuid: rental.rentalRecordUuid, delinquencyUuid, status: next.status, pausedFrom: next.pausedFrom, statusChangedOn: day },
  };
}

/** Overlock suspends the gate code until the debt is gone (paid or written off). */
function gateChange(status: RentalDelinquencyStatus): TransitionWriteArguments['gate'] {
  switch (status) {
    case 'OVERLOCK':
    case 'LIEN':
    case 'AUCTION':
      return 'SUSPEND';
    case 'PAID':
    case 'WRITTEN_OFF':
      return 'RESTORE';
    case 'CURRENT':
    case 'OVERDUE':
    case 'PAUSED':
      return 'NONE';
  }
}

/** What a transition makes of a rental's delinquency; the rental must be in the transition's `from`. */
function planTransition(rental: LockedRental, transition: DelinquencyTransition) {
  const state = delinquencyState(rental);
  if (state.status !== transition.from) throw new DelinquencyConflict(`Delinquency is ${state.status}, not ${transition.from}.`);
  const next = applyDelinquencyTrigger(state, transition.trigger);
  if (next.status !== transition.to) throw new Error(`${transition.trigger} leads ${state.status} to ${next.status}, not ${transition.to}`);
  const startsEpisode = next.status === 'OVERDUE' && stageRank(state.status) === 0;
  const newStatus = toEventStatus(next.status);
  if (newStatus === null) throw new Error('No transition leads back to not delinquent');
  return {
    state,
    next,
    day: transition.effectiveDate,
    startsEpisode,
    delinquencyUuid: startsEpisode || rental.delinquency === null ? randomUUID() : rental.delinquency.delinquencyUuid,
    newStatus,
  };
}

/** The `delinquency-status-change` event of one transition (spec 6.3); paymentDate only when a payment caused it. */
function statusChangeEvent(
  delinquencyUuid: string,
  from: RentalDelinquencyStatus,
  to: DelinquencyStatusChange['delinquencyNewStatus'],
  day: CalendarDate,
  paymentDate: CalendarDate | null,
): PendingEvent {
  return {
    type: 'delinquency-status-change',
    added: {
      delinquencyStatusChange: {
        delinquencyUuid,
        delinquencyPreviousStatus: toEventStatus(from),
        delinquencyNewStatus: to,
        delinquencyStatusChangeDate: day,
        paymentDate,
      },
    },
  };
}

/** Days past due count from the episode's due date; paused days do not count, so RESUME moves it on by them. */
function pastDueSinceAfter(rental: LockedRental, transition: DelinquencyTransition, startsEpisode: boolean): CalendarDate | null {
  // An episode counts from the oldest open charge when it starts; a payment later does not restart the count.
  if (startsEpisode) return rental.oldestOpenDueOn ?? rental.facilityToday;
  if (transition.to === 'PAID') return null;
  const current = rental.delinquency?.pastDueSince ?? null;
  const pausedOn = rental.delinquency?.statusChangedOn ?? null;
  if (transition.trigger === 'RESUME' && pausedOn !== null) {
    const pausedDays = Math.max(daysBetween(pausedOn, transition.effectiveDate), 0);
    return addDays(current ?? rental.oldestOpenDueOn ?? rental.facilityToday, pausedDays);
  }
  return current;
}

/** An auction as a row of the `auctions` table (for jsonb_populate_recordset). */
function auctionRecord(auction: AuctionRow): Record<string, unknown> {
  return {
    uuid: auction.uuid,
    rental_record_uuid: auction.rentalRecordUuid,
    delinquency_uuid: auction.delinquencyUuid,
    facility_uuid: auction.facilityUuid,
    stage: auction.stage,
    scheduled_on: auction.scheduledOn,
    start_date: auction.startDate,
    end_date: auction.endDate,
    canceled_on: auction.canceledOn,
    completed_on: auction.completedOn,
    minimum_bid_in_pennies: auction.minimumBidInPennies,
    winning_bid_in_pennies: auction.winningBidInPennies,
  };
}
