import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { notFound, requireFacility } from '../common';
import { NOTIFICATION_PORT, SECRET_PLACEHOLDER, type NotificationPort } from '../notifications/notification.port';
import type { Person } from '../model/person.entity';
import { RateLimits } from '../rate-limit';
import { SHOWN_GATE_CODE } from '../rentals/gate-codes';
import { CODE_LIFETIME_MS, codeMatches, generateCode, hashCode, MAX_CODE_ATTEMPTS, VERIFICATION_CODE_KEY } from './verification-code';
import type {
  CheckPreexistingRequest,
  CheckPreexistingResult,
  ConvertedLeadDetails,
  PersonalInfo,
  PreexistingTenantValidation,
  ValidatePreexistingRequest,
} from './tenant.dto';
import { query, sql } from '@storage/persistence';

const NOT_VALID: PreexistingTenantValidation = { valid: false, expired: false, personalInfo: null, createdLead: null };

/** The returning-tenant flow (check-preexisting, operation 2) and the converted lead's details (operation 3). */
@Injectable()
export class TenantsService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(NOTIFICATION_PORT) private readonly notifications: NotificationPort,
    @Inject(RateLimits) private readonly rateLimits: RateLimits,
    @Inject(VERIFICATION_CODE_KEY) private readonly codeKey: Buffer,
  ) {}

  /**
   * Emails a code to a known tenant of the portfolio. An unknown email answers `exists: false` and sends nothing;
   * past the codes a person may get an hour, 429 (each new code would bring 5 more guesses).
   */
  async checkPreexisting(portfolioUuid: string, request: CheckPreexistingRequest): Promise<CheckPreexistingResult> {
    // Looked up before the transaction: the limit's own statement must not wait for a connection while it holds one.
    const facility = await requireFacility(this.dataSource.manager, portfolioUuid, request.facilityUuid.toLowerCase());
    const person = await findTenant(this.dataSource.manager, portfolioUuid, request.email);
    if (person === null || person.email === null) return { exists: false, expiration: null };
    const email = person.email;
    await this.rateLimits.codeSent(person.uuid);
    return this.dataSource.transaction(async (db) => {
      const code = generateCode();
      const expiresAt = new Date(Date.now() + CODE_LIFETIME_MS);
      await query(
        db,
        sql<never, [string, string, string, Date]>(
          'INSERT INTO tenant_verification_codes (facility_uuid, person_uuid, code_hash, expires_at) VALUES ($1, $2, $3, $4)',
        ),
        [facility.uuid, person.uuid, await hashCode(code, this.codeKey), expiresAt],
      );
      await this.notifications.send(
        {
          portfolioUuid,
          leadUuid: null,
          personUuid: person.uuid,
          channel: 'email',
          recipient: email,
          subject: `Your ${facility.name} verification code`,
          body: `Your verification code is ${SECRET_PLACEHOLDER}. It expires in ${CODE_LIFETIME_MS / 60_000} minutes.`,
          secret: code,
          leaseUuid: null,
        },
        db,
      );
      return { exists: true, expiration: expiresAt.toISOString() };
    });
  }

  /**
   * Operation 2: checks the latest code; a valid one is used up and yields a prefilled lead with a verify token.
   * Past the tries a person may make an hour (whatever the key, whatever the code), 429 before the code is read.
   */
  async validatePreexisting(portfolioUuid: string, request: ValidatePreexistingRequest): Promise<PreexistingTenantValidation> {
    const facility = await requireFacility(this.dataSource.manager, portfolioUuid, request.facilityUuid.toLowerCase());
    const person = await findTenant(this.dataSource.manager, portfolioUuid, request.email);
    if (person === null) return NOT_VALID;
    await this.rateLimits.codeTried(person.uuid);
    return this.dataSource.transaction(async (db) => {
      const codes = await query(
        db,
        sql<
          {
            uuid: string;
            codeHash: string;
            expired: boolean;
            failedAttempts: number;
          },
          [string]
        >(`SELECT uuid, code_hash AS "codeHash", expires_at < now() AS expired, failed_attempts AS "failedAttempts"
         FROM tenant_verification_codes WHERE person_uuid = $1 AND used_at IS NULL ORDER BY created_at DESC LIMIT 1 FOR UPDATE`),
        [person.uuid],
      );
      const latest = codes[0];
      if (latest === undefined || latest.failedAttempts >= MAX_CODE_ATTEMPTS) return NOT_VALID;
      if (!(await codeMatches(request.code, latest.codeHash, this.codeKey))) {
        await query(db, sql<never, [string]>('UPDATE tenant_verification_codes SET failed_attempts = failed_attempts + 1 WHERE uuid = $1'), [latest.uuid]);
        return NOT_VALID;
      }
      if (latest.expired) return { ...NOT_VALID, expired: true };
      await query(db, sql<never, [string]>('UPDATE tenant_verification_codes SET used_at = now() WHERE uuid = $1'), [latest.uuid]);
      const verifyToken = randomBytes(24).toString('base64url');
      const leads = await query(
        db,
        sql<
          { uuid: string },
          [string, string, string, boolean, string]
        >(`INSERT INTO leads (portfolio_uuid, facility_uuid, person_uuid, is_for_business, verify_token)
         VALUES ($1, $2, $3, $4, $5) RETURNING uuid`),
        [portfolioUuid, facility.uuid, person.uuid, person.accountType === 'BUSINESS', verifyToken],
      );
      const leadUuid = leads[0].uuid;
      return {
        valid: true,
        expired: false,
        personalInfo: await personalInfo(db, person, { facilityUuid: facility.uuid, leadUuid }),
        createdLead: { leadUuid, verifyToken },
      };
    });
  }

  /**
   * Operation 3: where the converted lead's unit is and how to get in (the gate code as operation 14 shows it:
   * SUSPENDED while suspended, empty once moved out), and the rental the operator routes act on. 404 until the lead is converted.
   */
  async convertedLead(portfolioUuid: string, leadUuid: string): Promise<ConvertedLeadDetails> {
    const rows = await query(
      this.dataSource,
      sql<
        ConvertedLeadDetails,
        [string, string]
      >(`SELECT u.name AS "unitName", ut.description AS "unitType", u.floor, coalesce(${SHOWN_GATE_CODE}, '') AS "gateAccessNumber",
              to_char(r.start_date, 'YYYY-MM-DD') AS "rentalStartDate", f.name AS "facilityName",
              concat_ws(', ', f.address_line1, f.address_line2, f.city, f.state || ' ' || f.zip) AS "facilityAddress",
              f.operating_hours AS "facilityOperatingHours", f.phone AS "facilityPhone",
              rental_ledger_move_in_due(r.uuid) AS "amountDueAtMoveInInPennies", r.uuid AS "unitRentalRecordUuid"
       FROM leads l
       JOIN rental_records r ON r.uuid = l.converted_rental_record_uuid
       JOIN units u ON u.uuid = r.unit_uuid
       JOIN unit_groups ug ON ug.uuid = r.unit_group_uuid
       JOIN size_and_type_groups s ON s.uuid = ug.size_and_type_group_uuid
       JOIN unit_types ut ON ut.uuid = s.unit_type_uuid
       JOIN facilities f ON f.uuid = r.facility_uuid
       LEFT JOIN gate_codes g ON g.rental_record_uuid = r.uuid
       WHERE l.uuid = $1 AND l.portfolio_uuid = $2 AND l.status = 'CONVERTED'`),
      [leadUuid, portfolioUuid],
    );
    const details = rows[0];
    if (details === undefined) throw notFound('Converted lead', leadUuid);
    return details;
  }
}

