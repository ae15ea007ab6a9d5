/** A usage error found past commander (an unknown message, endpoint or event type): exit 2, like commander's own. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
