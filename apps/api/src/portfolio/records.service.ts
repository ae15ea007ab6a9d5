import { randomUUID } from 'node:crypto';
import { Inject, Injectable, UnprocessableEntityException } from '@nestjs/common';
import { normalizePhone } from '@storage/domain';
import { query, sql } from '@storage/persistence';
import { InvalidRequestException } from '@storage/platform';
import { DataSource } from 'typeorm';
import { keyedUuid, lowerUuids, notFound, requireFacility } from '../common';
import { SHOWN_GATE_CODE } from '../rentals/gate-codes';
import type { CoverageHistoryRecord, NoteCreated, PersonContact, UpdatePerson, VehicleView } from './portfolio.dto';

const UPDATE_PERSON = sql<PersonContact, [string, string, string | null, string | null]>(
  `UPDATE persons SET email = coalesce($3, email), phone = coalesce($4, phone), updated_at = now()
    WHERE uuid = $1 AND portfolio_uuid = $2 RETURNING uuid AS "personUuid", email, phone`,
);

const INSERT_NOTE = sql<{ uuid: string }, [noteUuid: string, leadUuid: string, portfolioUuid: string, noteText: string]>(
  `INSERT INTO notes (uuid, lead_uuid, note_text) SELECT $1, uuid, $4 FROM leads WHERE uuid = $2 AND portfolio_uuid = $3
   ON CONFLICT (uuid) DO NOTHING RETURNING uuid`,
);
const NOTE = sql<{ leadUuid: string; noteText: string }, [noteUuid: string]>(
  `SELECT lead_uuid AS "leadUuid", note_text AS "noteText" FROM notes WHERE uuid = $1`,
);

/** A note created, or, for a retry under its Idempotency-Key, the one the first request created. */
export interface NoteAnswer {
  note: NoteCreated;
  replayed: boolean;
}

/** Portfolio look-ups and small updates: vehicles, coverage history, persons, notes, gate codes. */
@Injectable()
export class RecordsService {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Operation 8. Unknown UUIDs are left out. */
  async vehicles(portfolioUuid: string, facilityUuid: string, uuids: string[]): Promise<VehicleView[]> {
    await requireFacility(this.dataSource.manager, portfolioUuid, facilityUuid);
    return query(
      this.dataSource,
      sql<
        VehicleView,
        [string, string[]]
      >(`SELECT facility_uuid AS "facilityUuid", rental_record_uuid AS "rentalRecordUuid", uuid AS "vehicleUuid", created_at AS "createdAt",
              updated_at AS "updatedAt", type, license_plate_number AS "licensePlateNumber", make, model, vin
       FROM vehicles WHERE facility_uuid = $1 AND uuid = ANY($2::uuid[]) ORDER BY created_at, uuid`),
      [facilityUuid, lowerUuids(uuids)],
    );
  }

  /** Operation 9. Unknown UUIDs are left out. */
  async coverageHistory(portfolioUuid: string, facilityUuid: string, uuids: string[]): Promise<CoverageHistoryRecord[]> {
    await requireFacility(this.dataSource.manager, portfolioUuid, facilityUuid);
    return query(
      this.dataSource,
      sql<
        CoverageHistoryRecord,
        [string, string[]]
      >(`SELECT e.uuid AS "monumentCoverageEnrollmentUuid", e.rental_record_uuid AS "unitRentalRecordUuid", e.start_date AS "coverageStartDate",
              u.name AS "unitNumber", e.coverage_uuid AS "coverageUuid", e.premium_in_pennies AS "coveragePremium",
              e.coverage_amount_in_pennies AS "coverageAmount", e.created_at AS "createdAt", e.updated_at AS "updatedAt",
              e.end_date AS "coverageEndDate", e.partner_coverage_id AS "partnerCoverageId"
       FROM coverage_enrollments e JOIN rental_records r ON r.uuid = e.rental_record_uuid JOIN units u ON u.uuid = r.unit_uuid
       WHERE e.facility_uuid = $1 AND e.uuid = ANY($2::uuid[]) ORDER BY e.start_date, e.uuid`),
      [facilityUuid, lowerUuids(uuids)],
    );
  }

  /** Operation 11. The phone is kept as its ten digits, the email lower-cased, so look-ups match. */
  async updatePerson(portfolioUuid: string, personUuid: string, update: UpdatePerson): Promise<PersonContact> {
    if (update.email === undefined && update.phone === undefined) {
      throw new InvalidRequestException([{ field: 'body', message: 'email or phone is required' }]);
    }
    const [person] = await query(this.dataSource, UPDATE_PERSON, [
      personUuid,
      portfolioUuid,
      update.email?.trim().toLowerCase() ?? null,
      update.phone === undefined ? null : normalizePhone(update.phone),
    ]);
    if (person === undefined) throw notFound('Person', personUuid);
    return person;
  }

  /**
   * Operation 12. With an idempotency key, once: the note's uuid is the key's (within the portfolio), so a retry,
   * even one sent at the same moment, finds the note the first request wrote; the same note answers it again, any
   * other is refused.
   */
  async createNote(portfolioUuid: string, leadUuid: string, noteText: string, idempotencyKey?: string): Promise<NoteAnswer> {
    const noteUuid = idempotencyKey === undefined ? randomUUID() : keyedUuid('note', portfolioUuid, idempotencyKey);
    const [created] = await query(this.dataSource, INSERT_NOTE, [noteUuid, leadUuid, portfolioUuid, noteText]);
    if (created !== undefined) return { note: { noteUuid }, replayed: false };
    // Nothing written: no such lead, or the key's note exists (a copy of this request that won waited for, then read).
    const [earlier] = await query(this.dataSource, NOTE, [noteUuid]);
    if (earlier === undefined) throw notFound('Lead', leadUuid);
    if (earlier.leadUuid !== leadUuid || earlier.noteText !== noteText) {
      throw new UnprocessableEntityException('This Idempotency-Key was first used for a different note; a different note needs a key of its own.');
    }
    return { note: { noteUuid }, replayed: true };
  }

  /**
   * Operation 14. While the delinquency scheduler holds the code suspended the answer is SUSPENDED instead of the
   * code (SHOWN_GATE_CODE): the published answer is one string, and a gate system syncing from it must stop
   * opening the gate (README, Decisions). No code (moved out): 404.
   */
  async gateAccessCode(portfolioUuid: string, facilityUuid: string, rentalRecordUuid: string): Promise<string> {
    const rows = await query(
      this.dataSource,
      sql<{ code: string }, [string, string, string]>(`SELECT ${SHOWN_GATE_CODE} AS code
         FROM gate_codes g JOIN rental_records r ON r.uuid = g.rental_record_uuid
        WHERE g.rental_record_uuid = $1 AND r.facility_uuid = $2 AND r.portfolio_uuid = $3`),
      [rentalRecordUuid, facilityUuid, portfolioUuid],
    );
    const gate = rows[0];
    if (gate === undefined) throw notFound('Gate access code of rental record', rentalRecordUuid);
    return gate.code;
  }
}
