/**
 * The TypeScript Open Platform SDK's client-side rules, each against a service written here as a fetch
 * function, so that every delay and header is exact (tests/system/test_typescript_sdk.py compiles this with
 * the SDK; the integrator flow beside it runs the same client against `tessera serve --demo`):
 *
 *   node sdk-rules.js   prints one JSON object: the name of each rule checked and what it saw
 *
 * Any failed expectation exits non-zero with the reason.
 */

import { createOpenPlatformClient, DEFAULT_TOLERANCE_SECONDS, sign, verify, WebhookVerificationError } from "../src/index.js";

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`expectation failed: ${message}`);
}

const BASE = "https://tessera.example";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const WHOAMI = { scopes: ["assets.read"] };

/** A service that answers 429 (with `Retry-After`) to the first `refusals` calls and first `tokenRefusals` token requests. */
class Service {
  calls: Request[] = [];
  tokenRequests: Request[] = [];
  constructor(
    private readonly refusals: number,
    private readonly tokenRefusals = 0,
    private readonly retryAfter = "2",
    private readonly expiresIn = 3600,
  ) {}

  readonly fetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const limited = () =>
      Response.json({ code: "rate_limit_exceeded", message: "Too many requests." }, {
        status: 429,
        headers: { "Retry-After": this.retryAfter },
      });
    if (new URL(request.url).pathname === "/oauth2/token") {
      this.tokenRequests.push(request);
      if (this.tokenRequests.length <= this.tokenRefusals) return limited();
      const n = this.tokenRequests.length;
      return Response.json({ access_token: `t${n}`, token_type: "Bearer", expires_in: this.expiresIn, scope: "assets.read" });
    }
    this.calls.push(request);
    return this.calls.length <= this.refusals ? limited() : Response.json(WHOAMI);
  };
}

/** The client on `service`, its backoff's sleeps recorded in `slept` and its draws fixed at one half. */
function client(service: Service, slept: number[], { backoff, ...extra }: Record<string, unknown> = {}) {
  return createOpenPlatformClient({
    baseUrl: BASE,
    clientId: "tcli_1",
    clientSecret: "s3cret",
    fetch: service.fetch,
    ...extra,
    backoff: { random: () => 0.5, sleep: async (ms) => void slept.push(ms), ...(backoff as object) },
  });
}

async function backoffAfterRetryAfterWithFullJitter() {
  const service = new Service(3);
  const slept: number[] = [];
  const who = await client(service, slept).api.GET("/api/open/v1/whoami", {});
  check(who.response.status === 200, `answered ${who.response.status}`);
  // Retry-After (2 s), then half (the draw) of 0.5 s, 1 s, 2 s.
  check(JSON.stringify(slept) === "[2250,2500,3000]", `slept ${JSON.stringify(slept)}`);
  const ids = new Set(service.calls.map((request) => request.headers.get("X-Request-Id")));
  check(service.calls.length === 4 && ids.size === 1, "four sends of one call, one request id");
  return { slept };
}

async function backoffCappedBoundedAndTheLast429Returned() {
  const service = new Service(100, 0, "0");
  const slept: number[] = [];
  const op = client(service, slept, { backoff: { maxRetries: 6, baseSeconds: 1, capSeconds: 8, random: () => 1 } });
  const who = await op.api.GET("/api/open/v1/whoami", {});
  check(who.response.status === 429, `answered ${who.response.status}`);
  check(JSON.stringify(slept) === "[1000,2000,4000,8000,8000,8000]", `slept ${JSON.stringify(slept)}`);
  check(service.calls.length === 7, `${service.calls.length} sends`);
  const long = new Service(1, 0, "3600");
  const none: number[] = [];
  const refused = await client(long, none).api.GET("/api/open/v1/whoami", {});
  check(refused.response.status === 429 && none.length === 0, "a Retry-After over two minutes is returned, not waited");
  return { slept, sends: service.calls.length };
}

async function aTokenRequestRefusedWith429IsSentAgain() {
  const service = new Service(0, 1);
  const slept: number[] = [];
  const op = client(service, slept);
  const who = await op.api.GET("/api/open/v1/whoami", {});
  check(who.response.status === 200 && op.tokens.issued === 1, "a token after one 429");
  check(JSON.stringify(slept) === "[2250]" && service.tokenRequests.length === 2, `slept ${JSON.stringify(slept)}`);
  return { tokenRequests: service.tokenRequests.length };
}

