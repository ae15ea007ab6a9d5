import 'reflect-metadata';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { Body, Controller, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpAdapter, ProblemDetailsFilter } from '../src';

const BODY_LIMIT = 64 * 1024;

@Controller()
class EchoController {
  @Post('echo')
  echo(@Body() body: unknown): unknown {
    return body;
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

let app: NestFastifyApplication;
beforeAll(async () => {
  app = await NestFactory.create<NestFastifyApplication>(EchoModule, createHttpAdapter({ bodyLimit: BODY_LIMIT }), { logger: false });
  app.useGlobalFilters(new ProblemDetailsFilter());
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
});
afterAll(async () => app.close());

const NOTE = { noteText: 'Gate code changed', tags: ['gate'] };
const JSON_BYTES = Buffer.from(JSON.stringify(NOTE));

async function post(
  payload: Buffer,
  headers: Record<string, string>,
): Promise<{ status: number; type: string; body: Record<string, unknown>; headers: Record<string, unknown> }> {
  const reply = await app.inject({ method: 'POST', url: '/echo', payload, headers: { 'content-type': 'application/json', ...headers } });
  return { status: reply.statusCode, type: String(reply.headers['content-type']), body: reply.json(), headers: reply.headers };
}

function expectProblem(reply: Awaited<ReturnType<typeof post>>, status: number, detail: RegExp): void {
  expect({ status: reply.status, type: reply.type, detail: reply.body.detail }).toEqual({
    status,
    type: expect.stringMatching(/^application\/problem\+json/),
    detail: expect.stringMatching(detail),
  });
}

describe('a body in the Content-Encoding it declares', () => {
  it.each([
    ['gzip', gzipSync(JSON_BYTES)],
    ['GZip', gzipSync(JSON_BYTES)],
    ['x-gzip', gzipSync(JSON_BYTES)],
    ['deflate', deflateSync(JSON_BYTES)],
    ['br', brotliCompressSync(JSON_BYTES)],
    ['identity', JSON_BYTES],
  ])('is decoded when it is %s', async (encoding, payload) => {
    const reply = await post(payload, { 'content-encoding': encoding });
    expect([reply.status, reply.body]).toEqual([201, NOTE]);
  });

  it.each(['gzip', 'deflate', 'br'])('is 400 problem+json when it says %s but is plain JSON, never read as plain', async (encoding) => {
    expectProblem(await post(JSON_BYTES, { 'content-encoding': encoding }), 400, new RegExp(`not valid ${encoding}`));
  });

  it('is 400 when the gzip stream is cut short', async () => {
    const gzipped = gzipSync(JSON_BYTES);
    expectProblem(await post(gzipped.subarray(0, gzipped.length - 4), { 'content-encoding': 'gzip' }), 400, /not valid gzip/);
  });

  it('is 413 when it decodes to more than the body limit, as a plain body would be', async () => {
    const large = Buffer.from(JSON.stringify({ noteText: 'x'.repeat(BODY_LIMIT) }));
    expect(await post(large, {}).then((reply) => reply.status)).toBe(413);
    expectProblem(await post(gzipSync(large), { 'content-encoding': 'gzip' }), 413, /too large/);
    expectProblem(await post(brotliCompressSync(large), { 'content-encoding': 'br' }), 413, /too large/);
  });

  it.each(['compress', 'zstd', 'gzip, br', 'identity, gzip', 'constructor'])('is 415 naming the codings taken when it is %s', async (encoding) => {
    const reply = await post(JSON_BYTES, { 'content-encoding': encoding });
    expectProblem(reply, 415, /gzip, deflate, br/);
    expect(reply.headers['accept-encoding']).toBe('gzip, deflate, br');
  });
});

describe('a gzip bomb', () => {
  it('is 413 once the decoded bytes pass the limit, before the rest of it is even sent', async () => {
    // 50 MB of zeros gzip to about 50 KB: under the limit as sent, a thousand times over it decoded.
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(BODY_LIMIT);
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    const sending = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/echo',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': bomb.length },
    });
    try {
      const answered = new Promise<IncomingMessage>((resolve, reject) => sending.on('response', resolve).on('error', reject));
      // A fifth of it decodes to 10 MB; the rest is never sent, so only an answer at the limit ends the request.
      sending.write(bomb.subarray(0, Math.floor(bomb.length / 5)));
      const response = await answered;
      const chunks: Buffer[] = [];
      for await (const chunk of response) chunks.push(chunk as Buffer);
      expect([response.statusCode, response.headers['content-type']]).toEqual([413, expect.stringMatching(/^application\/problem\+json/)]);
      expect(JSON.parse(Buffer.concat(chunks).toString())).toMatchObject({ status: 413 });
    } finally {
      sending.destroy();
    }
  });
});
