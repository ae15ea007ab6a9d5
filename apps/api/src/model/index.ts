import { Payment } from '@storage/rental-ledger';
import { CoverageEnrollment, GateCode, RentalRecord, RentalService, Vehicle } from '@storage/rentals';
import { Unit, UnitGroup } from '@storage/unit-occupancy';
import { Amenity } from './amenity.entity';
import { ApiKey } from './api-key.entity';
import { Coverage } from './coverage.entity';
import { Facility } from './facility.entity';
import { ItemType } from './item-type.entity';
import { Lead } from './lead.entity';
import { LeadMarketingSource, LeadSource } from './lead-source.entity';
import { Lease } from './lease.entity';
import { Note } from './note.entity';
import { Notification } from './notification.entity';
import { Person } from './person.entity';
import { Portfolio } from './portfolio.entity';
import { PromotionRecord } from './promotion.entity';
import { RatePlan } from './rate-plan.entity';
import { RentalPromotion } from './rental-promotion.entity';
import { SizeAndTypeGroup } from './size-and-type-group.entity';
import { UnitGroupAmenity } from './unit-group-amenity.entity';
import { UnitType } from './unit-type.entity';
import { TenantVerificationCode } from './verification-code.entity';

/**
 * The entities of the api's DataSource: the tables the api owns, and those of the owners it writes through
 * (rentals, unit occupancy, the ledger's payments), whose entities live next to their writers.
 */
export const API_ENTITIES = [
  Amenity,
  ApiKey,
  Coverage,
  CoverageEnrollment,
  Facility,
  GateCode,
  ItemType,
  Lead,
  LeadMarketingSource,
  LeadSource,
  Lease,
  Note,
  Notification,
  Payment,
  Person,
  Portfolio,
  PromotionRecord,
  RatePlan,
  RentalPromotion,
  RentalRecord,
  RentalService,
  SizeAndTypeGroup,
  Unit,
  UnitGroup,
  UnitGroupAmenity,
  UnitType,
  TenantVerificationCode,
  Vehicle,
];
