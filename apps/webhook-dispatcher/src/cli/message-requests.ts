import type { DataSource } from 'typeorm';
import { createEnvelope, type EventEnvelope } from '@storage/domain';
import { OutboxPublisher } from '@storage/messaging';
import { query, sql, type Queryable } from '@storage/persistence';

/** The service name the CLI's command rows carry in the outbox. */
export const CLI_SOURCE = 'webhook-dispatcher-cli';

export interface MessageFacts {
  id: string;
  portfolio: string;
  endpointId: string;
  eventType: string;
  status: string;
  attempts: number;
  endpointDisabled: boolean;
}

const MESSAGE = sql<MessageFacts, [string]>(
  `SELECT m.id, m.portfolio, m.endpoint_id AS "endpointId", m.event_type AS "eventType", m.status, m.attempts,
          e.disabled_at IS NOT NULL AS "endpointDisabled"
     FROM webhook_messages m JOIN webhook_endpoints e ON e.id = m.endpoint_id
    WHERE m.id = $1`,
);

export interface EndpointFacts {
  id: string;
  portfolio: string;
  url: string;
  disabled: boolean;
  failedSince: number;
}

const ENDPOINT = sql<EndpointFacts, [string, Date]>(
  `SELECT e.id, e.portfolio, e.url, e.disabled_at IS NOT NULL AS disabled,
          (SELECT count(*)::int FROM webhook_messages m WHERE m.endpoint_id = e.id AND m.status = 'failed' AND m.created_at >= $2) AS "failedSince"
     FROM webhook_endpoints e WHERE e.id = $1`,
);

const APPLIED = sql<{ applied: boolean }, [string, string]>(
  `SELECT EXISTS (SELECT 1 FROM processed_events WHERE consumer_group = $1 AND event_id = $2) AS applied`,
);

const ATTEMPTS_SINCE = sql<{ attemptedAt: Date; succeeded: boolean; statusCode: number | null; error: string | null; latencyMs: number }, [string, Date]>(
  `SELECT attempted_at AS "attemptedAt", succeeded, status_code AS "statusCode", error, latency_ms AS "latencyMs"
     FROM webhook_attempts WHERE message_id = $1 AND attempted_at >= $2 ORDER BY attempted_at, id`,
);

export const messageFacts = async (db: Queryable, id: string): Promise<MessageFacts | undefined> => (await query(db, MESSAGE, [id]))[0];

export const endpointFacts = async (db: Queryable, id: string, since: Date): Promise<EndpointFacts | undefined> => (await query(db, ENDPOINT, [id, since]))[0];

/** Whether the dispatcher's consumer group has applied the command (its processed-event mark). */
export const commandApplied = async (db: Queryable, group: string, eventId: string): Promise<boolean> =>
  (await query(db, APPLIED, [group, eventId]))[0].applied;

export const attemptsSince = (db: Queryable, messageId: string, since: Date) => query(db, ATTEMPTS_SINCE, [messageId, since]);

/**
 * Asks the dispatcher to resend a message or recover an endpoint's failed messages: the command the events
 * controller consumes from storage.webhook-commands.v1 and applies with `message-actions` (what the portal runs),
 * once, waking its delivery engine. Written through the outbox, so a running dispatcher applies it at once and a
 * stopped one when it starts.
 */
export async function requestCommand(
  dataSource: DataSource,
  command: { type: 'webhook-resend'; portfolio: string; messageId: string } | { type: 'webhook-recover'; portfolio: string; endpointId: string; since: Date },
): Promise<EventEnvelope> {
  const envelope =
    command.type === 'webhook-resend'
      ? createEnvelope({ type: 'webhook-resend', payload: { messageId: command.messageId }, occurredAt: new Date(), portfolio: command.portfolio })
      : createEnvelope({
          type: 'webhook-recover',
          payload: { endpointId: command.endpointId, since: command.since.toISOString() },
          occurredAt: new Date(),
          portfolio: command.portfolio,
        });
  const outbox = new OutboxPublisher(CLI_SOURCE);
  await dataSource.transaction((manager) => outbox.publish(manager, envelope));
  return envelope;
}
