import type { DataSource, EntityManager } from 'typeorm';
import { WEBHOOK_TEST_UUID } from '@storage/domain';
import { Pool, type ClientBase, type PoolClient } from 'pg';
import { bind, pgConnection, query, sql, transactionInOneRoundTrip } from '@storage/persistence';
import { disableEndpoints, endFailureRuns, endingFailureRuns, startFailureRuns } from '@storage/webhooks';
import type { DeliveryResponse } from './delivery-client';
import type { MessageStatus } from './webhook-message.entity';

/** A due message taken for one attempt, with what is needed to sign and send it. */
export interface ClaimedMessage {
  id: string;
  endpointId: string;
  eventType: string;
  body: string;
  attempts: number;
  url: string;
  /** As stored: sealed (opened only to sign), or a bare `whsec_` value not yet sealed. */
  storedSecret: string;
  storedPreviousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  /** The endpoint's limit of deliveries in flight at once (across replicas) when claimed: `IN_FLIGHT_LIMIT`. */
  maxInFlight: number;
  /** A later message of the same rental to the same endpoint waits for this one: record it without delay. */
  holdsOthers: boolean;
}

export interface AttemptRecord {
  message: ClaimedMessage;
  attemptedAt: Date;
  response: DeliveryResponse;
  /** The message's state after this attempt; `gone` also disables its endpoint (410). */
  outcome: 'succeeded' | 'retry' | 'failed' | 'gone';
  nextAttemptAt: Date | null;
}

const ENDPOINT_DISABLED_GONE = 'the receiver answered 410 Gone';
const ENDPOINT_DISABLED_FAILING = 'every delivery failed for 5 days';

/** A claimed message as the claims answer it: the message's columns and its endpoint's (`e`). */
export interface ClaimedRow {
  id: string;
  endpoint_id: string;
  event_type: string;
  body: string;
  attempts: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  max_in_flight: number;
  holds_others: boolean;
}

/**
 * The body to sign and send: the stored one, or, for a body stored before the delivery body had `test` (it then
 * ends with the `]}` of `{"data":[payload]}`; now it ends with `"test":…}`), that body with `"test"` added last:
 * true only for operation 19's messages, known by their event id on the all-zero rental.
 */
const BODY_TO_SEND = `CASE WHEN right(m.body, 2) = ']}'
       THEN left(m.body, -1) || ',"test":' || (m.event_id LIKE '${WEBHOOK_TEST_UUID}-%')::text || '}'
       ELSE m.body END`;

/**
 * Whether message `p` holds a message of endpoint `e` back, `now` being the time: an earlier message of the same rental to
 * the same endpoint that is in flight or due (so without failures they go one at a time, in order), or, when the
 * endpoint asks for strict order, that waits for a retry. The held message is stored (`holdsBack`: `m`) or being created
 * by fan-out (`holdsBackNew`: event `i` to endpoint `e`, the latest of its rental, so every stored one is earlier).
 */
const holdsMessage = (endpointId: string, orderingKey: string, earlier: string, now: string): string =>
  `p.endpoint_id = ${endpointId} AND p.ordering_key = ${orderingKey} AND p.status = 'pending'${earlier} AND (e.ordered_delivery OR p.claimed OR p.next_attempt_at <= ${now})`;
export const holdsBack = (now: string): string => holdsMessage('m.endpoint_id', 'm.ordering_key', ' AND p.emission_order < m.emission_order', now);
export const holdsBackNew = (now: string): string => holdsMessage('e.id', 'i.ordering_key', '', now);

/** Whether message `m` may be sent now (`$1`) as far as its rental's order goes. Messages without a rental are never held. */
export const NOT_HELD = `(m.ordering_key IS NULL OR NOT EXISTS (SELECT 1 FROM webhook_messages p WHERE ${holdsBack('$1')}))`;

