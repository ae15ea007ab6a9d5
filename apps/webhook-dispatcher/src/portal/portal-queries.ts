import type { DataSource } from 'typeorm';
import { query, sql } from '@storage/persistence';
import type { SubscriptionEndpoint } from '@storage/webhooks';
import { holdsBack } from '../delivery/message-store';
import type { Bucket } from './charts';

/** An endpoint as the portal shows it: the subscription (its portfolio is the portal's) and its delivery state. */
export interface EndpointSummary extends Omit<SubscriptionEndpoint, 'portfolio'> {
  previousSecretExpiresAt: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
  failingSince: Date | null;
}

export interface MessageView {
  id: string;
  eventType: string;
  eventId: string;
  status: string;
  attempts: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  /** A pending message waiting for an earlier one of its rental to this endpoint: that one's id. */
  heldBy: string | null;
  /** The answer of its latest attempt: a status code, or why none came; null before the first attempt. */
  lastResult: string | null;
}

/** A message with what was sent: the portal's message page. */
export interface MessageDetail {
  id: string;
  endpointId: string;
  endpointUrl: string;
  eventType: string;
  eventId: string;
  /** The rental the event is about; null for a test event. */
  rentalUuid: string | null;
  status: string;
  nextAttemptAt: Date | null;
  createdAt: Date;
  /** The exact bytes that were signed and sent. */
  body: string;
}

export interface AttemptView {
  messageId: string;
  attemptedAt: Date;
  succeeded: boolean;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  responseBody: string | null;
}

/** A message a portfolio-wide search found, with its endpoint. */
export interface FoundMessage {
  id: string;
  endpointId: string;
  endpointUrl: string;
  eventType: string;
  status: string;
  createdAt: Date;
}

/** What the log of an endpoint is narrowed to; `search` is a message id, an event id or a rental uuid. */
export interface LogFilter {
  eventType?: string;
  status?: string;
  from?: Date;
  to?: Date;
  search?: string;
}

/** One page of the log, newest first; `older` is the cursor of the next page (the last message's id), null at the end. */
export interface LogPage {
  messages: MessageView[];
  older: string | null;
}

/** An hour of the last day: messages created, and the delivery attempts' latency percentiles (ms; null: no attempt). */
export interface HourStats {
  label: string;
  messages: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

/** The last 24 hours of an endpoint, hour by hour: its attempts' rates and latencies, and its messages. */
export interface LastDay {
  rates: Rates;
  hours: HourStats[];
}

export interface Rates {
  succeeded: number;
  failed: number;
  buckets: Bucket[];
}

const ENDPOINT_COLUMNS = `id, vendor_name AS "vendorName", url, description, event_types AS "eventTypes", facility_uuids AS "facilityUuids",
  unit_types AS "unitTypes", amenity_uuids AS "amenityUuids", ordered_delivery AS "orderedDelivery", max_in_flight AS "maxInFlight",
  previous_secret_expires_at AS "previousSecretExpiresAt",
  disabled_at AS "disabledAt", disabled_reason AS "disabledReason", failing_since AS "failingSince"`;

const MESSAGE_PAGE = 100;
const HOUR = 3_600_000;

const ENDPOINTS = sql<EndpointSummary, [string]>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE portfolio = $1 ORDER BY created_at, id`);
const ENDPOINT = sql<EndpointSummary, [string, string]>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE portfolio = $1 AND id = $2`);
const STORED_SECRET = sql<{ secret: string }, [string, string]>(`SELECT secret FROM webhook_endpoints WHERE portfolio = $1 AND id = $2`);
/** Per hour since `$2`: attempts succeeded and failed with their latency percentiles, and messages created. */
const LAST_DAY = sql<
  { bucket: Date; succeeded: number; failed: number; p50: number | null; p95: number | null; p99: number | null; messages: number },
  [string, Date]
