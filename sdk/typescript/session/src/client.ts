/**
 * A typed client of the Tessera session REST API over openapi-fetch.
 *
 * `createSessionClient` returns the openapi-fetch client of every session operation (`api`, typed by
 * `schema.ts`, which `tessera generate` writes from generated/session-api.yaml) with the login handled: the
 * JWT is obtained with `POST /api/auth/login`, reused until 30 seconds before it expires, and renewed once (the
 * call retried once) when the service answers 401 `UNAUTHORIZED`. Beside it, the declared pages and commands
 * in one call each, unwrapped from the `{code, message, data}` envelope: `list` (one page, with typed
 * `filters`), `walk` (every record, page by page), `read` (one record) and `execute` (a command with its
 * typed body).
 *
 * Every call (the login too) carries an `X-Request-Id` and waits out a 429 as `calls.ts` describes (`backoff`).
 *
 * `filters` is a JSON query parameter (`content: application/json`): `schema.ts` types it as the array of the
 * page's typed conditions, and the client sends it as JSON text.
 */

import createClient, { type Client } from "openapi-fetch";

import { type BackoffOptions, sendWithBackoff, withRequestId } from "./calls.js";
import type { components, paths } from "./schema.js";

export * from "./calls.js";

export type Schemas = components["schemas"];
export type LoginRequest = Schemas["LoginRequest"];
export type LoginResult = Schemas["LoginResult"];

/** Paths of the declared pages' lists (`GET /api/dynamic/{page}/list`). */
export type ListPath = Extract<keyof paths, `/api/dynamic/${string}/list`>;
/** Paths of the declared pages' reads (`GET /api/dynamic/{page}/{recordId}`). */
export type ReadPath = Extract<keyof paths, `/api/dynamic/${string}/{recordId}`>;
/** Paths of the declared commands (`POST /api/meta/commands/execute/{module}:{action}`). */
export type CommandPath = Extract<keyof paths, `/api/meta/commands/execute/${string}`>;

type Json<R> = R extends { content: { "application/json": infer B } } ? B : never;
type Ok<Op> = Op extends { responses: { 200: infer R } } ? Json<R> : never;
type DataOf<E> = E extends { data: infer D } ? D : never;

/** The query of a list: `pageNum`, `pageSize`, `keyword`, `sortField` (the page's sortable fields), `sortOrder`, `filters`. */
export type ListQuery<P extends ListPath> = NonNullable<paths[P]["get"]["parameters"]["query"]>;
/** One condition of a list's `filters`: its field, an operator that fits the field's type, a value of that type. */
export type FilterOf<P extends ListPath> = NonNullable<ListQuery<P>["filters"]>[number];
/** The `data` of a list: `records`, `total`, `pageNum`, `pageSize`. */
export type PageOf<P extends ListPath> = DataOf<Ok<paths[P]["get"]>>;
/** The record type of a list. */
export type ItemOf<P extends ListPath> = PageOf<P> extends { records: Array<infer R> } ? R : never;
/** The record type a read path returns. */
export type RecordOf<P extends ReadPath> = DataOf<Ok<paths[P]["get"]>>;
/** The request body of a command (`payload` typed per command; `operationType` and `targetRecordId` as it needs). */
export type CommandRequest<P extends CommandPath> = paths[P]["post"] extends {
  requestBody: { content: { "application/json": infer B } };
}
  ? B
  : never;
/** The `data` of a command's answer. */
export type CommandResult<P extends CommandPath> = DataOf<Ok<paths[P]["post"]>>;

export interface SessionOptions {
  /** Where the service runs, e.g. `https://tessera.example.com` (no trailing slash needed). */
  baseUrl: string;
  email: string;
  password: string;
  /** The tenant to act in; omitted, the user's default tenant. */
  tenantId?: string;
  /** `Accept-Language` of every call (`en`, `zh-CN`): the language of `message` and field errors. */
  language?: string;
  /** A JWT is reused until this many seconds before it expires (30 by default). */
  refreshMarginSeconds?: number;
  /** The fetch implementation (the global one by default): for proxies, tests and instrumentation. */
  fetch?: typeof globalThis.fetch;
  /** How a 429 is waited out (see `calls.ts`): 4 retries, 0.5 s doubling up to 30 s, full jitter, after `Retry-After`. */
  backoff?: BackoffOptions;
}