/** A tenant as `findTenant` reads one: the person's own details, not the row's bookkeeping. */
type Tenant = Omit<Person, 'portfolioUuid' | 'createdAt' | 'updatedAt'>;

/** A person of the portfolio with this email who has rented before. */
async function findTenant(db: EntityManager, portfolioUuid: string, email: string): Promise<Tenant | null> {
  const rows = await query(
    db,
    sql<Tenant, [string, string]>(`SELECT p.uuid, p.first_name AS "firstName", p.last_name AS "lastName", p.email, p.phone, p.phone_type AS "phoneType",
            p.is_sms_enrolled AS "isSmsEnrolled", p.address_line1 AS "addressLine1", p.address_line2 AS "addressLine2", p.city, p.state,
            p.country, p.zip, p.id_type AS "idType", p.id_code AS "idCode", p.id_state AS "idState", p.id_country AS "idCountry",
            to_char(p.id_issue_date, 'YYYY-MM-DD') AS "idIssueDate", to_char(p.id_expiration_date, 'YYYY-MM-DD') AS "idExpirationDate",
            p.account_type AS "accountType", p.business_name AS "businessName", p.tax_id AS "taxId",
            to_char(p.date_of_birth, 'YYYY-MM-DD') AS "dateOfBirth", p.alternate_contact AS "alternateContact", p.military, p.beneficiary
     FROM persons p
     WHERE p.portfolio_uuid = $1 AND p.email = lower($2) AND EXISTS (SELECT 1 FROM rental_records r WHERE r.person_uuid = p.uuid)
     ORDER BY p.created_at LIMIT 1`),
    [portfolioUuid, email.trim()],
  );
  return rows[0] ?? null;
}

