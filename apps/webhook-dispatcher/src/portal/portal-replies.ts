import type { FastifyReply } from 'fastify';

/** Answers a page. */
export function send(reply: FastifyReply, status: number, page: string): void {
  void reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header(
      'content-security-policy',
      "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'",
    )
    .send(page);
}

export function redirect(reply: FastifyReply, location: string): void {
  void reply.header('x-content-type-options', 'nosniff').redirect(location, 303);
}

/** Back to the endpoint's page after an action, saying what was done (`reveal`: with its secret shown). */
export function back(reply: FastifyReply, endpointId: string, notice: string, reveal = false): void {
  const query = new URLSearchParams({ notice, ...(reveal ? { reveal: '1' } : {}) });
  redirect(reply, `/portal/endpoints/${endpointId}?${query.toString()}`);
}