/** Message `n` is a later message of message `m`'s rental to the same endpoint, waiting to be sent. */
const WAITS_FOR_M = `n.endpoint_id = m.endpoint_id AND n.ordering_key = m.ordering_key AND n.status = 'pending' AND n.emission_order > m.emission_order`;

/** Whether a later message of message `m`'s rental waits to be sent to its endpoint. */
export const HOLDS_OTHERS = `(m.ordering_key IS NOT NULL AND EXISTS (SELECT 1 FROM webhook_messages n WHERE ${WAITS_FOR_M}))`;

/**
 * Endpoint `e`'s limit of deliveries in flight now, across replicas: its `max_in_flight`, or one while its failure run
 * lasts (a probe, until an attempt succeeds and ends the run). A receiver that stopped answering then holds one slot and
 * costs one connection per timeout, not `max_in_flight` of each: a wave of them timing out and reconnecting at once
 * held up every other endpoint's deliveries (issue 36).
 */
export const IN_FLIGHT_LIMIT = `CASE WHEN e.failing_since IS NULL THEN e.max_in_flight ELSE 1 END`;

/**
 * The live leases of endpoint `e`'s messages at `$1`: its deliveries in flight, whichever replica holds them, but for
 * the attempts this replica finished and has not recorded yet (`$4`).
 */
const LEASED = `(SELECT count(*) FROM webhook_messages f
       WHERE f.endpoint_id = e.id AND f.status = 'pending' AND f.claimed AND f.next_attempt_at > $1 AND f.id <> ALL($4::text[]))`;

/**
 * The endpoints with a message that may go now and room for it (the earliest due first, at most `$3`: no claim takes
 * more), then, endpoint by endpoint in the order of their ids (that of their locks), the earliest such messages, as many
 * as `webhook_endpoint_room` leaves (the endpoint's limit across replicas, see migration EndpointRoomAcrossReplicas);
 * then a turn each across endpoints (a
 * busy endpoint's backlog does not go before another's first message), up to `$3`. An endpoint at its limit costs no
 * scan of its backlog. A listen session's messages go only to the replica holding its stream (`$5`), and wait while
 * none does.
 */
const CLAIM_DUE = sql<ClaimedRow, [Date, Date, number, string[], string]>(
  `WITH ready AS (
     SELECT e.id, e.ordered_delivery, ${IN_FLIGHT_LIMIT} AS in_flight_limit
     FROM webhook_endpoints e
     CROSS JOIN LATERAL (
       SELECT m.next_attempt_at FROM webhook_messages m
       WHERE m.endpoint_id = e.id AND m.status = 'pending' AND m.next_attempt_at <= $1 AND ${NOT_HELD}
       ORDER BY m.next_attempt_at LIMIT 1) first
     WHERE e.disabled_at IS NULL AND (e.listen_api_key IS NULL OR e.listener = $5) AND ${IN_FLIGHT_LIMIT} > ${LEASED}
     ORDER BY first.next_attempt_at LIMIT $3),
   candidate AS (
     SELECT c.id, c.next_attempt_at, row_number() OVER (PARTITION BY e.id ORDER BY c.next_attempt_at) AS turn
     FROM (SELECT * FROM ready ORDER BY id) e
     CROSS JOIN LATERAL (
       SELECT m.id, m.next_attempt_at FROM webhook_messages m
       WHERE m.endpoint_id = e.id AND m.status = 'pending' AND m.next_attempt_at <= $1 AND ${NOT_HELD}
       ORDER BY m.next_attempt_at
       LIMIT webhook_endpoint_room(e.id, e.in_flight_limit, $1, $4)
       FOR UPDATE OF m SKIP LOCKED) c),
   due AS (SELECT id FROM candidate ORDER BY turn, next_attempt_at LIMIT $3)
   UPDATE webhook_messages m SET next_attempt_at = $2, claimed = true
   FROM due, webhook_endpoints e
   WHERE m.id = due.id AND e.id = m.endpoint_id
   RETURNING m.id, m.endpoint_id, m.event_type, ${BODY_TO_SEND} AS body, m.attempts, e.url, e.secret, e.previous_secret, e.previous_secret_expires_at,
     ${IN_FLIGHT_LIMIT} AS max_in_flight, ${HOLDS_OTHERS} AS holds_others`,
  { prepared: 'webhook_claim_due' },
);

