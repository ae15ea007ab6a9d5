import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PROBLEM_CONTENT_TYPE, problemFor } from './problem-details';

/** Deeper than any body of the API; a 4 KB body could otherwise nest 2,000 levels and overflow validation's stack. */
export const MAX_JSON_DEPTH = 32;

/**
 * A parsed body nested deeper than `maxDepth` is answered 400 problem+json before validation walks it (which
 * recursed until the stack overflowed, a 500). The check walks the body without recursion.
 */
export function limitJsonDepth(app: NestFastifyApplication, maxDepth = MAX_JSON_DEPTH): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('preValidation', async (request, reply) => {
      if (!nestedDeeperThan(request.body, maxDepth)) return;
      await reply
        .code(400)
        .type(PROBLEM_CONTENT_TYPE)
        .send(problemFor(400, `The JSON body is nested deeper than ${maxDepth} levels.`));
    });
}

function nestedDeeperThan(body: unknown, maxDepth: number): boolean {
  let level: unknown[] = [body];
  for (let depth = 0; level.length > 0; depth++) {
    const next: unknown[] = [];
    for (const value of level) {
      // A loop, not push(...values): a 256 KB array holds more elements than a call takes arguments.
      if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) next.push(item);
    }
    if (next.length > 0 && depth + 1 > maxDepth) return true;
    level = next;
  }
  return false;
}
