/**
 * A typed client of the Tessera Open Platform over openapi-fetch.
 *
 * `createOpenPlatformClient` returns the openapi-fetch client of every published operation (`api`, typed by
 * `schema.ts`, which `tessera generate` writes from generated/open-platform.yaml) with the access token
 * handled: fetched with the client credentials grant, reused until 30 seconds before it expires, and
 * refreshed once (the call retried once) when the service answers 401 `invalid_token`. Every call (token
 * requests too) carries an `X-Request-Id` and waits out a 429 as `calls.ts` describes (`backoff`). Beside it,
 * the integrator flow in one call each: `walk` (every record of a resource, by cursor), `read` (a record and its
 * ETag) and `execute` (a command under `If-Match` and `Idempotency-Key`).
 *
 * The client secret is a server-side credential: the specification says it never ships in frontend or mobile
 * bundles, where anyone can read it. The client refuses to start in a browser (a `window` with a `document`,
 * or a web worker) unless the caller opts in by name with `allowClientSecretInBrowser: true` (for example an
 * internal tool on a trusted kiosk); a web frontend calls its own backend, which holds the secret.
 */

import createClient, { type Client } from "openapi-fetch";

import { type BackoffOptions, sendWithBackoff, withRequestId } from "./calls.js";
import type { components, paths } from "./schema.js";

export * from "./calls.js";

export type Schemas = components["schemas"];
export type TokenResponse = Schemas["TokenResponse"];
export type ErrorEnvelope = Schemas["Error"];

/** Paths of the list operations (`GET /api/open/v1/resources/{resource}`). */
export type ListPath = {
  [P in keyof paths]: P extends `/api/open/v1/resources/${string}/{pid}`
    ? never
    : P extends `/api/open/v1/resources/${string}`
      ? P
      : never;
}[keyof paths];

/** Paths of the read operations (`GET /api/open/v1/resources/{resource}/{pid}`). */
export type ReadPath = Extract<keyof paths, `/api/open/v1/resources/${string}/{pid}`>;

/** Paths of the commands (`POST /api/open/v1/commands/{command}:execute`). */
export type CommandPath = Extract<keyof paths, `/api/open/v1/commands/${string}:execute`>;

type Json<R> = R extends { content: { "application/json": infer B } } ? B : never;
type Ok<Op> = Op extends { responses: { 200: infer R } } ? Json<R> : never;

/** The record type a list path pages over. */
export type ItemOf<P extends ListPath> = Ok<paths[P]["get"]> extends { items: Array<infer I> } ? I : never;
/** The record type a read path returns. */
export type RecordOf<P extends ReadPath> = Ok<paths[P]["get"]>;
/** The request body of a command. */
export type CommandRequest<P extends CommandPath> = paths[P]["post"] extends {
  requestBody: { content: { "application/json": infer B } };
}
  ? B
  : never;
/** The result of a command. */
export type CommandResult<P extends CommandPath> = Ok<paths[P]["post"]>;

export interface OpenPlatformOptions {
  /** Where the service runs, e.g. `https://tessera.example.com` (no trailing slash needed). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Space-separated subset of the installation's scopes; omitted, the token gets all of them. */
  scope?: string;
  /** A token is reused until this many seconds before it expires (30 by default). */
  refreshMarginSeconds?: number;
  /** The fetch implementation (the global one by default): for proxies, tests and instrumentation. */
  fetch?: typeof globalThis.fetch;
  /** How a 429 is waited out (see `calls.ts`): 4 retries, 0.5 s doubling up to 30 s, full jitter, after `Retry-After`. */
  backoff?: BackoffOptions;
  /** Milliseconds since the epoch (`Date.now` by default): tests move the token's clock with it. */
  now?: () => number;
  /** Run in a browser even so (the secret is then readable by anyone who loads the page). */
  allowClientSecretInBrowser?: boolean;
}

/** True in a browser page or a web worker (not in Node.js, Deno's server side or Bun). */
export function inBrowser(): boolean {
  const scope = globalThis as { window?: unknown; document?: unknown; WorkerGlobalScope?: unknown };
  return (scope.window !== undefined && scope.document !== undefined) || scope.WorkerGlobalScope !== undefined;
}

/** A refusal of the service: its status and error envelope (`code` is stable; branch on it, never on `message`). */
export class OpenPlatformError extends Error {
  readonly status: number;
  readonly code: string;
  readonly requestId: string | undefined;
  readonly details: unknown;
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    const envelope = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
    const code = typeof envelope.code === "string" ? envelope.code : `http_${status}`;
    super(typeof envelope.message === "string" ? `${code}: ${envelope.message}` : `HTTP ${status} (${code})`);
    this.name = "OpenPlatformError";
    this.status = status;
    this.code = code;
    this.requestId = typeof envelope.requestId === "string" ? envelope.requestId : undefined;
    this.details = envelope.details;
    this.body = body;
  }
}

