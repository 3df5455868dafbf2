/**
 * A signed-in user's flow with the TypeScript session SDK only (generated/typescript/session):
 * tests/system/test_typed_session_programs.py compiles this with the SDK under `tsc --strict` and runs it
 * against `tessera serve --demo`.
 *
 *   node session-flow.js      BASE_URL, EMAIL, PASSWORD in the environment
 *
 * It logs in, lists assets with a typed filter, creates an asset with a typed payload, finds it with a typed
 * filter and reads it back. The first business call is sent with a spoiled JWT: the client must log in again
 * and retry it once. Prints one JSON object (what happened); a failed expectation exits non-zero.
 */

import { randomUUID } from "node:crypto";

import {
  type CommandRequest,
  createSessionClient,
  type FilterOf,
  type ItemOf,
  type RecordOf,
  type SessionClient,
  SessionError,
} from "../src/index.js";

const LIST = "/api/dynamic/assets/list";
const READ = "/api/dynamic/assets/{recordId}";
const CREATE = "/api/meta/commands/execute/assets:create";
const UPDATE = "/api/meta/commands/execute/assets:update";

type AssetFilter = FilterOf<typeof LIST>;
type Asset = RecordOf<typeof READ>;
type Status = "in_stock" | "assigned" | "retired";

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`expectation failed: ${message}`);
}

function env(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === "") throw new Error(`${name} is not set`);
  return value;
}

/** Never called: each line is refused by `tsc --strict` (an unused `@ts-expect-error` fails the compile). */
export async function refusedByTheTypes(session: SessionClient): Promise<void> {
  // @ts-expect-error -- not a field of the assets page
  const unknownField: AssetFilter = { fieldName: "colour", operator: "eq", value: "red" };
  // @ts-expect-error -- `like` compares text, `value` is a number field
  const likeOnNumber: AssetFilter = { fieldName: "value", operator: "like", value: "12" };
  // @ts-expect-error -- `in` takes an array of values
  const inScalar: AssetFilter = { fieldName: "status", operator: "in", value: "retired" };
  // @ts-expect-error -- the create payload requires `serialNo`
  const noSerial: CommandRequest<typeof CREATE> = { payload: { name: "scanner" } };
  // @ts-expect-error -- `status` is one of the declared states
  const badStatus: CommandRequest<typeof CREATE> = { payload: { name: "s", serialNo: "S", status: "lost" } };
  // @ts-expect-error -- not a sortable field of the page
  await session.list(LIST, { sortField: "colour" });
  const record: Asset = await session.read(READ, "rec_x");
  // @ts-expect-error -- a record has no such field
  console.log(record.colour, unknownField, likeOnNumber, inScalar, noSerial, badStatus);
}

async function flow(): Promise<Record<string, unknown>> {
  // A fetch that spoils the JWT of the first business call: the service answers 401 UNAUTHORIZED, and the
  // client must log in again and retry that call once.
  let spoiled = false;
  const fetchSpy: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    if (!spoiled && new URL(request.url).pathname !== "/api/auth/login") {
      spoiled = true;
      request.headers.set("Authorization", "Bearer not.a.jwt");
    }
    return fetch(request);
  };
  const session = createSessionClient({
    baseUrl: env("BASE_URL"),
    email: env("EMAIL"),
    password: env("PASSWORD"),
    fetch: fetchSpy,
  });

  // 1. A typed filter: retired assets, sorted by serial number.
  const retired: AssetFilter = { fieldName: "status", operator: "eq", value: "retired" };
  const before = await session.list(LIST, { pageSize: 5, sortField: "serialNo", sortOrder: "asc", filters: [retired] });
  check(spoiled && session.login.logins === 2, `one login, then one more after the spoiled JWT: ${session.login.logins}`);
  check(before.records.every((asset) => asset.status === "retired"), "the filter holds on every record");
  const serials = before.records.map((asset) => asset.serialNo);
  check(serials.join("\n") === [...serials].sort().join("\n"), `sorted by serialNo: ${serials.join(", ")}`);

  // 2. A typed payload: a new retired asset.
  const serialNo = `TS-${randomUUID().slice(0, 8)}`;
  const body: CommandRequest<typeof CREATE> = {
    payload: { name: "TypeScript scanner", serialNo, status: "retired", value: 12.5, purchasedAt: "2024-05-01" },
  };
  const key = randomUUID();
  const { result: created, replayed } = await session.execute(CREATE, body, { idempotentKey: key });
  check(!replayed && created.serialNo === serialNo, "created");
  const again = await session.execute(CREATE, body, { idempotentKey: key });
  check(again.replayed && again.result.id === created.id, "the same key replays the first result");

  // 3. Found by typed filters (text equality and a number range), then read back.
  const mine: AssetFilter[] = [
    { fieldName: "serialNo", operator: "eq", value: serialNo },
    { fieldName: "value", operator: "gte", value: 12.5 },
    { fieldName: "status", operator: "in", value: ["retired", "in_stock"] },
  ];
  const found = await session.list(LIST, { filters: mine });
  const ids = found.records.map((asset: ItemOf<typeof LIST>) => asset.id);
  check(found.total === 1 && ids.length === 1 && ids[0] === created.id, `found by the filters: ${ids.join(", ")}`);
  const read: Asset = await session.read(READ, created.id);
  const status: Status | null | undefined = read.status;
  const value: number | null | undefined = read.value;
  check(read.name === "TypeScript scanner" && status === "retired" && value === 12.5, "read back as created");
  const after = await session.list(LIST, { pageSize: 1, filters: [retired] });
  check(after.total === before.total + 1, `one more retired asset: ${before.total} -> ${after.total}`);

  // 3b. A partial update: the type asks for no field but the one changed (a field with a default is
  // optional), and the service changes that field alone: the status stays `retired`.
  const onlyValue: CommandRequest<typeof UPDATE> = {
    operationType: "UPDATE", targetRecordId: created.id, payload: { value: 20 },
  };
  await session.execute(UPDATE, onlyValue);
  const updated: Asset = await session.read(READ, created.id);

  // 4. A refusal is a SessionError with the envelope's code.
  let missing = "";
  try {
    await session.read(READ, "rec_doesnotexist");
  } catch (e) {
    if (!(e instanceof SessionError)) throw e;
    missing = `${e.status} ${e.code}`;
  }

  return {
    user: session.login.result?.username,
    tenant: session.login.result?.tenantId,
    logins: session.login.logins,
    retiredBefore: before.total,
    retiredAfter: after.total,
    created: { id: created.id, serialNo: created.serialNo },
    replayed: again.replayed,
    found: ids,
    read: { name: read.name, serialNo: read.serialNo, status, value, purchasedAt: read.purchasedAt },
    updated: { name: updated.name, serialNo: updated.serialNo, status: updated.status, value: updated.value,
               purchasedAt: updated.purchasedAt },
    missing,
  };
}

flow().then(
  (outcome) => console.log(JSON.stringify(outcome)),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
