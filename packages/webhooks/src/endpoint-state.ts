import { fragment, query, sql, type Queryable, type SqlFragment } from '@storage/persistence';

/*
 * The dispatcher's writes of `webhook_endpoints`, this package's table: an endpoint's run of failures and its
 * disabling (delivery), its secrets (the portal's rotation, the startup resealing), its re-enabling (the portal).
 * The dispatcher calls these in its own transaction instead of writing the table itself.
 */

/**
 * Ending the failure runs of the endpoints `ids` (the caller's expression of a uuid array, a bound parameter), a
 * fragment for a statement of data-modifying CTEs on the delivery's hot path (recording a batch of successes in one
 * round trip). It answers the endpoints whose run it ended, which have their whole limit of deliveries in flight again.
 */
export function endingFailureRuns(ids: string): SqlFragment {
  return fragment(`UPDATE webhook_endpoints e SET failing_since = NULL WHERE e.id = ANY(${ids}) AND e.failing_since IS NOT NULL RETURNING e.id`);
}

const END_FAILURE_RUNS = sql<{ id: string }, [readonly string[]]>(endingFailureRuns('$1::uuid[]'));

/** Ends the failure runs of the endpoints that just succeeded; answers whether one was running. */
export async function endFailureRuns(db: Queryable, endpointIds: readonly string[]): Promise<boolean> {
  return (await query(db, END_FAILURE_RUNS, [endpointIds])).length > 0;
}

const START_FAILURE_RUNS = sql<never, [string[], Date[]]>(
  `UPDATE webhook_endpoints e SET failing_since = u.attempted_at
     FROM (SELECT id, min(attempted_at) AS attempted_at FROM unnest($1::uuid[], $2::timestamptz[]) AS f(id, attempted_at) GROUP BY id) u
    WHERE e.id = u.id AND e.failing_since IS NULL`,
);

/** Starts a failure run at each endpoint's earliest failed attempt, unless one is running. */
export async function startFailureRuns(db: Queryable, failures: readonly { endpointId: string; attemptedAt: Date }[]): Promise<void> {
  await query(db, START_FAILURE_RUNS, [failures.map((f) => f.endpointId), failures.map((f) => f.attemptedAt)]);
}

/** Endpoints to disable at `at`: those that answered 410 Gone, and those failing since `failingCutoff` or earlier. */
export interface Disabling {
  at: Date;
  gone: readonly string[];
  goneReason: string;
  failed: readonly string[];
  failingCutoff: Date;
  failingReason: string;
}

const DISABLE = sql<{ id: string }, [Date, readonly string[], readonly string[], Date, string, string]>(
  `UPDATE webhook_endpoints SET disabled_at = $1,
     disabled_reason = CASE WHEN id = ANY($2::uuid[]) THEN $5 ELSE $6 END
   WHERE disabled_at IS NULL AND (id = ANY($2::uuid[]) OR (id = ANY($3::uuid[]) AND failing_since <= $4))
   RETURNING id`,
);

/** Disables the endpoints not disabled yet, with their reason; answers the ids disabled. */
export async function disableEndpoints(db: Queryable, disabling: Disabling): Promise<string[]> {
  const rows = await query(db, DISABLE, [
    disabling.at,
    disabling.gone,
    disabling.failed,
    disabling.failingCutoff,
    disabling.goneReason,
    disabling.failingReason,
  ]);
  return rows.map((row) => row.id);
}

const DISABLE_ONE = sql<never, [string, string, Date, string]>(
  'UPDATE webhook_endpoints SET disabled_at = $3, disabled_reason = $4, updated_at = now() WHERE id = $1 AND portfolio = $2 AND disabled_at IS NULL',
);

/** The portfolio's endpoint disabled by its owner (the portal): nothing is delivered to it until it is enabled again. */
export async function disableEndpoint(db: Queryable, portfolio: string, id: string, at: Date, reason: string): Promise<void> {
  await query(db, DISABLE_ONE, [id, portfolio, at, reason]);
}

const ENABLE = sql<never, [string, string]>(
  'UPDATE webhook_endpoints SET disabled_at = NULL, disabled_reason = NULL, failing_since = NULL, updated_at = now() WHERE id = $1 AND portfolio = $2',
);

/** The portfolio's endpoint enabled again, its failure run forgotten. */
export async function enableEndpoint(db: Queryable, portfolio: string, id: string): Promise<void> {
  await query(db, ENABLE, [id, portfolio]);
}

const ROTATE_SECRET = sql<never, [string, string, string, Date]>(
  'UPDATE webhook_endpoints SET previous_secret = secret, secret = $3, previous_secret_expires_at = $4, updated_at = now() WHERE id = $1 AND portfolio = $2',
);

/** A new secret (sealed for the endpoint) signs from now; the current one keeps signing until `previousExpiresAt`. */
export async function rotateEndpointSecret(db: Queryable, portfolio: string, id: string, sealedSecret: string, previousExpiresAt: Date): Promise<void> {
  await query(db, ROTATE_SECRET, [id, portfolio, sealedSecret, previousExpiresAt]);
}

/** An endpoint's stored secrets as read, and as resealed. */
export interface ResealedSecrets {
  id: string;
  secret: string;
  previousSecret: string | null;
  newSecret: string;
  newPreviousSecret: string | null;
}

const STORE_RESEALED = sql<
  { id: string },
  [ids: string[], secrets: string[], previousSecrets: (string | null)[], newSecrets: string[], newPreviousSecrets: (string | null)[]]
>(
  `UPDATE webhook_endpoints e SET secret = u.new_secret, previous_secret = u.new_previous_secret
     FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[]) AS u(id, secret, previous_secret, new_secret, new_previous_secret)
    WHERE e.id = u.id AND e.secret = u.secret AND e.previous_secret IS NOT DISTINCT FROM u.previous_secret
   RETURNING e.id`,
);

/** Stores the resealed secrets of each endpoint still holding the values read; answers how many were written. */
export async function storeResealedSecrets(db: Queryable, resealed: readonly ResealedSecrets[]): Promise<number> {
  const updated = await query(db, STORE_RESEALED, [
    resealed.map((row) => row.id),
    resealed.map((row) => row.secret),
    resealed.map((row) => row.previousSecret),
    resealed.map((row) => row.newSecret),
    resealed.map((row) => row.newPreviousSecret),
  ]);
  return updated.length;
}