async function everyCallCarriesARequestIdTheCallersWins() {
  const service = new Service(0);
  const op = client(service, []);
  await op.api.GET("/api/open/v1/whoami", {});
  await op.api.GET("/api/open/v1/whoami", {});
  await op.api.GET("/api/open/v1/whoami", { params: { header: { "X-Request-Id": "erp-sync-42" } } as never });
  const ids = service.calls.map((request) => request.headers.get("X-Request-Id") ?? "");
  check(UUID.test(ids[0] ?? "") && UUID.test(ids[1] ?? "") && ids[0] !== ids[1], `generated ids ${ids}`);
  check(ids[2] === "erp-sync-42", `the caller's id was replaced: ${ids[2]}`);
  const tokenId = service.tokenRequests[0]?.headers.get("X-Request-Id") ?? "";
  check(UUID.test(tokenId), "the token request carries one too");
  return { ids };
}

async function aTokenIsReusedUntil30SecondsBeforeItExpires() {
  const service = new Service(0);
  let now = 1_000_000;
  const op = client(service, [], { now: () => now });
  await op.api.GET("/api/open/v1/whoami", {});
  now += (3600 - 30) * 1000 - 1; // just inside the reuse window
  await op.api.GET("/api/open/v1/whoami", {});
  check(op.tokens.issued === 1, `${op.tokens.issued} tokens inside the window`);
  now += 1; // 30 s before expiry: renewed before the call
  await op.api.GET("/api/open/v1/whoami", {});
  const bearers = service.calls.map((request) => request.headers.get("Authorization"));
  check((op.tokens.issued as number) === 2 && bearers.join() === "Bearer t1,Bearer t1,Bearer t2", `bearers ${bearers}`);
  return { bearers };
}

function theVerifierRefusesTimestampsMoreThan300SecondsAway() {
  const body = new TextEncoder().encode('{"id":"evt_1","type":"assets.assignment.changed"}');
  const sent = 1_700_000_000;
  const headers = (timestamp: number) => ({
    "X-Webhook-Timestamp": String(timestamp),
    "X-Webhook-Signature": sign(body, "whsec", timestamp),
    "X-Webhook-Delivery": "dlv_1",
  });
  const outcome = (now: number): string => {
    try {
      verify(body, headers(sent), "whsec", { now });
      return "ok";
    } catch (error) {
      if (error instanceof WebhookVerificationError) return error.reason;
      throw error;
    }
  };
  const seen = {
    at300Late: outcome(sent + 300),
    at300Early: outcome(sent - 300),
    at301Late: outcome(sent + 301),
    at301Early: outcome(sent - 301),
  };
  check(DEFAULT_TOLERANCE_SECONDS === 300, "the default tolerance is 300 s");
  check(seen.at300Late === "ok" && seen.at300Early === "ok", `within 300 s: ${JSON.stringify(seen)}`);
  check(
    seen.at301Late === "timestamp_out_of_tolerance" && seen.at301Early === "timestamp_out_of_tolerance",
    `beyond 300 s: ${JSON.stringify(seen)}`,
  );
  return seen;
}

function theClientSecretIsRefusedInABrowserUnlessAllowedByName() {
  const scope = globalThis as { window?: unknown; document?: unknown };
  scope.window = {};
  scope.document = {};
  try {
    let refused = "";
    try {
      client(new Service(0), []);
    } catch (error) {
      refused = (error as Error).message;
    }
    check(refused.includes("must not ship in a browser bundle"), `in a browser: ${refused || "no refusal"}`);
    client(new Service(0), [], { allowClientSecretInBrowser: true });
    return { refused };
  } finally {
    delete scope.window;
    delete scope.document;
  }
}

async function main(): Promise<void> {
  const seen = {
    backoff: await backoffAfterRetryAfterWithFullJitter(),
    bounded: await backoffCappedBoundedAndTheLast429Returned(),
    tokenBackoff: await aTokenRequestRefusedWith429IsSentAgain(),
    requestIds: await everyCallCarriesARequestIdTheCallersWins(),
    tokenReuse: await aTokenIsReusedUntil30SecondsBeforeItExpires(),
    verifierTolerance: theVerifierRefusesTimestampsMoreThan300SecondsAway(),
    browser: theClientSecretIsRefusedInABrowserUnlessAllowedByName(),
  };
  console.log(JSON.stringify(seen));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
