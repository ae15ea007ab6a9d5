import { Command, InvalidArgumentError } from 'commander';
import { isPublicEventType, PUBLIC_EVENT_TYPES } from '@storage/domain';
import { listen } from './listen';
import { UsageError } from './usage-error';

function httpUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('an http(s) URL is needed, e.g. http://localhost:4000/webhooks');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('an http(s) URL is needed');
  return value;
}

function eventTypes(value: string): string[] {
  const types = value.split(',').map((type) => type.trim());
  const unknown = types.filter((type) => !isPublicEventType(type));
  if (unknown.length > 0) throw new InvalidArgumentError(`unknown event type(s) ${unknown.join(', ')}; one or more of ${PUBLIC_EVENT_TYPES.join(', ')}`);
  return types;
}

/** `webhooks listen`: the portfolio's events, as an endpoint receives them, forwarded to a local URL until Ctrl-C. */
export function listenCommand(): Command {
  return new Command('listen')
    .description("forward the portfolio's webhooks to a local URL, signed with the session's secret, until Ctrl-C")
    .requiredOption('--api <base url>', 'the api, e.g. http://localhost:3000', httpUrl)
    .option('--api-key <key>', 'a write API key of the portfolio (default: STORAGE_API_KEY)')
    .requiredOption('--portfolio <id>', 'the portfolio whose events to receive')
    .requiredOption('--forward-to <url>', 'the local URL each event is POSTed to', httpUrl)
    .option('--events <types>', `comma-separated event types (default: all seven): ${PUBLIC_EVENT_TYPES.join(',')}`, eventTypes)
    .action(async (options: { api: string; apiKey?: string; portfolio: string; forwardTo: string; events?: string[] }) => {
      const apiKey = options.apiKey ?? process.env.STORAGE_API_KEY;
      if (!apiKey) throw new UsageError('an API key is needed: --api-key <key> or STORAGE_API_KEY');
      const stop = new AbortController();
      // Ctrl-C reaches this process twice (from the terminal and through the `npm run cli` router): stopping is idempotent.
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop.abort());
      await listen({ ...options, apiKey }, (line) => process.stdout.write(`${line}\n`), stop.signal);
    });
}