/** Access tokens from `POST /oauth2/token` (client credentials, form body), cached until shortly before expiry. */
export class TokenSource {
  private token: { value: string; renewAt: number; scope: string } | undefined;
  private pending: Promise<string> | undefined;
  /** Tokens fetched so far (each a `POST /oauth2/token`). */
  issued = 0;

  private readonly now: () => number;

  constructor(
    private readonly options: OpenPlatformOptions,
    private readonly fetchImpl: typeof globalThis.fetch,
  ) {
    if (inBrowser() && options.allowClientSecretInBrowser !== true) {
      throw new Error(
        "The Open Platform client secret must not ship in a browser bundle, where anyone can read it: " +
          "call the Open Platform from your backend (or pass allowClientSecretInBrowser: true if you accept that risk).",
      );
    }
    this.now = options.now ?? Date.now;
  }

  /** The cached token, or a new one when there is none or it expires within the margin. */
  async get(): Promise<string> {
    if (this.token !== undefined && this.now() < this.token.renewAt) return this.token.value;
    this.pending ??= this.fetchToken().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** Forget the cached token (the next call fetches one). */
  invalidate(): void {
    this.token = undefined;
  }

  /** The scopes the current token carries (empty before the first token). */
  get scopes(): string[] {
    return this.token === undefined ? [] : this.token.scope.split(" ").filter(Boolean);
  }

  private async fetchToken(): Promise<string> {
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: this.options.clientId,
      client_secret: this.options.clientSecret,
    });
    if (this.options.scope !== undefined) form.set("scope", this.options.scope);
    const request = new Request(new URL("/oauth2/token", this.options.baseUrl), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: form.toString(),
    });
    const started = this.now();
    const response = await sendWithBackoff(this.fetchImpl, withRequestId(request), this.options.backoff);
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) throw new OpenPlatformError(response.status, body);
    const token = body as TokenResponse;
    this.issued += 1;
    const margin = (this.options.refreshMarginSeconds ?? 30) * 1000;
    this.token = {
      value: token.access_token,
      renewAt: started + Math.max(token.expires_in * 1000 - margin, 0),
      scope: token.scope,
    };
    return token.access_token;
  }
}

export interface Read<T> {
  record: T;
  /** The strong ETag: send it as `If-Match` to change the record. */
  etag: string;
}

export interface Executed<T> {
  result: T;
  /** True when the service answered with the stored result of an earlier call with the same key. */
  replayed: boolean;
  /** The record's ETag after the command. */
  etag: string | undefined;
}

export interface ExecuteOptions {
  /** The target's current ETag (commands that change a record need it: 412 `precondition_failed` otherwise). */
  ifMatch?: string;
  /** One fresh key per intended change (a UUID); a retry with the same key and body changes nothing. */
  idempotencyKey: string;
  /** Correlation id, echoed and indexed in the call audit. */
  requestId?: string;
}

/** An event as its webhook deliveries carry it (the events API's items), typed by `type`. */
export type FeedEvent = Schemas["Event"];

export interface EventsOptions {
  /** The id of the last event you processed: start after it (without it, from the oldest event kept). */
  after?: string;
  /** Only these types (without them, every type the installation may read). */
  types?: Array<FeedEvent["type"]>;
  /** Only events that occurred at or after this UTC instant (`2026-11-22T08:00:00Z`). */
  since?: string;
  /** Only events that occurred before this UTC instant. */
  until?: string;
  /** Events per page (at most 200, the default). */
  limit?: number;
}

export interface OpenPlatformClient {
  /** Every published operation, typed (openapi-fetch); tokens are added and refreshed. */
  api: Client<paths>;
  tokens: TokenSource;
  /** Every record of a resource, oldest first, page by page until `nextCursor` is null. */
  walk<P extends ListPath>(path: P, options?: { limit?: number }): AsyncGenerator<ItemOf<P>, void, undefined>;
  /**
   * The installation's events, oldest first, page by page until the feed has no more for now: to catch up
   * after an outage, pass the id of the last event you processed as `after`, and deduplicate on `id` (the
   * same event may also have reached you by webhook). Events are kept 30 days by default.
   */
  iterEvents(options?: EventsOptions): AsyncGenerator<FeedEvent, void, undefined>;
  /** One record and its ETag. */
  read<P extends ReadPath>(path: P, pid: string): Promise<Read<RecordOf<P>>>;
  /** Run a command under `If-Match` and `Idempotency-Key`. */
  execute<P extends CommandPath>(
    path: P,
    body: CommandRequest<P>,
    options: ExecuteOptions,
  ): Promise<Executed<CommandResult<P>>>;
}

