// Verifies a recorded delivery with the Standard Webhooks project's own library (npm `standardwebhooks`),
// which shares no code with Tessera or its SDK. Usage: node verify.mjs <file>, where the file holds
// {"body": base64 of the raw body, "headers": {...}, "secret": "whsec_..."}. Prints one JSON line.
import { readFileSync } from "node:fs";
import { Webhook } from "standardwebhooks";

const recorded = JSON.parse(readFileSync(process.argv[2], "utf-8"));
const body = Buffer.from(recorded.body, "base64");
const headers = Object.fromEntries(Object.entries(recorded.headers).map(([k, v]) => [k.toLowerCase(), v]));

function refusal(check) {
  try {
    check();
    return null;
  } catch (error) {
    return error.name;
  }
}

const event = new Webhook(recorded.secret).verify(body, headers);
const wrongSecret = refusal(() => new Webhook(Buffer.from("not-the-secret").toString("base64")).verify(body, headers));
const tampered = refusal(() => new Webhook(recorded.secret).verify(Buffer.concat([body, Buffer.from(" ")]), headers));
console.log(JSON.stringify({ event, wrongSecret, tampered }));
