import { STATUS_CODES } from 'node:http';
import {
  ArgumentsHost,
  BadRequestException,
  Catch,
  HttpException,
  HttpStatus,
  Logger,
  ValidationPipe,
  type ArgumentMetadata,
  type ExceptionFilter,
  type ValidationError,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { passingFailureOf, type PassingFailure } from '@storage/persistence';
import { fieldWithNul, nulMessage } from './nul-field';
import { shorten } from './shorten';

/** One field at fault in a request. */
export interface FieldError {
  field: string;
  message: string;
}

/** RFC 9457 problem details, the body of every failure. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: FieldError[];
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/**
 * A 400 naming the fields at fault. Thrown by the validation pipe and by any code that checks input
 * itself, so every validation failure has the same shape.
 */
export class InvalidRequestException extends BadRequestException {
  constructor(
    readonly fieldErrors: FieldError[],
    detail = 'The request has invalid fields.',
  ) {
    super({ detail, errors: fieldErrors });
  }
}

/**
 * A failure a client may act on by its reason rather than its status (a 409 for a delinquent rental): `type`
 * names the reason, `title` summarises it, and both are documented with the route.
 */
export class TypedProblemException extends HttpException {
  constructor(
    readonly problemType: string,
    readonly problemTitle: string,
    status: HttpStatus,
    detail: string,
  ) {
    super({ detail }, status);
  }
}

/**
 * What class-validator puts in the errors `fieldErrors` reads: the value tells a field left out from one sent wrong,
 * and is never echoed (fieldErrors sends messages only).
 */
export const FIELD_ERROR_DETAILS = { target: false, value: true } as const;

/**
 * Flattens class-validator errors (made with FIELD_ERROR_DETAILS) to `field.path: message` pairs, nested objects and
 * arrays included. A field left out is named once, as required: its absent value breaks every rule it has (an
 * integer, at least 1, at most…).
 */
export function fieldErrors(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const messages = Object.values(error.constraints ?? {});
    const own = error.value === undefined && messages.length > 0 ? [`${field} is required`] : messages;
    return [...own.map((message) => ({ field, message })), ...fieldErrors(error.children ?? [], field)];
  });
}

/**
 * Refuses a NUL character (PostgreSQL text cannot hold one) in a body once validated: after unknown fields are
 * stripped, so only what the route reads is refused, as the OpenAPI document (which allows other fields) says.
 */
class BodyValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const transformed: unknown = await super.transform(value, metadata);
    const field = metadata.type === 'body' ? fieldWithNul(transformed) : null;
    if (field !== null) throw new InvalidRequestException([{ field, message: nulMessage(field) }]);
    return transformed;
  }
}

/**
 * The pipe every service uses: transforms to the DTO class, strips unknown fields, and answers
 * invalid input with a problem naming each field (a NUL character included).
 */
export function createValidationPipe(): ValidationPipe {
  return new BodyValidationPipe({
    transform: true,
    whitelist: true,
    forbidUnknownValues: true,
    validationError: FIELD_ERROR_DETAILS,
    exceptionFactory: (errors) => {
      const found = fieldErrors(errors);
      return new InvalidRequestException(found.length > 0 ? found : [{ field: 'body', message: 'must be a JSON object' }]);
    },
  });
}

/** Longest detail or field message sent: they may quote what was sent (a path, a key, a value), up to 256 KB. */
const MAX_MESSAGE_LENGTH = 500;
const MAX_FIELD_LENGTH = 200;

export function problemFor(status: number, detail: string, errors?: FieldError[]): ProblemDetails {
  const cutErrors = errors?.map((error) => ({ field: shorten(error.field, MAX_FIELD_LENGTH), message: shorten(error.message, MAX_MESSAGE_LENGTH) }));
  return {
    type: 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail: shorten(detail, MAX_MESSAGE_LENGTH),
    ...(cutErrors && cutErrors.length > 0 ? { errors: cutErrors } : {}),
  };
}

/**
 * Answers every failure as `application/problem+json`: HTTP exceptions keep their status, Fastify's own
 * errors (body too large, unsupported media type, malformed JSON) arrive here as HttpExceptions, and
 * anything else is a 500 whose details stay in the log.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemDetails');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const passing = passingFailureOf(exception);
    const problem = passing === undefined ? this.toProblem(exception) : this.passingProblem(passing, exception);
    if (problem.status === 503)
      void reply.header('retry-after', String(passing === undefined ? RETRY_AFTER_SECONDS : PASSING_FAILURE_ANSWERS[passing].retryAfterSeconds));
    for (const [name, value] of Object.entries(headersOf(exception))) void reply.header(name, value);
    void reply.status(problem.status).header('content-type', PROBLEM_CONTENT_TYPE).send(problem);
  }

  private passingProblem(passing: PassingFailure, exception: unknown): ProblemDetails {
    // Out of disk space or memory waits for an operator; an outage or a race passes by itself.
    const log = passing === 'exhausted' ? 'error' : 'warn';
    this.logger[log](`answered 503: ${exception instanceof Error ? exception.message : String(exception)}`);
    return problemFor(HttpStatus.SERVICE_UNAVAILABLE, PASSING_FAILURE_ANSWERS[passing].detail);
  }

  private toProblem(exception: unknown): ProblemDetails {
    if (exception instanceof InvalidRequestException) {
      return problemFor(HttpStatus.BAD_REQUEST, 'The request has invalid fields.', exception.fieldErrors);
    }
    if (exception instanceof TypedProblemException) {
      return { ...problemFor(exception.getStatus(), detailOf(exception)), type: exception.problemType, title: exception.problemTitle };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      return problemFor(status, detailOf(exception), errorsOf(exception));
    }
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    return problemFor(HttpStatus.INTERNAL_SERVER_ERROR, 'An unexpected error occurred.');
  }
}

/** How long a client is asked to wait before trying again a request answered 503. */
const RETRY_AFTER_SECONDS = 1;

/** What a client is told of a failure that passes if the same request is sent again (`passingFailureOf`). */
const PASSING_FAILURE_ANSWERS: Record<PassingFailure, { detail: string; retryAfterSeconds: number }> = {
  collision: { detail: 'The request collided with another one changing the same data; send it again.', retryAfterSeconds: RETRY_AFTER_SECONDS },
  unavailable: {
    detail: 'The database is not reachable, or cannot serve the request, at the moment; send the request again.',
    retryAfterSeconds: RETRY_AFTER_SECONDS,
  },
  // A full disk waits for an operator: clients are asked not to hammer it meanwhile.
  exhausted: { detail: 'The database has run out of disk space or memory; send the request again later.', retryAfterSeconds: 30 },
};

function detailOf(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const body = response as { detail?: unknown; message?: unknown };
  if (typeof body.detail === 'string') return body.detail;
  if (typeof body.message === 'string') return body.message;
  if (Array.isArray(body.message)) return body.message.map(String).join('; ');
  return exception.message;
}

/** Headers an HttpException asks for (`{ headers: { 'retry-after': '3' } }` in its response: a 429's Retry-After). */
function headersOf(exception: unknown): Record<string, string> {
  if (!(exception instanceof HttpException)) return {};
  const headers = (exception.getResponse() as { headers?: unknown } | null)?.headers;
  if (typeof headers !== 'object' || headers === null) return {};
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

function errorsOf(exception: HttpException): FieldError[] | undefined {
  const response = exception.getResponse();
  if (typeof response !== 'object' || response === null) return undefined;
  const errors = (response as { errors?: unknown }).errors;
  return Array.isArray(errors) ? (errors as FieldError[]) : undefined;
}