async function isInvalidToken(response: Response): Promise<boolean> {
  if (response.status !== 401) return false;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  return typeof body === "object" && body !== null && (body as { code?: unknown }).code === "invalid_token";
}

/** The Open Platform client: typed operations, token handling, and the integrator flow's helpers. */
export function createOpenPlatformClient(options: OpenPlatformOptions): OpenPlatformClient {
  const baseFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const tokens = new TokenSource(options, baseFetch);

  // Every call carries the current token and a request id, and waits out 429s; on 401 invalid_token (expired
  // or revoked early) the token is refreshed once and the call retried once, with the request as first built.
  const authorizedFetch = async (request: Request): Promise<Response> => {
    withRequestId(request);
    const retry = request.clone();
    request.headers.set("Authorization", `Bearer ${await tokens.get()}`);
    const response = await sendWithBackoff(baseFetch, request, options.backoff);
    if (!(await isInvalidToken(response))) return response;
    tokens.invalidate();
    retry.headers.set("Authorization", `Bearer ${await tokens.get()}`);
    return sendWithBackoff(baseFetch, retry, options.backoff);
  };
  const api = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ""), fetch: authorizedFetch });
  // openapi-fetch's path-generic signatures do not resolve over a union of paths: the helpers below call
  // through this loosely typed view, and their own signatures carry the types.
  const loose = api as unknown as {
    GET(path: string, init: object): Promise<{ data?: unknown; error?: unknown; response: Response }>;
    POST(path: string, init: object): Promise<{ data?: unknown; error?: unknown; response: Response }>;
  };

  async function* walk<P extends ListPath>(path: P, walkOptions: { limit?: number } = {}) {
    let cursor: string | null | undefined;
    do {
      const query: Record<string, unknown> = { limit: walkOptions.limit ?? 50 };
      if (cursor) query.cursor = cursor;
      const { data, error, response } = await loose.GET(path, { params: { query } });
      if (error !== undefined || data === undefined) throw new OpenPlatformError(response.status, error);
      const page = data as { items: ItemOf<P>[]; nextCursor: string | null };
      yield* page.items;
      cursor = page.nextCursor;
    } while (cursor);
  }

  async function* iterEvents(eventsOptions: EventsOptions = {}) {
    let cursor: string | undefined;
    for (;;) {
      const query: Record<string, unknown> = { limit: eventsOptions.limit ?? 200 };
      if (cursor !== undefined) query.cursor = cursor;
      else if (eventsOptions.after !== undefined) query.after = eventsOptions.after;
      if (eventsOptions.types?.length) query.type = eventsOptions.types;
      if (eventsOptions.since !== undefined) query.since = eventsOptions.since;
      if (eventsOptions.until !== undefined) query.until = eventsOptions.until;
      const { data, error, response } = await loose.GET("/api/open/v1/events", { params: { query } });
      if (error !== undefined || data === undefined) throw new OpenPlatformError(response.status, error);
      const page = data as { items: FeedEvent[]; nextCursor: string; hasMore: boolean };
      yield* page.items;
      if (!page.hasMore) return;
      cursor = page.nextCursor;
    }
  }

  async function read<P extends ReadPath>(path: P, pid: string): Promise<Read<RecordOf<P>>> {
    const { data, error, response } = await loose.GET(path, { params: { path: { pid } } });
    if (error !== undefined || data === undefined) throw new OpenPlatformError(response.status, error);
    const etag = response.headers.get("ETag");
    if (etag === null) throw new OpenPlatformError(response.status, { code: "missing_etag" });
    return { record: data as RecordOf<P>, etag };
  }

  async function execute<P extends CommandPath>(
    path: P,
    body: CommandRequest<P>,
    executeOptions: ExecuteOptions,
  ): Promise<Executed<CommandResult<P>>> {
    const header: Record<string, string> = { "Idempotency-Key": executeOptions.idempotencyKey };
    if (executeOptions.ifMatch !== undefined) header["If-Match"] = executeOptions.ifMatch;
    if (executeOptions.requestId !== undefined) header["X-Request-Id"] = executeOptions.requestId;
    const { data, error, response } = await loose.POST(path, { params: { header }, body });
    if (error !== undefined || data === undefined) throw new OpenPlatformError(response.status, error);
    return {
      result: data as CommandResult<P>,
      replayed: response.headers.get("Idempotent-Replayed") === "true",
      etag: response.headers.get("ETag") ?? undefined,
    };
  }

  return { api, tokens, walk, iterEvents, read, execute };
}