const asDateTime = (date: string | null): string | null => (date === null ? null : `${date}T00:00:00.000Z`);

async function personalInfo(db: EntityManager, person: Tenant, links: { facilityUuid: string; leadUuid: string }): Promise<PersonalInfo> {
  const vehicles = await query(
    db,
    sql<
      {
        type: string;
        make: string;
        model: string;
        vin: string;
        licensePlateNumber: string;
      },
      [string]
    >(`SELECT v.type, v.make, v.model, v.vin, v.license_plate_number AS "licensePlateNumber"
     FROM vehicles v JOIN rental_records r ON r.uuid = v.rental_record_uuid WHERE r.person_uuid = $1 ORDER BY v.created_at DESC LIMIT 1`),
    [person.uuid],
  );
  const vehicle = vehicles[0] ?? null;
  const alternate = person.alternateContact;
  const military = person.military;
  return {
    personUuid: person.uuid,
    firstName: person.firstName,
    lastName: person.lastName,
    email: person.email,
    phone: person.phone,
    addressLine1: person.addressLine1,
    addressLine2: person.addressLine2,
    city: person.city,
    state: person.state,
    country: person.country,
    zip: person.zip,
    phoneType: person.phoneType,
    isSmsEnrolled: person.isSmsEnrolled,
    idType: person.idType,
    idCode: person.idCode,
    idState: person.idState,
    idCountry: person.idCountry,
    idIssueDate: person.idIssueDate,
    idExpirationDate: person.idExpirationDate,
    accountType: person.accountType,
    businessName: person.businessName,
    taxId: person.taxId,
    haveAlternateContact: alternate !== null,
    alternateContactFirstName: alternate?.firstName ?? null,
    alternateContactLastName: alternate?.lastName ?? null,
    alternateContactPhone: alternate?.phone ?? null,
    alternateContactRelationship: alternate?.relationship ?? null,
    haveMilitary: military !== null,
    militaryBranch: military?.branch ?? null,
    dateOfBirth: asDateTime(person.dateOfBirth),
    startDateOfService: asDateTime(military?.startDateOfService ?? null),
    commanderOfficer: military?.commanderOfficer ?? null,
    officerEmail: military?.officerEmail ?? null,
    dateDesiredMoveIn: null,
    // Only people who rented before get a code, so a validated tenant is always a previous one.
    isPreviousTenant: true,
    haveVehicle: vehicle !== null,
    haveLienHolder: false,
    vehicleType: vehicle?.type ?? null,
    vehicleMake: vehicle?.make ?? null,
    vehicleModel: vehicle?.model ?? null,
    vinNumber: vehicle?.vin ?? null,
    licensePlate: vehicle?.licensePlateNumber ?? null,
    lienHolderName: null,
    lienHolderAddress: null,
    facilityUuid: links.facilityUuid,
    unitGroupUuid: null,
    leadUuid: links.leadUuid,
    leadSourceUuid: null,
    leadMarketingSourceUuid: null,
    beneficiary: person.beneficiary,
  };
}