/** After `$1`: what is due already is claimed or held, and a held message is claimed when what holds it is recorded. */
const NEXT_DUE = sql<{ due: Date | null }, [Date]>(
  `SELECT min(next_attempt_at) AS due FROM webhook_messages WHERE status = 'pending' AND next_attempt_at > $1`,
);

const MOVE_MESSAGES_ON = sql<never, [string[], MessageStatus[], Date[], (Date | null)[]]>(
  `UPDATE webhook_messages m
   SET status = u.status, attempts = m.attempts + 1, last_attempt_at = u.attempted_at, next_attempt_at = u.next_attempt_at, claimed = false
   FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::timestamptz[]) AS u(id, status, attempted_at, next_attempt_at)
   WHERE m.id = ANY($1::text[]) AND m.id = u.id`,
);

/**
 * Whether a message of the batch `$1` (ids) held a later one of its rental, which may go now. Each message and then its
 * later one are looked up one by one (a LATERAL with LIMIT is not flattened into a join, so each is an index lookup
 * whatever the statistics say): as a join, the generic plan a session made while the table was young read the whole
 * table for every record once a backlog had grown (issue 36).
 */
const RELEASED = sql<{ released: boolean }, [string[]]>(
  `SELECT EXISTS (
     SELECT 1 FROM unnest($1::text[]) AS recorded(id)
     CROSS JOIN LATERAL (SELECT * FROM webhook_messages m WHERE m.id = recorded.id AND m.ordering_key IS NOT NULL LIMIT 1) m
     CROSS JOIN LATERAL (SELECT 1 FROM webhook_messages n WHERE ${WAITS_FOR_M} LIMIT 1) later) AS released`,
  { prepared: 'webhook_released' },
);

const DUE_NOW = sql<never, [string, Date]>(
  `UPDATE webhook_messages SET next_attempt_at = $2 WHERE endpoint_id = $1 AND status = 'pending' AND NOT claimed AND next_attempt_at > $2`,
);

const FAIL_PENDING_OF_ENDPOINTS = sql<never, [string[]]>(
  `UPDATE webhook_messages SET status = 'failed', next_attempt_at = NULL WHERE endpoint_id = ANY($1::uuid[]) AND status = 'pending'`,
);

/** A claimed message's row as the engine takes it (the claims', and the messages fan-out creates claimed). */
export const claimedMessage = (row: ClaimedRow): ClaimedMessage => ({
  id: row.id,
  endpointId: row.endpoint_id,
  eventType: row.event_type,
  body: row.body,
  attempts: row.attempts,
  url: row.url,
  storedSecret: row.secret,
  storedPreviousSecret: row.previous_secret,
  previousSecretExpiresAt: row.previous_secret_expires_at,
  maxInFlight: row.max_in_flight,
  holdsOthers: row.holds_others,
});

/** The delivery queue in PostgreSQL: claims with SKIP LOCKED so replicas share it, records attempts in batches. */
export class MessageStore {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Takes up to `limit` due messages of enabled endpoints (`settled`: the caller's finished attempts not yet recorded,
   * whose leases hold no slot). Their due time moves to `leaseUntil`, so a message
   * whose worker dies mid-delivery comes back (same id, so the same hook-id) once the lease runs out.
   */
  async claimDue(now: Date, leaseUntil: Date, limit: number, settled: string[], replica: string): Promise<ClaimedMessage[]> {
    const rows = await query(this.dataSource, CLAIM_DUE, [now, leaseUntil, limit, settled, replica]);
    return rows.map(claimedMessage);
  }