/** A refusal of the service: its status and envelope (`code` is stable; branch on it, never on `message`). */
export class SessionError extends Error {
  readonly status: number;
  readonly code: string;
  /** `fieldErrors` for `VALIDATION_ERROR`, `permission` for `FORBIDDEN`, `traceId` for `INTERNAL_ERROR`. */
  readonly data: unknown;
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    const envelope = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
    const code = typeof envelope.code === "string" ? envelope.code : `HTTP_${status}`;
    super(typeof envelope.message === "string" ? `${code}: ${envelope.message}` : `HTTP ${status} (${code})`);
    this.name = "SessionError";
    this.status = status;
    this.code = code;
    this.data = envelope.data;
    this.body = body;
  }
}

/** The `exp` claim of a JWT (seconds since the epoch), read without verifying it: only to renew in time. */
function expiresAt(jwt: string): number | undefined {
  const payload = jwt.split(".")[1];
  if (payload === undefined) return undefined;
  try {
    const claims: unknown = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/")));
    const exp = typeof claims === "object" && claims !== null ? (claims as { exp?: unknown }).exp : undefined;
    return typeof exp === "number" ? exp : undefined;
  } catch {
    return undefined;
  }
}

/** The session JWT from `POST /api/auth/login`, kept until shortly before its `exp`. */
export class SessionLogin {
  private session: { jwt: string; renewAt: number; result: LoginResult } | undefined;
  private pending: Promise<string> | undefined;
  private readonly anonymous: Client<paths>;
  /** Logins so far (each a `POST /api/auth/login`). */
  logins = 0;

  constructor(
    private readonly options: SessionOptions,
    fetchImpl: typeof globalThis.fetch,
  ) {
    this.anonymous = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ""), fetch: fetchImpl });
  }

  /** The kept JWT, or a new one when there is none or it expires within the margin. */
  async get(): Promise<string> {
    if (this.session !== undefined && Date.now() < this.session.renewAt) return this.session.jwt;
    this.pending ??= this.login().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** Forget the kept JWT (the next call logs in again). */
  invalidate(): void {
    this.session = undefined;
  }

  /** Who is signed in, and in which tenant (undefined before the first login). */
  get result(): LoginResult | undefined {
    return this.session?.result;
  }

  private async login(): Promise<string> {
    const body: LoginRequest = { email: this.options.email, password: this.options.password };
    if (this.options.tenantId !== undefined) body.tenantId = this.options.tenantId;
    const header = this.options.language === undefined ? {} : { "Accept-Language": this.options.language };
    const { data, error, response } = await this.anonymous.POST("/api/auth/login", { body, params: { header } });
    if (error !== undefined || data === undefined || data.code !== "0" || data.data === undefined) {
      throw new SessionError(response.status, error ?? data);
    }
    const result = data.data;
    this.logins += 1;
    const exp = expiresAt(result.jwt);
    const margin = (this.options.refreshMarginSeconds ?? 30) * 1000;
    this.session = {
      jwt: result.jwt,
      renewAt: exp === undefined ? Number.POSITIVE_INFINITY : Math.max(exp * 1000 - margin, Date.now()),
      result,
    };
    return result.jwt;
  }
}

/**
 * The query string of a call: an array or object value (a JSON parameter: `filters`) as JSON text, anything else
 * as its text; names and values percent-encoded.
 */
