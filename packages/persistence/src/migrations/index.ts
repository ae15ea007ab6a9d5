import type { MigrationInterface } from 'typeorm';
import { MessagingBackbone1795316531611 } from './1795316531611-MessagingBackbone';
import { WebhookDelivery1795316689622 } from './1795316689622-WebhookDelivery';
import { ShoppingAndPortfolio1795316772861 } from './1795316772861-ShoppingAndPortfolio';
import { DelinquencyAndAuctions1795316984386 } from './1795316984386-DelinquencyAndAuctions';
import { RentalLifecycle1795317670527 } from './1795317670527-RentalLifecycle';
import { UnitGroupStatsIndex1795319174987 } from './1795319174987-UnitGroupStatsIndex';
import { UnitGroupOccupancy1795330000000 } from './1795330000000-UnitGroupOccupancy';
import { OutboxRetention1795330000100 } from './1795330000100-OutboxRetention';
import { RentalPromotions1795330000300 } from './1795330000300-RentalPromotions';
import { UnitGroupRentChanges1795330000600 } from './1795330000600-UnitGroupRentChanges';
import { RentalLedger1795330000800 } from './1795330000800-RentalLedger';
import { LedgerOldestOpenCharge1795330000900 } from './1795330000900-LedgerOldestOpenCharge';
import { NotificationSecrets1795330001100 } from './1795330001100-NotificationSecrets';
import { RentalAutopay1795330001200 } from './1795330001200-RentalAutopay';
import { ApiRateLimits1795330001340 } from './1795330001340-ApiRateLimits';
import { AdminApiKeys1795330001400 } from './1795330001400-AdminApiKeys';
import { RentalRecordsHotUpdates1795330001500 } from './1795330001500-RentalRecordsHotUpdates';
import { ForeignKeys1795330001600 } from './1795330001600-ForeignKeys';
import { LedgerMovesNextDueDate1795330002200 } from './1795330002200-LedgerMovesNextDueDate';
import { GeneratedColumnExpressions1795330002400 } from './1795330002400-GeneratedColumnExpressions';
import { DelinquencyRunsGoWithFacility1795330002650 } from './1795330002650-DelinquencyRunsGoWithFacility';
import { LedgerWalksOpenChargesOnly1795330002700 } from './1795330002700-LedgerWalksOpenChargesOnly';
import { LedgerChargesSkipTheWalk1795330002800 } from './1795330002800-LedgerChargesSkipTheWalk';
import { OutboxEnvelopesAsWritten1795330002900 } from './1795330002900-OutboxEnvelopesAsWritten';
import { LedgerPostsJson1795330003000 } from './1795330003000-LedgerPostsJson';
import { OutboxPublishedByPosition1795330003100 } from './1795330003100-OutboxPublishedByPosition';
import { RelayPerTopic1795330003200 } from './1795330003200-RelayPerTopic';
import { LeadRequestFingerprints1795330003300 } from './1795330003300-LeadRequestFingerprints';
import { LedgerRentalCheckedByBalanceTrigger1795330003400 } from './1795330003400-LedgerRentalCheckedByBalanceTrigger';
import { LeaseSigningTokenHashes1795330003500 } from './1795330003500-LeaseSigningTokenHashes';
import { OrderedDelivery1795330003600 } from './1795330003600-OrderedDelivery';
import { ListenSessions1795330003700 } from './1795330003700-ListenSessions';
import { PendingMessagePlans1795330003800 } from './1795330003800-PendingMessagePlans';
import { EndpointRoomAcrossReplicas1795330003900 } from './1795330003900-EndpointRoomAcrossReplicas';
import { LedgerForeignKeyRestored1795330004000 } from './1795330004000-LedgerForeignKeyRestored';

/**
 * Every migration of the system, in the order they run. A list rather than a glob over the built files: a built
 * migration whose source is gone (deleted, or on a branch switched away from) stays in dist, since tsc never removes
 * an output and turbo's cache restores over what is there, and a glob would run it. `npm run migration:generate`
 * adds what it writes; test `migration-list` checks the list against the sources.
 */
export const MIGRATIONS: (new () => MigrationInterface)[] = [
  MessagingBackbone1795316531611,
  WebhookDelivery1795316689622,
  ShoppingAndPortfolio1795316772861,
  DelinquencyAndAuctions1795316984386,
  RentalLifecycle1795317670527,
  UnitGroupStatsIndex1795319174987,
  UnitGroupOccupancy1795330000000,
  OutboxRetention1795330000100,
  RentalPromotions1795330000300,
  UnitGroupRentChanges1795330000600,
  RentalLedger1795330000800,
  LedgerOldestOpenCharge1795330000900,
  NotificationSecrets1795330001100,
  RentalAutopay1795330001200,
  ApiRateLimits1795330001340,
  AdminApiKeys1795330001400,
  RentalRecordsHotUpdates1795330001500,
  ForeignKeys1795330001600,
  LedgerMovesNextDueDate1795330002200,
  GeneratedColumnExpressions1795330002400,
  DelinquencyRunsGoWithFacility1795330002650,
  LedgerWalksOpenChargesOnly1795330002700,
  LedgerChargesSkipTheWalk1795330002800,
  OutboxEnvelopesAsWritten1795330002900,
  LedgerPostsJson1795330003000,
  OutboxPublishedByPosition1795330003100,
  RelayPerTopic1795330003200,
  LeadRequestFingerprints1795330003300,
  LedgerRentalCheckedByBalanceTrigger1795330003400,
  LeaseSigningTokenHashes1795330003500,
  OrderedDelivery1795330003600,
  ListenSessions1795330003700,
  PendingMessagePlans1795330003800,
  EndpointRoomAcrossReplicas1795330003900,
  LedgerForeignKeyRestored1795330004000,
];
