/**
 * What both TypeScript SDKs do on every call they send: a request id, and 429s waited out.
 *
 * - Every call carries `X-Request-Id`: a new UUID unless the caller set one (the caller's wins). The
 *   retries of one call keep its id; the service echoes it and indexes it in its call audit.
 * - A 429 (`rate_limit_exceeded`) is sent again, up to `maxRetries` times (4 by default), after the
 *   `Retry-After` the service gave plus a full-jitter draw: a random share of
 *   `baseSeconds * 2 ** attempt` (0.5 s doubling), at most `capSeconds` (30 s), so that clients refused
 *   together do not come back together. A 429 is refused before anything runs, so a command is safe to
 *   send again. After the last retry, or when `Retry-After` is longer than two minutes, the 429 is the
 *   caller's.
 */

export interface BackoffOptions {
  /** Retries of one call after a 429 (4 by default; 0 returns every 429 at once). */
  maxRetries?: number;
  /** The first draw's ceiling, doubled per retry (0.5 s by default). */
  baseSeconds?: number;
  /** The largest ceiling of a draw (30 s by default). */
  capSeconds?: number;
  /** A number in [0, 1) (`Math.random` by default): tests fix it. */
  random?: () => number;
  /** Waits `ms` milliseconds (a timer by default): tests record instead of waiting. */
  sleep?: (ms: number) => Promise<void>;
}

export const REQUEST_ID_HEADER = "X-Request-Id";
/** A `Retry-After` longer than this is not waited for in the client: the 429 is returned at once. */
export const LONGEST_RETRY_AFTER_SECONDS = 120;

/** `Retry-After` in seconds (delta-seconds; an HTTP date or nothing counts as 0). */
export function retryAfterSeconds(response: Response): number {
  const value = Number(response.headers.get("Retry-After") ?? "0");
  return Number.isFinite(value) && value > 0 ? value : 0;
}

/** Seconds to wait before retry number `attempt` (0-based), or undefined: do not retry. */
export function backoffDelay(response: Response, attempt: number, options: BackoffOptions = {}): number | undefined {
  if (response.status !== 429 || attempt >= (options.maxRetries ?? 4)) return undefined;
  const waited = retryAfterSeconds(response);
  if (waited > LONGEST_RETRY_AFTER_SECONDS) return undefined;
  const ceiling = Math.min(options.capSeconds ?? 30, (options.baseSeconds ?? 0.5) * 2 ** attempt);
  return waited + (options.random ?? Math.random)() * ceiling;
}

/** `request` with a new `X-Request-Id` unless it has one. */
export function withRequestId(request: Request): Request {
  if (!request.headers.has(REQUEST_ID_HEADER)) request.headers.set(REQUEST_ID_HEADER, crypto.randomUUID());
  return request;
}

const timer = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The response to `request` (sent as a copy each time), each 429 waited out as `options` say. */
export async function sendWithBackoff(
  fetchImpl: typeof globalThis.fetch,
  request: Request,
  options: BackoffOptions = {},
): Promise<Response> {
  for (let attempt = 0; ; attempt += 1) {
    const response = await fetchImpl(request.clone());
    const delay = backoffDelay(response, attempt, options);
    if (delay === undefined) return response;
    await response.body?.cancel();
    await (options.sleep ?? timer)(delay * 1000);
  }
}
