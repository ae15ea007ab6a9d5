import type { PublicEventType } from '@storage/domain';
import { UsageError } from './usage-error';

interface Problem {
  title?: string;
  detail?: string;
  errors?: { field: string; message: string }[];
}

/** What the api's problem+json says, fields at fault included; the status alone when the body is not one. */
function describe(status: number, body: string): string {
  try {
    const problem = JSON.parse(body) as Problem;
    const fields = (problem.errors ?? []).map((error) => `${error.field}: ${error.message}`);
    return [`${status} ${problem.title ?? ''}`.trim(), problem.detail, ...fields].filter(Boolean).join('; ');
  } catch {
    return `${status} ${body.slice(0, 200)}`.trim();
  }
}

/**
 * Operation 19 (`POST /api/v1/webhooks/subscriptions/test`) on the running api, the published way to send a test
 * event: the api checks the key and the portfolio and hands the dispatcher its command through the outbox.
 * Input the api refuses (400, 404: an unknown portfolio, no endpoint subscribed) is a usage error; the rest fails.
 */
export async function triggerTestEvent(
  request: { api: string; apiKey: string; portfolio: string; eventType: PublicEventType },
  out: (line: string) => void,
): Promise<void> {
  const url = `${request.api.replace(/\/+$/, '')}/api/v1/webhooks/subscriptions/test`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': request.apiKey },
      body: JSON.stringify({ eventType: request.eventType, portfolio: request.portfolio }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
    throw new Error(`cannot reach the api at ${request.api} (${cause}): is it running? (--api <base url>)`);
  }
  const body = await response.text();
  if (response.status === 400 || response.status === 404) throw new UsageError(`the api refused the test event: ${describe(response.status, body)}`);
  if (!response.ok) throw new Error(`the api refused the test event: ${describe(response.status, body)}`);
  const sent = JSON.parse(body) as { message: string; endpoints: number };
  out(`test ${request.eventType} event sent to ${sent.endpoints} endpoint(s) of portfolio ${request.portfolio} (marked test: true)`);
}
