import { Transform, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { BadRequestException } from '@nestjs/common';
import { errorCodes, type FastifyInstance } from 'fastify';
import { hasBody } from './body-media-types';
import { PROBLEM_CONTENT_TYPE, problemFor } from './problem-details';

/** The content codings a body may be sent in (RFC 9110 §8.4.1), by their names in Content-Encoding. */
const DECODERS = new Map<string, () => Transform>([
  ['gzip', createGunzip],
  // gzip's old name, which RFC 9110 asks a recipient to take as gzip.
  ['x-gzip', createGunzip],
  ['deflate', createInflate],
  ['br', createBrotliDecompress],
]);
const SUPPORTED_CODINGS = 'gzip, deflate, br';

/** The stream Fastify reads a body from: `receivedEncodedLength` is what it matches Content-Length against. */
type DecodedBody = Transform & { receivedEncodedLength: number };

/**
 * A body is read in the coding its Content-Encoding declares, never as plain text: gzip, deflate and br are
 * decoded as they arrive, under the route's body limit counted in DECODED bytes (413 as soon as it is passed, so
 * a small bomb never inflates in memory); bytes that are not in the declared coding are 400; any other coding, or
 * more than one, is 415 with the codings taken in Accept-Encoding. `identity` (or none) is the body as sent.
 */
export function decodeContentEncodings(fastify: FastifyInstance): void {
  fastify.addHook('preParsing', async (request, reply, payload) => {
    const coding = (request.headers['content-encoding'] ?? '').trim().toLowerCase();
    if (request.is404 || !hasBody(request) || coding === '' || coding === 'identity') return payload;
    const decoder = DECODERS.get(coding);
    if (decoder !== undefined) return decoded(payload, decoder(), coding, request.routeOptions.bodyLimit);
    await reply
      .code(415)
      .header('accept-encoding', SUPPORTED_CODINGS)
      .type(PROBLEM_CONTENT_TYPE)
      .send(problemFor(415, `Content-Encoding "${coding}" is not taken: send the body as it is, or in one of ${SUPPORTED_CODINGS}.`));
    return payload;
  });
}

function decoded(encoded: Readable, decoder: Transform, coding: string, limit: number): Readable {
  let decodedLength = 0;
  const body = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      decodedLength += chunk.length;
      if (decodedLength > limit) callback(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      else callback(null, chunk);
    },
  }) as DecodedBody;
  body.receivedEncodedLength = 0;
  encoded.pipe(decoder).pipe(body);
  encoded.on('data', (chunk: Buffer) => (body.receivedEncodedLength += chunk.length));
  decoder.once('error', () => body.destroy(new BadRequestException(`The body is not valid ${coding}, the coding its Content-Encoding declares.`)));
  // Nothing more is decoded once the body is refused; listening to 'error' also keeps one raised after Fastify
  // stopped reading from being unhandled.
  const stop = (): void => {
    encoded.unpipe(decoder);
    decoder.destroy();
  };
  body.on('error', stop).once('close', stop);
  return body;
}