  /** The endpoint's messages waiting for a retry are due at `now` (a listen session resumed: its listener is back). */
  async dueNow(endpointId: string, now: Date): Promise<void> {
    await query(this.dataSource, DUE_NOW, [endpointId, now]);
  }

  /** When the earliest pending message is due after `now` (retries, leases of a dead worker), or null when none is. */
  async nextDue(now: Date): Promise<Date | null> {
    const [row] = await query(this.dataSource, NEXT_DUE, [now]);
    return row.due;
  }

  /**
   * Writes a batch of attempts, moves their messages on, and keeps each endpoint's failure run and disabling.
   * Answers whether the record lets a claim find more: it ended an endpoint's failure run (its whole limit is back), or
   * a message of the batch held a later one of its rental. The latter is asked once the record is committed: a fan-out
   * that ran beside it and created the later message held either committed before the question (and is seen) or
   * started after the record (and found it free), or wakes a claim that does.
   */
  async record(batch: readonly AttemptRecord[], now: Date, failingCutoff: Date): Promise<boolean> {
    if (batch.length === 0) return false;
    if (batch.every((r) => r.outcome === 'succeeded')) return recordSucceededThenReleased(this.dataSource, batch);
    const recovered = await this.write(batch, now, failingCutoff);
    const [{ released }] = await query(this.dataSource, RELEASED, [batch.map((r) => r.message.id)]);
    return recovered || released;
  }

  /** A batch with a failed attempt: answers whether an endpoint's failure run ended. */
  private async write(batch: readonly AttemptRecord[], now: Date, failingCutoff: Date): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      await insertAttempts(manager, batch);
      await query(manager, MOVE_MESSAGES_ON, [
        batch.map((r) => r.message.id),
        batch.map((r): MessageStatus => (r.outcome === 'retry' ? 'pending' : r.outcome === 'gone' ? 'failed' : r.outcome)),
        batch.map((r) => r.attemptedAt),
        batch.map((r) => r.nextAttemptAt),
      ]);
      const failed = batch.filter((r) => r.outcome !== 'succeeded');
      const succeeded = batch.filter((r) => r.outcome === 'succeeded');
      await startFailureRuns(
        manager,
        failed.map((r) => ({ endpointId: r.message.endpointId, attemptedAt: r.attemptedAt })),
      );
      const recovered = await endFailureRuns(
        manager,
        succeeded.map((r) => r.message.endpointId),
      );
      const disabled = await disableEndpoints(manager, {
        at: now,
        gone: batch.filter((r) => r.outcome === 'gone').map((r) => r.message.endpointId),
        goneReason: ENDPOINT_DISABLED_GONE,
        failed: failed.map((r) => r.message.endpointId),
        failingCutoff,
        failingReason: ENDPOINT_DISABLED_FAILING,
      });
      if (disabled.length > 0) {
        await query(manager, FAIL_PENDING_OF_ENDPOINTS, [disabled]);
      }
      return recovered;
    });
  }
}

/** The attempts as a FROM item `a` over parameters $1 to $9 (`AttemptValues`). */
const ATTEMPTS = `unnest($1::text[], $2::uuid[], $3::timestamptz[], $4::boolean[], $5::integer[], $6::text[], $7::integer[], $8::text[], $9::timestamptz[])
  AS a(message_id, endpoint_id, attempted_at, succeeded, status_code, error, latency_ms, response_body, next_attempt_at)`;

/**
 * The usual batch, every attempt a success, in one statement (atomic on its own, one round trip): the attempts,
 * their messages succeeded, their endpoints' failure runs ended. No endpoint can be disabled by a success.
 * Rows are found by `= ANY(the ids)`: joined to the unnest alone, the generic plan (which guesses 100 attempts)
 * scanned all of webhook_messages for each batch of a few.
 */
