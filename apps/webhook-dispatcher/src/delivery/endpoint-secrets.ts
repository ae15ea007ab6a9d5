import type { DataSource } from 'typeorm';
import { query, sql } from '@storage/persistence';
import { StoredSecretUnreadable, storeResealedSecrets, type SecretKeyring } from '@storage/webhooks';

export interface SealingReport {
  /** Endpoints whose secrets are now sealed with the first key. */
  sealed: number;
  /** Endpoints left as they were: a secret sealed with a key the keyring lacks, or altered. */
  unreadable: StoredSecretUnreadable[];
}

const PAGE = 500;

interface StoredSecrets {
  id: string;
  secret: string;
  previousSecret: string | null;
}

const UNSEALED_WITH_PRIMARY = sql<StoredSecrets, [string, string, number]>(
  `SELECT id, secret, previous_secret AS "previousSecret" FROM webhook_endpoints
       WHERE id > $1 AND (NOT starts_with(secret, $2) OR NOT starts_with(previous_secret, $2))
       ORDER BY id LIMIT $3`,
);

/**
 * The startup step of the dispatcher: seals the bare `whsec_` secrets of rows written before
 * sealing (or by an api replica not yet upgraded) and moves secrets sealed with an older key to the first key, so
 * a key can be retired. Idempotent, and safe with replicas starting together: each row is rewritten only if it
 * still holds the values read, so a concurrent rewrite (another replica, a rotation) wins and nothing is lost.
 */
export async function sealEndpointSecrets(dataSource: DataSource, keyring: SecretKeyring): Promise<SealingReport> {
  const report: SealingReport = { sealed: 0, unreadable: [] };
  const primaryPrefix = `v1:${keyring.primaryKeyId}:`;
  for (let after = '00000000-0000-0000-0000-000000000000'; ;) {
    const rows = await query(dataSource, UNSEALED_WITH_PRIMARY, [after, primaryPrefix, PAGE]);
    if (rows.length === 0) return report;
    after = rows[rows.length - 1].id;
    const resealed = rows.flatMap((row) => {
      try {
        const reseal = (stored: string) => (keyring.sealsWithPrimary(stored) ? stored : keyring.seal(keyring.open(stored, row.id), row.id));
        return [{ ...row, newSecret: reseal(row.secret), newPreviousSecret: row.previousSecret === null ? null : reseal(row.previousSecret) }];
      } catch (error) {
        if (!(error instanceof StoredSecretUnreadable)) throw error;
        report.unreadable.push(error);
        return [];
      }
    });
    report.sealed += await storeResealedSecrets(dataSource, resealed);
  }
}
