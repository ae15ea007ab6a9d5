import { HttpException } from '@nestjs/common';
import { InvalidRequestException } from '@storage/platform';
import type { DataSource, EntityManager } from 'typeorm';
import type { Outcome } from '../catalog.dto';
import { CatalogService } from '../catalog.service';
import { FacilitySetupService, type FacilityScope } from '../facility-setup.service';
import { ImportRefused, type FacilityEntry, type PortfolioFile } from './portfolio-file';

export interface ImportOptions {
  /** Check everything against the database and report, then roll back. */
  dryRun: boolean;
  log: (line: string) => void;
}

export type ImportCounts = Record<Outcome, number>;

/** Rolls a dry run back once everything was written and counted. */
class DryRunDone extends Error {}

/**
 * Writes a checked portfolio file through the services of the api's onboarding operations (one write path), in
 * one transaction: a refused record leaves the database as it was. Records are written in the order their
 * references need; each says whether it was created, updated or already so, so a rerun reports nothing changed.
 */
export async function importPortfolio(dataSource: DataSource, file: PortfolioFile, options: ImportOptions): Promise<ImportCounts> {
  let counts: ImportCounts = { created: 0, updated: 0, unchanged: 0 };
  try {
    await dataSource.transaction(async (db) => {
      counts = await writePortfolio(db, file, options.log);
      if (options.dryRun) throw new DryRunDone();
    });
  } catch (error) {
    if (!(error instanceof DryRunDone)) throw error;
  }
  return counts;
}

/** The import's writes in the caller's transaction (the demo seed's, which goes on with the tenants). */
export async function writePortfolio(db: EntityManager, file: PortfolioFile, log: (line: string) => void): Promise<ImportCounts> {
  const counts: ImportCounts = { created: 0, updated: 0, unchanged: 0 };
  await new PortfolioImport(db, counts, log).run(file);
  return counts;
}

const PROGRESS_EVERY = 1000;

class PortfolioImport {
  private readonly catalog = new CatalogService();
  private readonly facilities = new FacilitySetupService();
  private written = 0;

  constructor(
    private readonly db: EntityManager,
    private readonly counts: ImportCounts,
    private readonly log: (line: string) => void,
  ) {}

  async run(file: PortfolioFile): Promise<void> {
    const portfolio = await this.record('portfolio', async () => {
      const result = await this.catalog.putPortfolio(this.db, file.portfolio.portfolioId, { name: file.portfolio.name }, file.portfolio.uuid);
      this.count(result.outcome);
      return result;
    });
    this.log(`portfolio ${portfolio.portfolioId}: ${portfolio.outcome}`);
    const at = portfolio.uuid;
    await this.section('unitTypes', file.unitTypes, (entry) => this.catalog.putUnitType(this.db, at, entry.uuid, entry));
    await this.section('amenities', file.amenities, (entry) => this.catalog.putAmenity(this.db, at, entry.uuid, entry));
    await this.section('ratePlans', file.ratePlans, (entry) => this.catalog.putRatePlan(this.db, at, entry.uuid, entry));
    await this.section('itemTypes', file.itemTypes, (entry) => this.catalog.putItemType(this.db, at, entry.uuid, entry));
    await this.section('leadSources', file.leadSources, (entry) => this.catalog.putLeadSource(this.db, at, entry.uuid, entry));
    await this.section('leadMarketingSources', file.leadMarketingSources, (entry) => this.catalog.putLeadMarketingSource(this.db, at, entry.uuid, entry));
    for (const [index, facility] of (file.facilities ?? []).entries()) await this.facility(at, index, facility);
  }

  private async facility(portfolioUuid: string, index: number, entry: FacilityEntry): Promise<void> {
    const path = `facilities.${index}`;
    const before = { ...this.counts };
    const { uuid, delinquencySchedule, sizeAndTypeGroups, unitGroups, units, coverages, promotions, ...body } = entry;
    await this.record(path, async () => this.count(await this.facilities.putFacility(this.db, portfolioUuid, uuid, body)));
    const scope: FacilityScope = { portfolioUuid, facilityUuid: uuid };
    if (delinquencySchedule !== undefined) {
      await this.record(`${path}.delinquencySchedule`, async () =>
        this.count(await this.facilities.putDelinquencySchedule(this.db, scope, delinquencySchedule)),
      );
    }
    await this.section(
      `${path}.sizeAndTypeGroups`,
      sizeAndTypeGroups,
      (group) => this.facilities.putSizeAndTypeGroup(this.db, scope, group.uuid, group),
      false,
    );
    await this.section(
      `${path}.unitGroups`,
      unitGroups,
      async (group) => (await this.facilities.putUnitGroup(this.db, scope, group.uuid, group)).outcome,
      false,
    );
    await this.section(`${path}.units`, units, (unit) => this.facilities.putUnit(this.db, scope, unit.uuid, unit), false);
    await this.section(`${path}.coverages`, coverages, (coverage) => this.facilities.putCoverage(this.db, scope, coverage.uuid, coverage), false);
    await this.section(`${path}.promotions`, promotions, (promotion) => this.facilities.putPromotion(this.db, scope, promotion.uuid, promotion), false);
    const records = (['created', 'updated', 'unchanged'] as const).map((outcome) => this.counts[outcome] - before[outcome]);
    this.log(`facility ${entry.name} (${uuid}): ${units?.length ?? 0} units; ${describe({ created: records[0], updated: records[1], unchanged: records[2] })}`);
  }

  /** Writes a list of records, counting their outcomes; a portfolio-wide list reports its own line. */
  private async section<T>(path: string, entries: T[] | undefined, put: (entry: T) => Promise<Outcome>, report = true): Promise<void> {
    const before = { ...this.counts };
    for (const [index, entry] of (entries ?? []).entries()) {
      await this.record(`${path}.${index}`, async () => this.count(await put(entry)));
    }
    if (report) {
      this.log(
        `${path}: ${describe({ created: this.counts.created - before.created, updated: this.counts.updated - before.updated, unchanged: this.counts.unchanged - before.unchanged })}`,
      );
    }
  }

  private count(outcome: Outcome): void {
    this.counts[outcome] += 1;
    this.written += 1;
    if (this.written % PROGRESS_EVERY === 0) this.log(`… ${this.written} records`);
  }

  /** A record the api would refuse (400, 404, 409) is the file's fault: named by its path, nothing written. */
  private async record<T>(path: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof InvalidRequestException)
        throw new ImportRefused(`${path}: ${error.fieldErrors.map((fault) => fault.message).join('; ')}; nothing was imported`);
      if (error instanceof HttpException) throw new ImportRefused(`${path}: ${error.message}; nothing was imported`);
      throw error;
    }
  }
}

/** "2 created, 1 updated, 5 unchanged", leaving out the zeros ("nothing" when all are). */
export function describe(counts: ImportCounts): string {
  const parts = (['created', 'updated', 'unchanged'] as const).filter((outcome) => counts[outcome] > 0).map((outcome) => `${counts[outcome]} ${outcome}`);
  return parts.length === 0 ? 'nothing' : parts.join(', ');
}
