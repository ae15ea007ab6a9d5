import { HttpStatus, type ArgumentsHost } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { ProblemDetailsFilter, TypedProblemException } from '../src';

/** What the filter answers for an error thrown by a route. */
function answer(exception: unknown): { status: number; headers: Record<string, string>; body: { status: number; detail: string } } {
  const sent = { status: 0, headers: {} as Record<string, string>, body: undefined as unknown };
  const reply = {
    status: (status: number) => ((sent.status = status), reply),
    header: (name: string, value: string) => ((sent.headers[name] = value), reply),
    send: (body: unknown) => ((sent.body = body), reply),
  };
  const host = { switchToHttp: () => ({ getResponse: () => reply }) } as unknown as ArgumentsHost;
  new ProblemDetailsFilter().catch(exception, host);
  return sent as ReturnType<typeof answer>;
}

const databaseError = (code: string): QueryFailedError => new QueryFailedError('UPDATE …', [], Object.assign(new Error(`failed ${code}`), { code }));

describe('problem+json for failures that pass', () => {
  it.each(['40P01', '40001'])('answers a lost race (%s) 503 with Retry-After, not 500', (code) => {
    const reply = answer(databaseError(code));
    expect(reply.status).toBe(503);
    expect(reply.headers).toMatchObject({ 'retry-after': '1', 'content-type': 'application/problem+json' });
    expect(reply.body).toMatchObject({ status: 503, detail: expect.stringContaining('send it again') });
  });

  it.each(['08006', '57P01', 'ECONNREFUSED'])('answers the database away (%s) 503 with Retry-After', (code) => {
    expect(answer(databaseError(code))).toMatchObject({ status: 503, headers: { 'retry-after': '1' } });
  });

  // A statement cut by the operator's statement_timeout, a standby or a database set read-only, a lock waited for too long.
  it.each(['57014', '25006', '55P03'])('answers a database that cannot serve the request for now (%s) 503 with Retry-After', (code) => {
    const reply = answer(databaseError(code));
    expect(reply).toMatchObject({ status: 503, headers: { 'retry-after': '1', 'content-type': 'application/problem+json' } });
    expect(reply.body.detail).toMatch(/send (it|the request) again/);
  });

  // What node-postgres and pg-pool throw, with no code, when the connection is lost or cannot be had.
  it.each(['Client has encountered a connection error and is not queryable', 'Connection terminated unexpectedly', 'timeout exceeded when trying to connect'])(
    'answers a lost connection ("%s") 503 with Retry-After',
    (message) => {
      const reply = answer(new QueryFailedError('INSERT …', [], new Error(message)));
      expect(reply).toMatchObject({ status: 503, headers: { 'retry-after': '1', 'content-type': 'application/problem+json' } });
    },
  );

  // PostgreSQL's class 53: the disk full (a write that needs a new page), memory or connection slots run out.
  it.each(['53100', '53200', '53000'])('answers the database out of resources (%s) 503, asking to wait longer', (code) => {
    const reply = answer(databaseError(code));
    expect(reply).toMatchObject({ status: 503, headers: { 'retry-after': '30', 'content-type': 'application/problem+json' } });
    expect(reply.body.detail).toBe('The database has run out of disk space or memory; send the request again later.');
  });

  it('answers any other failure 500, without its details', () => {
    const reply = answer(databaseError('23505'));
    expect(reply.status).toBe(500);
    expect(reply.headers['retry-after']).toBeUndefined();
    expect(reply.body.detail).toBe('An unexpected error occurred.');
  });
});

describe('problem+json for a failure of a named kind', () => {
  it('answers its type and title instead of about:blank and the status phrase', () => {
    const reply = answer(new TypedProblemException('tag:example,2026:problems/late', 'Too late', HttpStatus.CONFLICT, 'It is too late.'));
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({ type: 'tag:example,2026:problems/late', title: 'Too late', status: 409, detail: 'It is too late.' });
  });
});
