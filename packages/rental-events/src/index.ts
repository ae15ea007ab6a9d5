export { loadRentalEventContext, type RentalEventContext, type SqlRunner } from './rental-event-context';
export { rentalEnvelope, type AddedObject } from './rental-envelope';
