export {
  loadRentalEventContext,
  RENTAL_EVENT_CONTEXT_COLUMNS,
  RENTAL_EVENT_CONTEXT_JOINS,
  rentalEventContextOf,
  type RentalEventContext,
  type RentalEventContextRow,
} from './rental-event-context';
export { rentalEnvelope, type AddedObject } from './rental-envelope';
