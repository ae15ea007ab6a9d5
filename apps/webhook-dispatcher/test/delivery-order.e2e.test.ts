import { deliveryOrderSuite } from './support/delivery-order-suite';

/** The embedded transport: the dispatcher follows the outbox in PostgreSQL. */
describe('delivery order per rental (embedded transport)', () => {
  deliveryOrderSuite({ start: () => Promise.resolve({}), stop: () => Promise.resolve() });
});
