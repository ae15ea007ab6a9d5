/** The Nest token of the payment port. */
export const PAYMENT_PORT = Symbol('PAYMENT_PORT');

export interface ChargeRequest {
  /**
   * The same key is the same charge: a processor answers a repeated key with its first answer and never charges
   * twice (as Stripe's `Idempotency-Key`), so a run that crashed before recording the answer asks again safely.
   */
  idempotencyKey: string;
  paymentMethod: string;
  amountInPennies: number;
  description: string;
}

export type ChargeOutcome = { status: 'APPROVED'; reference: string } | { status: 'DECLINED'; reason: string };

/**
 * Where autopay takes the money: a payment processor's adapter. Refusals of the method (a declined card) are
 * answers; a failure to get an answer (the processor unreachable) is thrown, and the charge is asked again later
 * with the same idempotency key.
 */
export interface PaymentPort {
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
}