export function serializeQuery(query: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const text = typeof value === "object" ? JSON.stringify(value) : String(value);
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(text)}`);
  }
  return parts.join("&");
}

export interface Executed<T> {
  result: T;
  /** True when the service answered `IDEMPOTENT_REPLAY`: the stored result of an earlier call with the same key. */
  replayed: boolean;
}

export interface ExecuteOptions {
  /** `X-Idempotent-Key`: one fresh key per intended change; a retry with the same key changes nothing. */
  idempotentKey?: string;
}

export interface SessionClient {
  /** Every session operation, typed (openapi-fetch); the JWT is added and renewed. */
  api: Client<paths>;
  login: SessionLogin;
  /** One page of a declared page's records (`pageNum` 1-based). */
  list<P extends ListPath>(path: P, query?: ListQuery<P>): Promise<PageOf<P>>;
  /** Every matching record of a declared page, page by page (`pageSize` 100 unless given). */
  walk<P extends ListPath>(path: P, query?: Omit<ListQuery<P>, "pageNum">): AsyncGenerator<ItemOf<P>, void, undefined>;
  /** One record of a declared page. */
  read<P extends ReadPath>(path: P, recordId: string): Promise<RecordOf<P>>;
  /** Run a declared command. */
  execute<P extends CommandPath>(
    path: P,
    body: CommandRequest<P>,
    options?: ExecuteOptions,
  ): Promise<Executed<CommandResult<P>>>;
}

async function isUnauthorized(response: Response): Promise<boolean> {
  if (response.status !== 401) return false;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  return typeof body === "object" && body !== null && (body as { code?: unknown }).code === "UNAUTHORIZED";
}

/** The envelope's `data`, or the refusal as a `SessionError`. */
function unwrap(outcome: { data?: unknown; error?: unknown; response: Response }): { code: string; data: unknown } {
  const { data, error, response } = outcome;
  const envelope = data as { code?: unknown; data?: unknown } | undefined;
  if (error !== undefined || envelope === undefined || (envelope.code !== "0" && envelope.code !== "IDEMPOTENT_REPLAY")) {
    throw new SessionError(response.status, error ?? data);
  }
  return { code: envelope.code, data: envelope.data };
}

/** The session client: typed operations, the login handled, and the declared pages' and commands' helpers. */
export function createSessionClient(options: SessionOptions): SessionClient {
  const givenFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  // Every request, the login's too, with a request id and its 429s waited out.
  const baseFetch = (input: Request | string | URL, init?: RequestInit): Promise<Response> =>
    sendWithBackoff(givenFetch, withRequestId(new Request(input, init)), options.backoff);
  const login = new SessionLogin(options, baseFetch);

  // Every call carries the current JWT; on 401 UNAUTHORIZED (expired early, or the key rotated) the client logs
  // in again once and retries the call once, with the request as it was first built.
  const authorizedFetch = async (request: Request): Promise<Response> => {
    withRequestId(request); // before the copy: the retry after a new login keeps the call's id
    const retry = request.clone();
    request.headers.set("Authorization", `Bearer ${await login.get()}`);
    const response = await baseFetch(request);
    if (!(await isUnauthorized(response))) return response;
    login.invalidate();
    retry.headers.set("Authorization", `Bearer ${await login.get()}`);
    return baseFetch(retry);
  };
  const headers = options.language === undefined ? {} : { "Accept-Language": options.language };
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    fetch: authorizedFetch,
    headers,
    querySerializer: serializeQuery,
  });
  // openapi-fetch's path-generic signatures do not resolve over a union of paths: the helpers below call
  // through this loosely typed view, and their own signatures carry the types.
  type Outcome = { data?: unknown; error?: unknown; response: Response };
  const loose = api as unknown as {
    GET(path: string, init: object): Promise<Outcome>;
    POST(path: string, init: object): Promise<Outcome>;
  };

  async function list<P extends ListPath>(path: P, query?: ListQuery<P>): Promise<PageOf<P>> {
    return unwrap(await loose.GET(path, { params: { query: query ?? {} } })).data as PageOf<P>;
  }

  async function* walk<P extends ListPath>(path: P, query?: Omit<ListQuery<P>, "pageNum">) {
    const pageSize = (query as { pageSize?: number } | undefined)?.pageSize ?? 100;
    for (let pageNum = 1; ; pageNum += 1) {
      const page = (await list(path, { ...query, pageNum, pageSize } as ListQuery<P>)) as {
        records: ItemOf<P>[];
        total: number;
      };
      yield* page.records;
      if (page.records.length < pageSize || pageNum * pageSize >= page.total) return;
    }
  }

  async function read<P extends ReadPath>(path: P, recordId: string): Promise<RecordOf<P>> {
    return unwrap(await loose.GET(path, { params: { path: { recordId } } })).data as RecordOf<P>;
  }

  async function execute<P extends CommandPath>(
    path: P,
    body: CommandRequest<P>,
    executeOptions: ExecuteOptions = {},
  ): Promise<Executed<CommandResult<P>>> {
    const header: Record<string, string> = {};
    if (executeOptions.idempotentKey !== undefined) header["X-Idempotent-Key"] = executeOptions.idempotentKey;
    const { code, data } = unwrap(await loose.POST(path, { params: { header }, body }));
    return { result: data as CommandResult<P>, replayed: code === "IDEMPOTENT_REPLAY" };
  }

  return { api, login, list, walk, read, execute };
}