const RECORD_SUCCEEDED = sql<{ recovered: boolean }, AttemptValues>(
  `WITH a AS (SELECT * FROM ${ATTEMPTS}),
     attempts AS (
       INSERT INTO webhook_attempts (message_id, endpoint_id, attempted_at, succeeded, status_code, error, latency_ms, response_body, next_attempt_at)
       SELECT * FROM a),
     messages AS (
       UPDATE webhook_messages m SET status = 'succeeded', attempts = m.attempts + 1, last_attempt_at = a.attempted_at, next_attempt_at = NULL, claimed = false
       FROM a WHERE m.id = ANY($1::text[]) AND m.id = a.message_id),
     recovered AS (
       ${endingFailureRuns('$2::uuid[]')})
     SELECT EXISTS (SELECT 1 FROM recovered) AS recovered`,
  { prepared: 'webhook_record_succeeded' },
);

const BEGIN = sql('BEGIN');
const COMMIT = sql('COMMIT');
const ROLLBACK = sql('ROLLBACK');

/**
 * The usual batch recorded (`RECORD_SUCCEEDED`), committed, and then `RELEASED` asked, in one round trip: the COMMIT
 * ends the transaction as it runs, so the question has a snapshot of its own taken after it, as a query of its own
 * would. Answers whether an endpoint's failure run ended or a message of the batch held a later one.
 */
async function recordSucceededThenReleased(dataSource: DataSource, batch: readonly AttemptRecord[]): Promise<boolean> {
  const connection = await pgConnection(dataSource);
  const client: ClientBase = connection instanceof Pool ? await connection.connect() : connection;
  let broken: Error | undefined;
  try {
    const [, [{ recovered }], , [{ released }]] = await transactionInOneRoundTrip(client, [
      bind(BEGIN, []),
      bind(RECORD_SUCCEEDED, attemptValues(batch)),
      bind(COMMIT, []),
      bind(RELEASED, [batch.map((r) => r.message.id)]),
    ]);
    return recovered || released;
  } catch (error) {
    // A failed record leaves its transaction open, aborted, past the Sync: ended before the connection is used again.
    await query(client, ROLLBACK).catch((rollback: unknown) => (broken = rollback as Error));
    throw error;
  } finally {
    // Back to the pool, or destroyed when even the ROLLBACK failed.
    if (client !== connection) (client as PoolClient).release(broken);
  }
}

const INSERT_ATTEMPTS = sql<never, AttemptValues>(
  `INSERT INTO webhook_attempts (message_id, endpoint_id, attempted_at, succeeded, status_code, error, latency_ms, response_body, next_attempt_at)
   SELECT * FROM ${ATTEMPTS}`,
);

async function insertAttempts(manager: EntityManager, batch: readonly AttemptRecord[]): Promise<void> {
  await query(manager, INSERT_ATTEMPTS, attemptValues(batch));
}

/** The attempts, an array per column. */
type AttemptValues = [
  messageIds: string[],
  endpointIds: string[],
  attemptedAt: Date[],
  succeeded: boolean[],
  statusCodes: (number | null)[],
  errors: (string | null)[],
  latenciesMs: number[],
  responseBodies: (string | null)[],
  nextAttemptsAt: (Date | null)[],
];

function attemptValues(batch: readonly AttemptRecord[]): AttemptValues {
  return [
    batch.map((r) => r.message.id),
    batch.map((r) => r.message.endpointId),
    batch.map((r) => r.attemptedAt),
    batch.map((r) => r.outcome === 'succeeded'),
    batch.map((r) => (r.response.kind === 'response' ? r.response.statusCode : null)),
    batch.map((r) => (r.response.kind === 'error' ? r.response.error : null)),
    batch.map((r) => r.response.latencyMs),
    batch.map((r) => (r.response.kind === 'response' ? stripNul(r.response.body) : null)),
    batch.map((r) => r.nextAttemptAt),
  ];
}

/** PostgreSQL text cannot hold NUL; a receiver's binary answer must not lose the attempt. */
const stripNul = (text: string): string => text.replace(/\0/g, '');
