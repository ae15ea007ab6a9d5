import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { topicFor, type EventEnvelope } from '@storage/domain';
import { fragment, query, sql, type SqlFragment } from '@storage/persistence';
import { OUTBOX_CHANNEL } from './embedded/log-follower';

/** The producing service's name, recorded on its outbox rows so its relay publishes them. */
export const MESSAGING_SERVICE = Symbol('MESSAGING_SERVICE');

/**
 * An INSERT of outbox rows, for writers that batch their events into statements of their own (a fragment of the
 * caller's statement, whose `Values` type its parameters). `events` is the caller's FROM item aliased `e` with the
 * columns topic, key, type, event_id and envelope (json), in the order to publish; `source` the caller's expression
 * (a bound parameter) for the producing service. It notifies nobody: a writer of a few rows ends it with
 * OUTBOX_RETURNING and announces them with `outboxAnnouncements`; a bulk writer sends `pg_notify(OUTBOX_CHANNEL, '')`
 * once (the log is also polled).
 *
 * The transaction id is taken (pg_current_xact_id, in a subquery that runs first) before the outbox ids, which the
 * column's default takes as each row is inserted, in the order of `events`; the embedded LogReader relies on it to
 * tell a late commit from a rollback.
 */
export function outboxInsert(events: string, source: string): SqlFragment {
  return fragment(`INSERT INTO outbox (topic, key, type, event_id, source, envelope)
  SELECT e.topic, e.key, e.type, e.event_id, ${source}, e.envelope
    FROM (SELECT pg_current_xact_id() AS xid OFFSET 0) AS tx, ${events}
   WHERE tx.xid IS NOT NULL`);
}

/**
 * A batch's events as the outbox's columns, one array each (each envelope as JSON text, a `json[]` parameter), for a
 * statement that unnests them beside its own rows: spread into its values, in this order.
 */
export type OutboxValues = [topics: string[], keys: (string | null)[], types: string[], eventIds: string[], envelopes: string[]];

/** The outbox columns of events, in order. */
export function outboxValues(envelopes: readonly EventEnvelope[]): OutboxValues {
  return [
    envelopes.map((envelope) => topicFor(envelope.type)),
    envelopes.map((envelope) => envelope.key),
    envelopes.map((envelope) => envelope.type),
    envelopes.map((envelope) => envelope.eventId),
    envelopes.map((envelope) => JSON.stringify(envelope)),
  ];
}

/** What an outbox INSERT (`outboxInsert`) returns for `outboxAnnouncements`. */
export const OUTBOX_RETURNING = fragment('RETURNING id, topic, key, type, event_id, source, envelope, created_at');

/**
 * A scalar subquery (the number of rows notified) that notifies, at commit, what the CTE `entry` (an `outboxInsert`
 * ending in OUTBOX_RETURNING) wrote, on each topic's channel (`topicChannel`), so only the followers of that topic wake.
 * A statement that wrote one row sends the row as payload (`AnnouncedRecords`): the follower whose next row it is need
 * not read the log, which at a low rate, where every write is a statement of its own, saves a round trip per event. A
 * statement that wrote several rows (a batch of concurrent writes) notifies each of its topics once, without payload:
 * one read of the log takes the batch, where a payload a row would cost more than that read (about 30 % of the api's
 * rent changes a second at saturation). A rolled-back write wakes nobody. A row too large for a payload (8000 bytes) is
 * notified without it.
 */
export function outboxAnnouncements(entry: string): SqlFragment {
  return fragment(`(SELECT count(pg_notify('${OUTBOX_CHANNEL}:' || a.topic, CASE WHEN octet_length(a.payload) < 8000 THEN a.payload ELSE '' END))
     FROM (SELECT topic,
                  CASE WHEN count(*) OVER () = 1
                       THEN json_build_object('position', id::text, 'topic', topic, 'key', key, 'type', type, 'eventId', event_id,
                                              'source', source, 'createdAt', created_at, 'envelope', envelope)::text
                       ELSE '' END AS payload
             FROM ${entry}) AS a)`);
}

/** One event, announced at commit (`outboxAnnouncements`). */
const INSERT_AND_NOTIFY = sql<{ announced: number }, [string, string | null, string, string, string, string]>(
  `
WITH entry AS (
  ${outboxInsert('(VALUES ($1::text, $2, $3, $4, $6::json)) AS e(topic, key, type, event_id, envelope)', '$5')}
  ${OUTBOX_RETURNING})
SELECT ${outboxAnnouncements('entry')}::int AS announced`,
  // Prepared: every lifecycle write runs it, and planning the statement anew cost PostgreSQL about as much as running it.
  { prepared: 'outbox_insert_and_notify' },
);

@Injectable()
export class OutboxPublisher {
  /** @param service the producing service, recorded on its outbox rows (writers of their own outbox statements record it too) */
  constructor(@Inject(MESSAGING_SERVICE) readonly service: string) {}

  /** Writes the event in the caller's transaction: it exists exactly when the state change commits. */
  async publish(manager: EntityManager, envelope: EventEnvelope): Promise<void> {
    if (!manager.queryRunner?.isTransactionActive) {
      throw new Error('OutboxPublisher.publish needs the EntityManager of the transaction that changes the state');
    }
    await query(manager, INSERT_AND_NOTIFY, [topicFor(envelope.type), envelope.key, envelope.type, envelope.eventId, this.service, JSON.stringify(envelope)]);
  }
}
