import type { MigrationInterface, QueryRunner } from 'typeorm';

type OnDelete = 'CASCADE' | 'NO ACTION';

/** One relation: `table.column` refers to `parent.uuid`. */
interface Relation {
  table: string;
  column: string;
  parent: string;
  onDelete: OnDelete;
}

const cascade = (table: string, column: string, parent: string): Relation => ({ table, column, parent, onDelete: 'CASCADE' });
const keep = (table: string, column: string, parent: string): Relation => ({ table, column, parent, onDelete: 'NO ACTION' });

/**
 * Every relation of the api's, the ledger's and the delinquency tables (the decisions and their reasons are in
 * packages/persistence/README.md#foreign-keys). CASCADE: the row is a part of its parent (a rental's services, a
 * facility's configuration). NO ACTION: the row is history that must not vanish with its parent (a unit's rentals).
 * All are DEFERRABLE INITIALLY IMMEDIATE: checked at the end of each statement, unless a transaction that writes a
 * whole tree (the demo seed) says `SET CONSTRAINTS ALL DEFERRED` and is checked at commit; cascades stay immediate.
 */
const RELATIONS: readonly Relation[] = [
  // A portfolio's catalog goes with it; its facilities, people and rentals keep it.
  keep('facilities', 'portfolio_uuid', 'portfolios'),
  keep('persons', 'portfolio_uuid', 'portfolios'),
  cascade('unit_types', 'portfolio_uuid', 'portfolios'),
  cascade('amenities', 'portfolio_uuid', 'portfolios'),
  cascade('item_types', 'portfolio_uuid', 'portfolios'),
  cascade('rate_plans', 'portfolio_uuid', 'portfolios'),
  cascade('lead_sources', 'portfolio_uuid', 'portfolios'),
  cascade('lead_marketing_sources', 'portfolio_uuid', 'portfolios'),
  // A facility's configuration goes with it; catalog entries in use are kept.
  cascade('size_and_type_groups', 'facility_uuid', 'facilities'),
  keep('size_and_type_groups', 'unit_type_uuid', 'unit_types'),
  cascade('unit_groups', 'facility_uuid', 'facilities'),
  keep('unit_groups', 'size_and_type_group_uuid', 'size_and_type_groups'),
  keep('unit_groups', 'rate_plan_uuid', 'rate_plans'),
  cascade('unit_group_amenities', 'unit_group_uuid', 'unit_groups'),
  cascade('unit_group_amenities', 'amenity_uuid', 'amenities'),
  cascade('units', 'facility_uuid', 'facilities'),
  keep('units', 'unit_group_uuid', 'unit_groups'),
  cascade('promotions', 'facility_uuid', 'facilities'),
  keep('promotions', 'item_type_uuid', 'item_types'),
  cascade('coverages', 'facility_uuid', 'facilities'),
  keep('coverages', 'item_type_uuid', 'item_types'),
  cascade('delinquency_schedules', 'facility_uuid', 'facilities'),
  keep('delinquency_runs', 'facility_uuid', 'facilities'),
  // Shopping: leads and leases are history; a lead's notes and a person's verification codes are parts.
  keep('leads', 'portfolio_uuid', 'portfolios'),
  keep('leads', 'facility_uuid', 'facilities'),
  keep('leads', 'unit_group_uuid', 'unit_groups'),
  keep('leads', 'person_uuid', 'persons'),
  keep('leads', 'lead_source_uuid', 'lead_sources'),
  keep('leads', 'lead_marketing_source_uuid', 'lead_marketing_sources'),
  keep('leads', 'converted_rental_record_uuid', 'rental_records'),
  cascade('notes', 'lead_uuid', 'leads'),
  cascade('tenant_verification_codes', 'person_uuid', 'persons'),
  cascade('tenant_verification_codes', 'facility_uuid', 'facilities'),
  keep('leases', 'lead_uuid', 'leads'),
  keep('leases', 'facility_uuid', 'facilities'),
  keep('leases', 'unit_group_uuid', 'unit_groups'),
  keep('leases', 'rental_record_uuid', 'rental_records'),
  keep('notifications', 'portfolio_uuid', 'portfolios'),
  keep('notifications', 'lead_uuid', 'leads'),
  keep('notifications', 'person_uuid', 'persons'),
  keep('notifications', 'lease_uuid', 'leases'),
  // A rental is history of everything it names.
  keep('rental_records', 'portfolio_uuid', 'portfolios'),
  keep('rental_records', 'facility_uuid', 'facilities'),
  keep('rental_records', 'unit_uuid', 'units'),
  keep('rental_records', 'unit_group_uuid', 'unit_groups'),
  keep('rental_records', 'person_uuid', 'persons'),
  keep('rental_records', 'lead_uuid', 'leads'),
  // A rental's parts go with it (as its ledger, rent changes and autopay attempts already do).
  cascade('rental_services', 'rental_record_uuid', 'rental_records'),
  keep('rental_services', 'item_type_uuid', 'item_types'),
  cascade('coverage_enrollments', 'rental_record_uuid', 'rental_records'),
  keep('coverage_enrollments', 'facility_uuid', 'facilities'),
  cascade('gate_codes', 'rental_record_uuid', 'rental_records'),
  keep('gate_codes', 'facility_uuid', 'facilities'),
  cascade('rental_promotions', 'rental_record_uuid', 'rental_records'),
  keep('rental_promotions', 'promotion_uuid', 'promotions'),
  keep('rental_promotions', 'item_type_uuid', 'item_types'),
  cascade('vehicles', 'rental_record_uuid', 'rental_records'),
  keep('vehicles', 'facility_uuid', 'facilities'),
  cascade('payments', 'rental_record_uuid', 'rental_records'),
  // The business day writes these (billing a ledger entry per charge, delinquency its stages) for every rental due:
  // the copies of ids the rental's own rows hold checked (its services' item types, promotions, facility) would
  // each cost a lookup and a shared lock on one hot parent row, for nothing the source's key does not already ensure.
  cascade('delinquencies', 'rental_record_uuid', 'rental_records'),
  cascade('gate_code_suspensions', 'rental_record_uuid', 'rental_records'),
  cascade('auctions', 'rental_record_uuid', 'rental_records'),
];