>(
  `WITH attempts AS (
     SELECT date_trunc('hour', attempted_at, 'UTC') AS bucket, count(*) FILTER (WHERE succeeded)::int AS succeeded,
            count(*) FILTER (WHERE NOT succeeded)::int AS failed,
            percentile_disc(ARRAY[0.5, 0.95, 0.99]) WITHIN GROUP (ORDER BY latency_ms) AS latency
       FROM webhook_attempts WHERE endpoint_id = $1 AND attempted_at >= $2 GROUP BY 1),
   messages AS (
     SELECT date_trunc('hour', created_at, 'UTC') AS bucket, count(*)::int AS messages
       FROM webhook_messages WHERE endpoint_id = $1 AND created_at >= $2 GROUP BY 1)
   SELECT bucket, coalesce(a.succeeded, 0) AS succeeded, coalesce(a.failed, 0) AS failed,
          a.latency[1] AS p50, a.latency[2] AS p95, a.latency[3] AS p99, coalesce(m.messages, 0) AS messages
     FROM attempts a FULL JOIN messages m USING (bucket)`,
);
const RATES = sql<{ bucket: Date; succeeded: number; failed: number }, [string, Date, 'hour' | 'day']>(
  `SELECT date_trunc($3, attempted_at, 'UTC') AS bucket, count(*) FILTER (WHERE succeeded)::int AS succeeded, count(*) FILTER (WHERE NOT succeeded)::int AS failed
       FROM webhook_attempts WHERE endpoint_id = $1 AND attempted_at >= $2 GROUP BY 1`,
);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A page of an endpoint's log after the cursor `$8` (a message id: the page goes on from its place, created_at then
 * id, so equal times neither repeat nor skip a message). One more row than a page tells whether another follows.
 */
const MESSAGES = sql<MessageView, [string, string | null, string | null, Date | null, Date | null, string | null, string | null, string | null]>(
  `SELECT m.id, m.event_type AS "eventType", m.event_id AS "eventId", m.status, m.attempts, m.next_attempt_at AS "nextAttemptAt",
          m.created_at AS "createdAt", held.by AS "heldBy", last.result AS "lastResult"
       FROM webhook_messages m
       JOIN webhook_endpoints e ON e.id = m.endpoint_id
       LEFT JOIN LATERAL (
         SELECT p.id AS by FROM webhook_messages p WHERE m.status = 'pending' AND ${holdsBack('now()')} ORDER BY p.emission_order LIMIT 1) held ON true
       LEFT JOIN LATERAL (
         SELECT coalesce(a.status_code::text, a.error) AS result FROM webhook_attempts a WHERE a.message_id = m.id
           ORDER BY a.attempted_at DESC, a.id DESC LIMIT 1) last ON true
       WHERE m.endpoint_id = $1 AND ($2::text IS NULL OR m.event_type = $2) AND ($3::text IS NULL OR m.status = $3)
         AND ($4::timestamptz IS NULL OR m.created_at >= $4) AND ($5::timestamptz IS NULL OR m.created_at < $5)
         AND ($6::text IS NULL OR m.id = $6 OR m.event_id = $6 OR m.ordering_key = $7::uuid)
         AND ($8::text IS NULL OR (m.created_at, m.id) < (SELECT c.created_at, c.id FROM webhook_messages c WHERE c.id = $8 AND c.endpoint_id = $1))
       ORDER BY m.created_at DESC, m.id DESC LIMIT ${MESSAGE_PAGE + 1}`,
);
/** The portfolio's messages, to any of its endpoints, of one message id, event id or rental uuid: the newest 100. */
const FOUND = sql<FoundMessage, [string, string, string | null]>(
  `SELECT m.id, m.endpoint_id AS "endpointId", e.url AS "endpointUrl", m.event_type AS "eventType", m.status, m.created_at AS "createdAt"
       FROM webhook_messages m JOIN webhook_endpoints e ON e.id = m.endpoint_id
       WHERE m.endpoint_id IN (SELECT id FROM webhook_endpoints WHERE portfolio = $1)
         AND (m.id = $2 OR m.event_id = $2 OR m.ordering_key = $3::uuid)
       ORDER BY m.created_at DESC, m.id DESC LIMIT ${MESSAGE_PAGE}`,
);
const MESSAGE = sql<MessageDetail, [string, string]>(
  `SELECT m.id, m.endpoint_id AS "endpointId", e.url AS "endpointUrl", m.event_type AS "eventType", m.event_id AS "eventId",
          m.ordering_key AS "rentalUuid", m.status, m.next_attempt_at AS "nextAttemptAt", m.created_at AS "createdAt", m.body
       FROM webhook_messages m JOIN webhook_endpoints e ON e.id = m.endpoint_id
       WHERE m.id = $1 AND m.portfolio = $2`,
);
const ATTEMPTS = sql<AttemptView, [readonly string[]]>(
  `SELECT message_id AS "messageId", attempted_at AS "attemptedAt", succeeded, status_code AS "statusCode", error, latency_ms AS "latencyMs", response_body AS "responseBody"
       FROM webhook_attempts WHERE message_id = ANY($1::text[]) ORDER BY attempted_at, id`,
);

