import type { DataSource, EntityManager } from 'typeorm';
import { WEBHOOK_TEST_UUID } from '@storage/domain';
import { query, sql } from '@storage/persistence';
import { disableEndpoints, endFailureRuns, endFailureRunsSql, startFailureRuns } from '@storage/webhooks';
import type { DeliveryResponse } from './delivery-client';
import type { MessageStatus } from './webhook-message.entity';

/** A due message taken for one attempt, with what is needed to sign and send it. */
export interface ClaimedMessage {
  id: string;
  endpointId: string;
  body: string;
  attempts: number;
  url: string;
  /** As stored: sealed (opened only to sign), or a bare `whsec_` value not yet sealed. */
  storedSecret: string;
  storedPreviousSecret: string | null;
  previousSecretExpiresAt: Date | null;
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

interface ClaimedRow {
  id: string;
  endpoint_id: string;
  body: string;
  attempts: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
}

/**
 * The body to sign and send: the stored one, or, for a body stored before the delivery body had `test` (it then
 * ends with the `]}` of `{"data":[payload]}`; now it ends with `"test":…}`), that body with `"test"` added last:
 * true only for operation 19's messages, known by their event id on the all-zero rental.
 */
const BODY_TO_SEND = `CASE WHEN right(m.body, 2) = ']}'
       THEN left(m.body, -1) || ',"test":' || (m.event_id LIKE '${WEBHOOK_TEST_UUID}-%')::text || '}'
       ELSE m.body END`;

const CLAIM_DUE = sql<ClaimedRow, [Date, Date, number]>(
  `WITH due AS (
     SELECT m.id FROM webhook_messages m
     JOIN webhook_endpoints e ON e.id = m.endpoint_id AND e.disabled_at IS NULL
     WHERE m.status = 'pending' AND m.next_attempt_at <= $1
     ORDER BY m.next_attempt_at
     LIMIT $3
     FOR UPDATE OF m SKIP LOCKED
   )
   UPDATE webhook_messages m SET next_attempt_at = $2
   FROM due, webhook_endpoints e
   WHERE m.id = due.id AND e.id = m.endpoint_id
   RETURNING m.id, m.endpoint_id, ${BODY_TO_SEND} AS body, m.attempts, e.url, e.secret, e.previous_secret, e.previous_secret_expires_at`,
  { prepared: 'webhook_claim_due' },
);

const NEXT_DUE = sql<{ due: Date | null }>(`SELECT min(next_attempt_at) AS due FROM webhook_messages WHERE status = 'pending'`);

const MOVE_MESSAGES_ON = sql<never, [string[], MessageStatus[], Date[], (Date | null)[]]>(
  `UPDATE webhook_messages m
   SET status = u.status, attempts = m.attempts + 1, last_attempt_at = u.attempted_at, next_attempt_at = u.next_attempt_at
   FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::timestamptz[]) AS u(id, status, attempted_at, next_attempt_at)
   WHERE m.id = ANY($1::text[]) AND m.id = u.id`,
);

const FAIL_PENDING_OF_ENDPOINTS = sql<never, [string[]]>(
  `UPDATE webhook_messages SET status = 'failed', next_attempt_at = NULL WHERE endpoint_id = ANY($1::uuid[]) AND status = 'pending'`,
);

/** The delivery queue in PostgreSQL: claims with SKIP LOCKED so replicas share it, records attempts in batches. */
export class MessageStore {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Takes up to `limit` due messages of enabled endpoints. Their due time moves to `leaseUntil`, so a message
   * whose worker dies mid-delivery comes back (same id, so the same hook-id) once the lease runs out.
   */
  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedMessage[]> {
    const rows = await query(this.dataSource, CLAIM_DUE, [now, leaseUntil, limit]);
    return rows.map((row) => ({
      id: row.id,
      endpointId: row.endpoint_id,
      body: row.body,
      attempts: row.attempts,
      url: row.url,
      storedSecret: row.secret,
      storedPreviousSecret: row.previous_secret,
      previousSecretExpiresAt: row.previous_secret_expires_at,
    }));
  }

  /** When the earliest pending message is due (retries, leases of a dead worker), or null when none is. */
  async nextDue(): Promise<Date | null> {
    const [row] = await query(this.dataSource, NEXT_DUE);
    return row.due;
  }

  /** Writes a batch of attempts, moves their messages on, and keeps each endpoint's failure run and disabling. */
  async record(batch: readonly AttemptRecord[], now: Date, failingCutoff: Date): Promise<void> {
    if (batch.length === 0) return;
    if (batch.every((r) => r.outcome === 'succeeded')) return recordSucceeded(this.dataSource, batch);
    await this.dataSource.transaction(async (manager) => {
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
      await endFailureRuns(
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
    });
  }
}

/** The attempts as a FROM item `a` over parameters $1 to $9 (`attemptParams`). */
const ATTEMPTS = `unnest($1::text[], $2::uuid[], $3::timestamptz[], $4::boolean[], $5::integer[], $6::text[], $7::integer[], $8::text[], $9::timestamptz[])
  AS a(message_id, endpoint_id, attempted_at, succeeded, status_code, error, latency_ms, response_body, next_attempt_at)`;

/**
 * The usual batch, every attempt a success, in one statement (atomic on its own, one round trip): the attempts,
 * their messages succeeded, their endpoints' failure runs ended. No endpoint can be disabled by a success.
 * Rows are found by `= ANY(the ids)`: joined to the unnest alone, the generic plan (which guesses 100 attempts)
 * scanned all of webhook_messages for each batch of a few.
 */
const RECORD_SUCCEEDED = sql<unknown>(
  `WITH a AS (SELECT * FROM ${ATTEMPTS}),
     attempts AS (
       INSERT INTO webhook_attempts (message_id, endpoint_id, attempted_at, succeeded, status_code, error, latency_ms, response_body, next_attempt_at)
       SELECT * FROM a),
     messages AS (
       UPDATE webhook_messages m SET status = 'succeeded', attempts = m.attempts + 1, last_attempt_at = a.attempted_at, next_attempt_at = NULL
       FROM a WHERE m.id = ANY($1::text[]) AND m.id = a.message_id),
     recovered AS (
       ${endFailureRunsSql('$2::uuid[]')})
     SELECT 1`,
  { prepared: 'webhook_record_succeeded' },
);

async function recordSucceeded(dataSource: DataSource, batch: readonly AttemptRecord[]): Promise<void> {
  await query(dataSource, RECORD_SUCCEEDED, attemptParams(batch));
}

const INSERT_ATTEMPTS = sql<never>(
  `INSERT INTO webhook_attempts (message_id, endpoint_id, attempted_at, succeeded, status_code, error, latency_ms, response_body, next_attempt_at)
   SELECT * FROM ${ATTEMPTS}`,
);

async function insertAttempts(manager: EntityManager, batch: readonly AttemptRecord[]): Promise<void> {
  await query(manager, INSERT_ATTEMPTS, attemptParams(batch));
}

function attemptParams(batch: readonly AttemptRecord[]): unknown[] {
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
