import type { ChargeOutcome, ChargeRequest, PaymentPort } from './payment.port';

/**
 * Test payment methods the embedded port declines, with the decline code, as card processors' test cards do
 * (Stripe's `pm_card_chargeDeclined`…): so a declined autopay can be tried end to end.
 */
export const DECLINING_TEST_METHODS: ReadonlyMap<string, string> = new Map([
  ['pm_card_declined', 'card_declined'],
  ['pm_card_insufficient_funds', 'insufficient_funds'],
]);

/**
 * The payment port without a processor: approves every method but the declining test methods. It takes no money,
 * so its answer is a function of the request alone: a repeated idempotency key gets the same answer and reference
 * without anything to remember.
 */
export class EmbeddedPaymentPort implements PaymentPort {
  charge(request: ChargeRequest): Promise<ChargeOutcome> {
    const reason = DECLINING_TEST_METHODS.get(request.paymentMethod);
    return Promise.resolve(reason === undefined ? { status: 'APPROVED', reference: `embedded:${request.idempotencyKey}` } : { status: 'DECLINED', reason });
  }
}
