import { humanLine } from '../src/human-log';

const at = Date.parse('2026-11-23T21:07:40.123Z');

describe('a service log line in a terminal', () => {
  it('is time, level, context and message', () => {
    expect(humanLine(JSON.stringify({ level: 40, time: at, service: 'api', context: 'ProblemDetails', msg: 'answered 503: failed 40001' }))).toBe(
      '21:07:40 warn  ProblemDetails: answered 503: failed 40001',
    );
  });

  it('names the cause of an error when the message does not', () => {
    expect(humanLine(JSON.stringify({ level: 50, time: at, msg: 'relay paused', err: { message: 'connect ECONNREFUSED' } }))).toBe(
      '21:07:40 error relay paused (connect ECONNREFUSED)',
    );
  });

  it('is one short line per request', () => {
    const line = JSON.stringify({
      level: 30,
      time: at,
      req: { id: 'x', method: 'GET', url: '/api/portfolios' },
      res: { statusCode: 200 },
      responseTime: 4,
      msg: 'request completed',
    });
    expect(humanLine(line)).toBe('21:07:40 GET /api/portfolios → 200 (4 ms)');
  });

  it("leaves out Nest's start-up chatter, but not its warnings", () => {
    expect(humanLine(JSON.stringify({ level: 30, time: at, context: 'RouterExplorer', msg: 'Mapped {/api/portfolios, GET} route' }))).toBeNull();
    expect(humanLine(JSON.stringify({ level: 40, time: at, context: 'NestApplication', msg: 'deprecated' }))).toBe(
      '21:07:40 warn  NestApplication: deprecated',
    );
  });

  it('keeps anything that is not a JSON log line as it is', () => {
    for (const line of ['(node:1) [FSTDEP022] FastifyWarning: …', '{not json', '{"no":"level"}', '']) expect(humanLine(line)).toBe(line);
  });
});
