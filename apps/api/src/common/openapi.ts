import { applyDecorators, Header } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiProduces } from '@nestjs/swagger';

/** Operations whose answer is a bare JSON string (operations 13 and 14). */
export const JsonStringResponse = (description: string): MethodDecorator =>
  applyDecorators(
    Header('content-type', 'application/json; charset=utf-8'),
    ApiProduces('application/json'),
    ApiOkResponse({ description, schema: { type: 'string' } }),
  );

/**
 * Routes that validate their parameters. Bodies need no declaration: every route taking one may answer 400
 * (src/openapi/problem-responses.ts).
 */
export const ApiInvalidResponse = (): MethodDecorator & ClassDecorator =>
  ApiBadRequestResponse({ description: 'Invalid input; `errors` names each field at fault.' });

/** Body already serialized by PostgreSQL (json_agg): sent as is. */
export const PrebuiltJson = (): MethodDecorator => Header('content-type', 'application/json; charset=utf-8');
