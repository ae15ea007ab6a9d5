import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { InvalidRequestException } from '@storage/platform';
import { nameBasedUuid } from './name-based-uuid';
import type { FastifyReply } from 'fastify';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set on an answer repeated for a retry, as Stripe does: nothing was recorded by this request. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/** Printable ASCII without spaces, as a UUID or an order number is; as long as Stripe allows. */
const KEY = /^[\x21-\x7e]{1,255}$/;

/** The request's optional `Idempotency-Key` header: 400 naming it when present and not a key. */
export const IdempotencyKey = createParamDecorator((_: unknown, context: ExecutionContext): string | undefined => {
  const value = context.switchToHttp().getRequest<{ headers: Record<string, unknown> }>().headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !KEY.test(value)) {
    throw new InvalidRequestException([
      { field: IDEMPOTENCY_KEY_HEADER, message: `${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 printable ASCII characters, without spaces` },
    ]);
  }
  return value;
});

/** The header in the OpenAPI document, for an operation that creates `what` ('payment', 'lead'). */
export const ApiIdempotencyKey = (what: string): MethodDecorator =>
  ApiHeader({
    name: IDEMPOTENCY_KEY_HEADER,
    required: false,
    description:
      `A key of your own for this ${what} (a UUID, say). Sent again with the same request, as after a time-out, the ${what} is ` +
      `not created twice: the answer is the first one's, with \`${IDEMPOTENT_REPLAYED_HEADER}: true\`. Keys are kept per portfolio, forever.`,
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  });

/** The `Idempotent-Replayed` header of the operation's 200 answer, for `ApiOkResponse`'s `headers`: `repeated` says what. */
export const replayedHeaderDoc = (repeated: string) => ({
  [IDEMPOTENT_REPLAYED_HEADER]: {
    description: `\`true\` when the answer repeats the ${repeated} under the Idempotency-Key.`,
    schema: { type: 'string', enum: ['true'] },
  },
});

/** Marks an answer that repeats the one given first under the request's key. */
export function markReplayed(reply: FastifyReply, replayed: boolean): void {
  if (replayed) void reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
}

/** The uuid of the `kind` of record ('payment', 'lead') a key creates in a portfolio: the same for every retry. */
export const keyedUuid = (kind: string, portfolioUuid: string, idempotencyKey: string): string => nameBasedUuid(`${kind}:${portfolioUuid}:${idempotencyKey}`);
