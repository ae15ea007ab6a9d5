import { readFile } from 'node:fs/promises';
import { FIELD_ERROR_DETAILS, fieldErrors } from '@storage/platform';
import { plainToInstance, Type } from 'class-transformer';
import { IsArray, IsOptional, Matches, ValidateNested, validate } from 'class-validator';
import { IsRecordUuid } from '../../common/uuid';
import {
  PORTFOLIO_ID_PATTERN,
  PutAmenityRequest,
  PutItemTypeRequest,
  PutLeadSourceRequest,
  PutPortfolioRequest,
  PutRatePlanRequest,
  PutUnitTypeRequest,
} from '../catalog.dto';
import {
  PutCoverageRequest,
  PutDelinquencyScheduleRequest,
  PutFacilityRequest,
  PutPromotionRequest,
  PutSizeAndTypeGroupRequest,
  PutUnitGroupRequest,
  PutUnitRequest,
} from '../facility.dto';

/*
 * The layout of `import <file>` (tools/cli/README.md): each record is the body of its PUT operation plus the
 * `uuid` of its path, so a file and the api describe a record in the same words and are checked by the same
 * rules. Unknown fields are refused here (a misspelt field in a file would otherwise be silently left out).
 */

class PortfolioEntry extends PutPortfolioRequest {
  @Matches(new RegExp(PORTFOLIO_ID_PATTERN)) portfolioId!: string;
  /** Given to a new portfolio (else the database draws one); an existing one keeps its own. */
  @IsOptional() @IsRecordUuid() uuid?: string;
}
class UnitTypeEntry extends PutUnitTypeRequest {
  @IsRecordUuid() uuid!: string;
}
class AmenityEntry extends PutAmenityRequest {
  @IsRecordUuid() uuid!: string;
}
class RatePlanEntry extends PutRatePlanRequest {
  @IsRecordUuid() uuid!: string;
}
class ItemTypeEntry extends PutItemTypeRequest {
  @IsRecordUuid() uuid!: string;
}
class LeadSourceEntry extends PutLeadSourceRequest {
  @IsRecordUuid() uuid!: string;
}
class SizeAndTypeGroupEntry extends PutSizeAndTypeGroupRequest {
  @IsRecordUuid() uuid!: string;
}
class UnitGroupEntry extends PutUnitGroupRequest {
  @IsRecordUuid() uuid!: string;
}
class UnitEntry extends PutUnitRequest {
  @IsRecordUuid() uuid!: string;
}
class CoverageEntry extends PutCoverageRequest {
  @IsRecordUuid() uuid!: string;
}
class PromotionEntry extends PutPromotionRequest {
  @IsRecordUuid() uuid!: string;
}

const list = <T>(type: () => new () => T): PropertyDecorator => {
  return (target, key) => {
    IsOptional()(target, key);
    IsArray()(target, key);
    ValidateNested({ each: true })(target, key);
    Type(type)(target, key);
  };
};

export class FacilityEntry extends PutFacilityRequest {
  @IsRecordUuid() uuid!: string;
  @IsOptional() @ValidateNested() @Type(() => PutDelinquencyScheduleRequest) delinquencySchedule?: PutDelinquencyScheduleRequest;
  @list(() => SizeAndTypeGroupEntry) sizeAndTypeGroups?: SizeAndTypeGroupEntry[];
  @list(() => UnitGroupEntry) unitGroups?: UnitGroupEntry[];
  @list(() => UnitEntry) units?: UnitEntry[];
  @list(() => CoverageEntry) coverages?: CoverageEntry[];
  @list(() => PromotionEntry) promotions?: PromotionEntry[];
}

export class PortfolioFile {
  @ValidateNested() @Type(() => PortfolioEntry) portfolio!: PortfolioEntry;
  @list(() => UnitTypeEntry) unitTypes?: UnitTypeEntry[];
  @list(() => AmenityEntry) amenities?: AmenityEntry[];
  @list(() => RatePlanEntry) ratePlans?: RatePlanEntry[];
  @list(() => ItemTypeEntry) itemTypes?: ItemTypeEntry[];
  @list(() => LeadSourceEntry) leadSources?: LeadSourceEntry[];
  @list(() => LeadSourceEntry) leadMarketingSources?: LeadSourceEntry[];
  @list(() => FacilityEntry) facilities?: FacilityEntry[];
}

/** A file that cannot be imported as it is: nothing was written (exit 2, as a usage error). */
export class ImportRefused extends Error {
  override readonly name = 'ImportRefused';
}

/** Reads and checks the whole file before anything is written; every fault is named by its path in the file. */
export async function readPortfolioFile(file: string): Promise<PortfolioFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ImportRefused(`Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ImportRefused(`${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new ImportRefused(`${file} must hold a JSON object (see tools/cli/README.md)`);
  const parsed = plainToInstance(PortfolioFile, json);
  const faults = fieldErrors(
    await validate(parsed, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true, validationError: FIELD_ERROR_DETAILS }),
  );
  faults.push(...duplicateFaults(parsed));
  if (faults.length > 0) {
    const shown = faults.slice(0, 20).map((fault) => `  ${fault.field}: ${fault.message}`);
    throw new ImportRefused([`${file} has ${faults.length} fault(s); nothing was imported:`, ...shown, ...(faults.length > 20 ? ['  …'] : [])].join('\n'));
  }
  return parsed;
}

/** Rules across records: a uuid names one record of its kind, a unit name is its facility's once, one default coverage per facility. */
function duplicateFaults(file: PortfolioFile): { field: string; message: string }[] {
  const faults: { field: string; message: string }[] = [];
  const unique = (path: string, values: (string | undefined)[], what: string): void => {
    const seen = new Set<string>();
    values.forEach((value, index) => {
      if (value === undefined) return;
      const key = value.toLowerCase();
      if (seen.has(key)) faults.push({ field: `${path}.${index}`, message: `${what} "${value}" appears twice` });
      seen.add(key);
    });
  };
  for (const section of ['unitTypes', 'amenities', 'ratePlans', 'itemTypes', 'leadSources', 'leadMarketingSources', 'facilities'] as const) {
    unique(
      section,
      (file[section] ?? []).map((entry: { uuid?: string }) => entry.uuid),
      'uuid',
    );
  }
  (file.facilities ?? []).forEach((facility, index) => {
    for (const section of ['sizeAndTypeGroups', 'unitGroups', 'units', 'coverages', 'promotions'] as const) {
      unique(
        `facilities.${index}.${section}`,
        (facility[section] ?? []).map((entry: { uuid?: string }) => entry.uuid),
        'uuid',
      );
    }
    unique(
      `facilities.${index}.units`,
      (facility.units ?? []).map((unit) => unit.name),
      'unit name',
    );
    if ((facility.coverages ?? []).filter((coverage) => coverage.isDefault === true).length > 1) {
      faults.push({ field: `facilities.${index}.coverages`, message: 'at most one coverage may be the default' });
    }
  });
  return faults;
}
