/**
 * The integrator flow with the TypeScript SDK only (tests/system/test_typescript_sdk.py compiles this with
 * the SDK and runs it against `tessera serve --demo`).
 *
 *   node integrator-flow.js flow            BASE_URL, CLIENT_ID, CLIENT_SECRET in the environment
 *   node integrator-flow.js verify <file>   a recorded delivery: {"body": base64, "headers": {...}, "secret": ...}
 *
 * Prints one JSON object (what happened) on stdout; any failed expectation exits non-zero with the reason.
 */

import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";

import {
  createOpenPlatformClient,
  type FeedEvent,
  OpenPlatformError,
  verifyEvent,
  WebhookVerificationError,
} from "../src/index.js";

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`expectation failed: ${message}`);
}

function env(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === "") throw new Error(`${name} is not set`);
  return value;
}

async function flow(): Promise<Record<string, unknown>> {
  // A fetch that spoils the token of the first business call: the service answers 401 invalid_token, and the
  // client must fetch a new token and retry that call once.
  let spoiled = false;
  let tokenRequests = 0;
  const fetchSpy: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    if (new URL(request.url).pathname === "/oauth2/token") tokenRequests += 1;
    else if (!spoiled) {
      spoiled = true;
      request.headers.set("Authorization", "Bearer tat_spoiled-by-the-test");
    }
    return fetch(request);
  };
  const client = createOpenPlatformClient({
    baseUrl: env("BASE_URL"),
    clientId: env("CLIENT_ID"),
    clientSecret: env("CLIENT_SECRET"),
    scope: "assets.read assets.manage",
    fetch: fetchSpy,
  });

  // 1. A typed call through openapi-fetch: whoami (its first attempt carries the spoiled token).
  const who = await client.api.GET("/api/open/v1/whoami", {});
  check(who.data !== undefined, `whoami answered ${who.response.status}`);
  check(tokenRequests === 2 && client.tokens.issued === 2, `one refresh after invalid_token (${tokenRequests} tokens)`);
  check(client.tokens.scopes.sort().join(" ") === "assets.manage assets.read", "the token carries both scopes");

  // 2. Walk every asset by cursor: each pid once.
  const pids: string[] = [];
  for await (const asset of client.walk("/api/open/v1/resources/assets", { limit: 50 })) pids.push(asset.pid);
  check(new Set(pids).size === pids.length, "a pid came twice in the cursor walk");
  const last = pids.at(-1);
  check(last !== undefined, "the walk found no asset");

  // 3. Read one with its ETag.
  const read = await client.read("/api/open/v1/resources/assets/{pid}", last);
  check(read.record.pid === last && read.etag.startsWith('"'), `read ${last}: ETag ${read.etag}`);

  // 4. Assign under If-Match and an Idempotency-Key, then replay the same key and body.
  const key = randomUUID();
  const assignee = `ts-${key.slice(0, 8)}`;
  const body = { targetPid: last, input: { assignee } };
  const first = await client.execute("/api/open/v1/commands/assets.assign:execute", body, {
    ifMatch: read.etag,
    idempotencyKey: key,
  });
  check(!first.replayed && !first.result.idempotentReplay, "the first call is not a replay");
  check(first.result.record.assignee === assignee && first.result.record.status === "assigned", "assigned");
  const replay = await client.execute("/api/open/v1/commands/assets.assign:execute", body, {
    ifMatch: read.etag,
    idempotencyKey: key,
  });
  check(replay.replayed && replay.result.idempotentReplay, "the same key and body is a replay");
  check(isDeepStrictEqual(replay.result.record, first.result.record), "the replay returns the first result");
  const after = await client.read("/api/open/v1/resources/assets/{pid}", last);
  check(isDeepStrictEqual(after.record, first.result.record), "the record is as the first call left it");
  check(after.etag !== read.etag, "the ETag changed with the record");

  // 5. The old ETag is refused (a new key: a new intended change).
  let refused: OpenPlatformError | undefined;
  try {
    await client.execute("/api/open/v1/commands/assets.assign:execute", body, {
      ifMatch: read.etag,
      idempotencyKey: randomUUID(),
    });
  } catch (error) {
    if (error instanceof OpenPlatformError) refused = error;
    else throw error;
  }
  check(refused?.status === 412 && refused.code === "precondition_failed", `stale ETag: ${refused?.message}`);

  // 6. Catch up through the events API: the assignment's event appears once the worker fans it out.
  let caughtUp: FeedEvent | undefined;
  for (let tries = 0; caughtUp === undefined && tries < 100; tries += 1) {
    for await (const event of client.iterEvents({ types: ["assets.assignment.changed"] })) {
      if (event.type === "assets.assignment.changed" && event.data.pid === last && event.data.assignee === assignee) {
        caughtUp = event;
      }
    }
    if (caughtUp === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  check(caughtUp !== undefined, "the assignment's event never reached the events API");

  return {
    caughtUp: { id: caughtUp.id, type: caughtUp.type },
    tenant: who.data.tenant.tenantId,
    walked: pids.length,
    pid: last,
    assignee,
    before: read.record.assignee,
    replayed: replay.replayed,
    staleEtag: refused.code,
    tokensIssued: client.tokens.issued,
  };
}

function verifyRecorded(file: string): Record<string, unknown> {
  const recorded = JSON.parse(readFileSync(file, "utf8")) as {
    body: string;
    headers: Record<string, string>;
    secret: string;
  };
  const raw = Buffer.from(recorded.body, "base64");
  const event = verifyEvent(raw, recorded.headers, [recorded.secret]);
  let wrongSecret = "";
  try {
    verifyEvent(raw, recorded.headers, "whsec_not-the-secret");
  } catch (error) {
    if (error instanceof WebhookVerificationError) wrongSecret = error.reason;
    else throw error;
  }
  let tampered = "";
  try {
    verifyEvent(Buffer.concat([raw, Buffer.from(" ")]), recorded.headers, recorded.secret);
  } catch (error) {
    if (error instanceof WebhookVerificationError) tampered = error.reason;
    else throw error;
  }
  return { event, wrongSecret, tampered };
}

const [command, argument] = process.argv.slice(2);
const run = command === "verify" && argument !== undefined ? Promise.resolve(verifyRecorded(argument)) : flow();
run.then(
  (outcome) => {
    process.stdout.write(`${JSON.stringify(outcome)}\n`);
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