/** What the portal reads; every query is scoped by the portfolio of the link. */
export class PortalQueries {
  constructor(private readonly dataSource: DataSource) {}

  endpoints(portfolio: string): Promise<EndpointSummary[]> {
    return query(this.dataSource, ENDPOINTS, [portfolio]);
  }

  async endpoint(portfolio: string, id: string): Promise<EndpointSummary | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
    const rows = await query(this.dataSource, ENDPOINT, [portfolio, id]);
    return rows[0];
  }

  /** The endpoint's secret as stored (sealed): read only to reveal it. */
  async storedSecret(portfolio: string, id: string): Promise<string> {
    const rows = await query(this.dataSource, STORED_SECRET, [portfolio, id]);
    return rows[0].secret;
  }

  /** Successes and failures of attempts since `from`, bucketed by hour or day. */
  async rates(endpointId: string, from: Date, unit: 'hour' | 'day', count: number): Promise<Rates> {
    const rows = await query(this.dataSource, RATES, [endpointId, from, unit]);
    const step = unit === 'hour' ? 3_600_000 : 86_400_000;
    const start = Math.floor(from.getTime() / step) * step;
    const byBucket = new Map(rows.map((row) => [new Date(row.bucket).getTime(), row]));
    const buckets = Array.from({ length: count + 1 }, (_, index) => {
      const time = start + index * step;
      const row = byBucket.get(time);
      const label =
        new Date(time)
          .toISOString()
          .slice(0, unit === 'hour' ? 13 : 10)
          .replace('T', ' ') + (unit === 'hour' ? ':00' : '');
      return { label, succeeded: row?.succeeded ?? 0, failed: row?.failed ?? 0 };
    });
    return {
      succeeded: rows.reduce((sum, row) => sum + row.succeeded, 0),
      failed: rows.reduce((sum, row) => sum + row.failed, 0),
      buckets,
    };
  }

  /** The last 24 hours before `now`, hour by hour (25 hours shown: the current one is partial). */
  async lastDay(endpointId: string, now: Date): Promise<LastDay> {
    const start = Math.floor((now.getTime() - 24 * HOUR) / HOUR) * HOUR;
    const rows = await query(this.dataSource, LAST_DAY, [endpointId, new Date(start)]);
    const byHour = new Map(rows.map((row) => [new Date(row.bucket).getTime(), row]));
    const hours = Array.from({ length: 25 }, (_, index) => {
      const time = start + index * HOUR;
      return { label: new Date(time).toISOString().slice(11, 13) + ':00', row: byHour.get(time) };
    });
    return {
      rates: {
        succeeded: rows.reduce((sum, row) => sum + row.succeeded, 0),
        failed: rows.reduce((sum, row) => sum + row.failed, 0),
        buckets: hours.map(({ label, row }) => ({ label, succeeded: row?.succeeded ?? 0, failed: row?.failed ?? 0 })),
      },
      hours: hours.map(({ label, row }) => ({ label, messages: row?.messages ?? 0, p50: row?.p50 ?? null, p95: row?.p95 ?? null, p99: row?.p99 ?? null })),
    };
  }

  async messages(endpointId: string, filter: LogFilter, older: string | null): Promise<LogPage> {
    const search = filter.search ?? null;
    const rows = await query(this.dataSource, MESSAGES, [
      endpointId,
      filter.eventType ?? null,
      filter.status ?? null,
      filter.from ?? null,
      filter.to ?? null,
      search,
      search !== null && UUID.test(search) ? search : null,
      older,
    ]);
    const messages = rows.slice(0, MESSAGE_PAGE);
    return { messages, older: rows.length > MESSAGE_PAGE ? messages[messages.length - 1].id : null };
  }

  /** Every endpoint's messages of the portfolio with this message id, event id or rental uuid (the newest 100). */
  find(portfolio: string, search: string): Promise<FoundMessage[]> {
    return query(this.dataSource, FOUND, [portfolio, search, UUID.test(search) ? search : null]);
  }

  async message(portfolio: string, id: string): Promise<MessageDetail | undefined> {
    const rows = await query(this.dataSource, MESSAGE, [id, portfolio]);
    return rows[0];
  }

  attempts(messageIds: readonly string[]): Promise<AttemptView[]> {
    return query(this.dataSource, ATTEMPTS, [messageIds]);
  }
}
