import { ConflictException, Inject, Injectable } from '@nestjs/common';
import { isValidEmail, isValidPhone } from '@storage/domain';
import { query, sql } from '@storage/persistence';
import type { FieldError } from '@storage/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { notFound } from '../common';
import type { ContactMethod } from '../model/lease.entity';
import { hashSigningToken, newSigningToken } from '../lease-signing/signing-token';
import { NOTIFICATION_PORT, SECRET_PLACEHOLDER, type NotificationPort } from '../notifications/notification.port';
import { signingLink } from '../notifications/signing-link';

export const PUBLIC_BASE_URL = Symbol('PUBLIC_BASE_URL');

/**
 * The lead's lease already sent, sent again with a new token: only its hash is kept, so the old link cannot be
 * sent again, and it stops opening the lease (the latest link sent is the one that signs).
 */
const RESEND_LEASE = sql<{ uuid: string }, [string, string]>(
  `UPDATE leases SET sent_at = now(), signing_token_hash = $2 WHERE lead_uuid = $1 AND status = 'SENT' RETURNING uuid`,
);

interface LeadToLease {
  leadUuid: string;
  status: string;
  unitGroupUuid: string | null;
  personUuid: string;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  facilityName: string;
  signed: boolean;
}

/** Operation 13: validates the lead, reuses its signable lease or creates one, and sends it. */
@Injectable()
export class LeasesService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(NOTIFICATION_PORT) private readonly notifications: NotificationPort,
    @Inject(PUBLIC_BASE_URL) private readonly publicBaseUrl: string,
  ) {}

  async send(portfolioUuid: string, facilityUuid: string, leadUuid: string, method: ContactMethod): Promise<string> {
    return this.dataSource.transaction(async (db) => {
      const lead = await lockLead(db, portfolioUuid, facilityUuid, leadUuid);
      if (lead.signed || lead.status === 'CONVERTED') return 'Lease already signed.';
      const problems = leadProblems(lead, method);
      if (problems.length > 0) throw new ConflictException({ detail: 'The lead is not ready for a lease.', errors: problems });
      const lease = await this.signableLease(db, lead, facilityUuid);
      await this.notifications.send(
        {
          portfolioUuid,
          leadUuid,
          personUuid: lead.personUuid,
          channel: method,
          recipient: method === 'email' ? lead.email! : lead.phone!,
          subject: `Your lease at ${lead.facilityName}`,
          body: `Hello ${lead.firstName}, your lease at ${lead.facilityName} is ready to sign: ${SECRET_PLACEHOLDER}`,
          secret: signingLink(this.publicBaseUrl, lease.signingToken),
          leaseUuid: lease.uuid,
        },
        db,
      );
      await query(db, sql<never, [string]>(`UPDATE leads SET status = 'LEASE_SENT', updated_at = now() WHERE uuid = $1`), [leadUuid]);
      return `Lease sent by ${method}.`;
    });
  }

  /** The lead's SENT lease, or a new one at the unit group's current web rate; needs a vacant unit. */
  private async signableLease(db: EntityManager, lead: LeadToLease, facilityUuid: string): Promise<{ uuid: string; signingToken: string }> {
    const signingToken = newSigningToken();
    const [existing] = await query(db, RESEND_LEASE, [lead.leadUuid, hashSigningToken(signingToken)]);
    if (existing !== undefined) return { uuid: existing.uuid, signingToken };
    const groups = await query(
      db,
      sql<{ webRate: number; vacant: number }, [string | null, string]>(`SELECT current_web_rate_in_pennies AS "webRate",
              (SELECT count(*)::int FROM units u WHERE u.unit_group_uuid = g.uuid AND u.status = 'vacant') AS vacant
       FROM unit_groups g WHERE g.uuid = $1 AND g.facility_uuid = $2`),
      [lead.unitGroupUuid, facilityUuid],
    );
    const group = groups[0];
    if (group === undefined || group.vacant === 0) {
      throw new ConflictException({ detail: 'The lead’s unit group has no vacant unit.', errors: [{ field: 'unitGroupUuid', message: 'no vacant unit' }] });
    }
    const inserted = await query(
      db,
      sql<
        { uuid: string },
        [string, string, string | null, number, string]
      >(`INSERT INTO leases (lead_uuid, facility_uuid, unit_group_uuid, rent_in_pennies, signing_token_hash, status, sent_at)
       VALUES ($1, $2, $3, $4, $5, 'SENT', now()) RETURNING uuid`),
      [lead.leadUuid, facilityUuid, lead.unitGroupUuid, group.webRate, hashSigningToken(signingToken)],
    );
    return { uuid: inserted[0].uuid, signingToken };
  }
}

async function lockLead(db: EntityManager, portfolioUuid: string, facilityUuid: string, leadUuid: string): Promise<LeadToLease> {
  const rows = await query(
    db,
    sql<
      LeadToLease,
      [string, string, string]
    >(`SELECT l.uuid AS "leadUuid", l.status, l.unit_group_uuid AS "unitGroupUuid", p.uuid AS "personUuid", p.first_name AS "firstName",
            p.last_name AS "lastName", p.email, p.phone, f.name AS "facilityName",
            EXISTS (SELECT 1 FROM leases s WHERE s.lead_uuid = l.uuid AND s.status = 'SIGNED') AS signed
     FROM leads l JOIN persons p ON p.uuid = l.person_uuid JOIN facilities f ON f.uuid = l.facility_uuid
     WHERE l.uuid = $1 AND l.facility_uuid = $2 AND l.portfolio_uuid = $3
     FOR UPDATE OF l`),
    [leadUuid, facilityUuid, portfolioUuid],
  );
  const lead = rows[0];
  if (lead === undefined) throw notFound('Lead', leadUuid);
  return lead;
}

/** What the lead lacks before a lease can be sent by `method`. */
function leadProblems(lead: LeadToLease, method: ContactMethod): FieldError[] {
  const problems: FieldError[] = [];
  if (lead.firstName.trim() === '') problems.push({ field: 'firstName', message: 'the lead has no first name' });
  if (lead.lastName.trim() === '') problems.push({ field: 'lastName', message: 'the lead has no last name' });
  if (lead.unitGroupUuid === null) problems.push({ field: 'unitGroupUuid', message: 'the lead has chosen no unit group' });
  if (method === 'email' && (lead.email === null || !isValidEmail(lead.email))) problems.push({ field: 'email', message: 'the lead has no valid email' });
  if (method === 'sms' && (lead.phone === null || !isValidPhone(lead.phone))) problems.push({ field: 'phone', message: 'the lead has no valid phone' });
  return problems;
}