/**
 * Deleting a parent looks its children up by the referencing column: these make the lookups that had no index
 * an index probe (a rental's or a lead's delete). Sparse columns get partial indexes.
 */
const INDEXES: readonly { name: string; definition: string }[] = [
  { name: 'rental_records_lead', definition: '"rental_records" ("lead_uuid") WHERE "lead_uuid" IS NOT NULL' },
  { name: 'leads_converted_rental', definition: '"leads" ("converted_rental_record_uuid") WHERE "converted_rental_record_uuid" IS NOT NULL' },
  { name: 'leases_lead', definition: '"leases" ("lead_uuid")' },
  { name: 'leases_rental', definition: '"leases" ("rental_record_uuid") WHERE "rental_record_uuid" IS NOT NULL' },
  { name: 'notifications_person', definition: '"notifications" ("person_uuid") WHERE "person_uuid" IS NOT NULL' },
  { name: 'notifications_lease', definition: '"notifications" ("lease_uuid") WHERE "lease_uuid" IS NOT NULL' },
];

const constraintName = (relation: Relation): string => `${relation.table}_${relation.column}_fkey`;

/**
 * Foreign keys on every relation, added to databases that may hold orphans (development databases, old demo
 * re-seeds). Each key is added NOT VALID (enforced from now on for every write), then validated; a key whose table
 * holds orphans stays NOT VALID and the migration says so, with the count and the statement that validates it once
 * they are dealt with. It deletes nothing: a migration runs unattended at start, and a tenant's history whose parent
 * is missing is not its to throw away.
 */
export class ForeignKeys1795330001600 implements MigrationInterface {
  name = 'ForeignKeys1795330001600';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const relation of RELATIONS) {
      await queryRunner.query(
        `ALTER TABLE "${relation.table}" ADD CONSTRAINT "${constraintName(relation)}" FOREIGN KEY ("${relation.column}")
         REFERENCES "${relation.parent}" ("uuid") ON DELETE ${relation.onDelete} DEFERRABLE INITIALLY IMMEDIATE NOT VALID`,
      );
    }
    for (const index of INDEXES) await queryRunner.query(`CREATE INDEX "${index.name}" ON ${index.definition}`);

    const unvalidated: string[] = [];
    for (const relation of RELATIONS) {
      const name = constraintName(relation);
      // A failed VALIDATE aborts the transaction; the savepoint keeps the rest of the migration.
      await queryRunner.query('SAVEPOINT validate_foreign_key');
      try {
        await queryRunner.query(`ALTER TABLE "${relation.table}" VALIDATE CONSTRAINT "${name}"`);
        await queryRunner.query('RELEASE SAVEPOINT validate_foreign_key');
      } catch (error) {
        await queryRunner.query('ROLLBACK TO SAVEPOINT validate_foreign_key');
        if ((error as { driverError?: { code?: string } }).driverError?.code !== '23503') throw error;
        const [{ orphans }] = (await queryRunner.query(
          `SELECT count(*)::int AS orphans FROM "${relation.table}" c
            WHERE c."${relation.column}" IS NOT NULL AND NOT EXISTS (SELECT FROM "${relation.parent}" p WHERE p.uuid = c."${relation.column}")`,
        )) as { orphans: number }[];
        unvalidated.push(name);
        queryRunner.connection.logger.log(
          'warn',
          `ForeignKeys: ${orphans} row(s) of ${relation.table} refer by ${relation.column} to no row of ${relation.parent}; ` +
            `${name} is enforced for new writes but not validated. Once they are deleted or repaired: ` +
            `ALTER TABLE "${relation.table}" VALIDATE CONSTRAINT "${name}"`,
        );
      }
    }
    queryRunner.connection.logger.log(
      'log',
      `ForeignKeys: added ${RELATIONS.length} foreign keys and ${INDEXES.length} indexes; ` +
        (unvalidated.length === 0 ? 'all validated' : `${unvalidated.length} left NOT VALID (orphans, see above), nothing deleted`),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const index of [...INDEXES].reverse()) await queryRunner.query(`DROP INDEX "${index.name}"`);
    for (const relation of [...RELATIONS].reverse()) {
      await queryRunner.query(`ALTER TABLE "${relation.table}" DROP CONSTRAINT "${constraintName(relation)}"`);
    }
  }
}
