import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { fieldWithNul, nulMessage } from './nul-field';
import { PROBLEM_CONTENT_TYPE, problemFor, type FieldError } from './problem-details';

/**
 * PostgreSQL text cannot hold a NUL character (U+0000): a string with one fails in the database, as a 500. Every
 * request's path parameters and query are searched before the route runs (the API key guard reads `{portfolio}`),
 * and one holding it is answered 400 problem+json naming the field. Bodies are searched by the validation pipe
 * (`createValidationPipe`) once unknown fields are stripped: a field the API ignores may hold anything.
 */
export function refuseNulCharacters(app: NestFastifyApplication): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('preValidation', async (request, reply) => {
      const field = [request.params, request.query].map((part) => fieldWithNul(part)).find((found) => found !== null);
      if (field === undefined || field === null) return;
      const errors: FieldError[] = [{ field, message: nulMessage(field) }];
      await reply
        .code(400)
        .type(PROBLEM_CONTENT_TYPE)
        .send(problemFor(400, 'The request has invalid fields.', errors));
    });
}
