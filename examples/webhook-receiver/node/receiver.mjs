// An Eligo webhook receiver: verify the Standard Webhooks signature, answer 204 at once, then read the
// verification's details (reward code, current step) with the account token. Node.js 20.19+, one dependency:
// `standardwebhooks`. See ../README.md.
//
//   PORT=3000 ELIGO_BASE_URL=http://localhost:8080 ELIGO_TOKEN=eligo_... ELIGO_WEBHOOK_SECRET=whsec_... \
//     node receiver.mjs
import { appendFileSync, realpathSync } from 'node:fs';
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';

// Eligo's bodies are ids only: anything bigger is not from Eligo, and is refused before it is read whole.
const MAX_BODY_BYTES = 64 * 1024;
// Eligo ids are 24 lowercase hex characters; checked before the id goes into a URL.
const ELIGO_ID = /^[0-9a-f]{24}$/;

/** One JSON line on stdout per event: ids and outcomes only. Details hold personal data: never log them. */
function log(event, fields = {}) {
  console.log(JSON.stringify({ event, ...fields }));
}

/**
 * The receiver as a node:http server (call .listen()). `onDetails({webhookId, verificationId,
 * notifierEventType, details})` is your code: grant the offer, update the order, and so on.
 */
export function createReceiver({ webhookSecret, eligoBaseUrl, eligoToken, onDetails = () => {} }) {
  // Throws here on a secret that is not `whsec_` + base64, instead of refusing every delivery later.
  const webhook = new Webhook(webhookSecret);
  // The webhook-ids already taken. Eligo retries a delivery until it gets a 2xx (same webhook-id each time),
  // so the same notification can arrive twice (e.g. our 204 was lost). This in-memory set forgets on restart
  // and is not shared between replicas: a real receiver inserts the id into its database under a unique
  // constraint (INSERT ... ON CONFLICT DO NOTHING), in the same transaction that queues the work, and keeps
  // ids for at least a week (Eligo's retries span about three days).
  const seen = new Set();

  return http.createServer(async (req, res) => {
    if (req.method !== 'POST') return answer(res, 405);
    const body = await readBody(req);
    if (body === undefined) return answer(res, 413);

    // Verify the raw bytes as received (parsed and re-serialised JSON would not match the signature). This
    // also refuses a webhook-timestamp more than 5 minutes off, so an old captured request cannot be replayed.
    try {
      webhook.verify(body, req.headers, { jsonParse: false });
    } catch {
      log('refused', { reason: 'bad signature' });
      return answer(res, 401); // Not 2xx: nothing is done, and were it Eligo's, it would be retried.
    }
    const webhookId = req.headers['webhook-id'];
    let notification;
    try {
      notification = JSON.parse(body);
    } catch {
      notification = undefined;
    }
    if (!ELIGO_ID.test(notification?.verificationId ?? '')) {
      log('refused', { reason: 'no verificationId', webhookId });
      return answer(res, 400);
    }
    // Marked only after the signature is checked: a forger must not be able to burn real ids.
    if (seen.has(webhookId)) {
      log('duplicate', { webhookId, verificationId: notification.verificationId });
      return answer(res, 204); // 2xx, so that Eligo stops retrying it.
    }
    seen.add(webhookId);
    if (seen.size > 100_000) seen.delete(seen.values().next().value); // Bounded: the oldest goes first.

    // Answer first: Eligo waits at most 15 s for the answer, and a slow or failing details call must not turn
    // into a timeout and a retry of a notification we already have. The work happens after the answer.
    answer(res, 204);
    const event = {
      webhookId,
      verificationId: notification.verificationId,
      // Absent on a success (the body integrators have always had); DOCUMENT_REJECTED, EXPIRATION, ... else.
      notifierEventType: notification.notifierEventType ?? 'SUCCESS',
    };
    try {
      const details = await fetchDetails(eligoBaseUrl, eligoToken, event.verificationId);
      const last = details.lastResponse ?? {};
      log('handled', { ...event, currentStep: last.currentStep, hasRewardCode: Boolean(last.rewardCode) });
      await onDetails({ ...event, details });
    } catch (error) {
      // Eligo had its 2xx and will not resend this one. A real receiver keeps the event in a durable queue and
      // retries later; POST /rest/v2/verification/{id}/refireWebhooks also sends the notification again.
      log('failed', { ...event, error: error.message });
    }
  });
}

/** GET /rest/v2/verification/{id}/details with the account token; retries what may pass on a second try. */
export async function fetchDetails(eligoBaseUrl, eligoToken, verificationId) {
  const url = `${eligoBaseUrl.replace(/\/+$/, '')}/rest/v2/verification/${verificationId}/details`;
  for (let attempt = 1; ; attempt++) {
    let status;
    try {
      const res = await fetch(url, {
        headers: { authorization: `Bearer ${eligoToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(10_000),
      });
      if (res.ok) return await res.json();
      status = res.status;
    } catch (error) {
      if (attempt >= 3) throw error; // network error or timeout
    }
    // 401 (token revoked?) or 404 (another account's verification) will not change: give up at once.
    if (status !== undefined && (attempt >= 3 || (status < 500 && status !== 429)))
      throw new Error(`details answered ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
  }
}

function answer(res, status) {
  res.writeHead(status).end();
}

/** The body as text; undefined when it is too large (the rest is read and dropped) or broke off. */
function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size <= MAX_BODY_BYTES ? Buffer.concat(chunks).toString('utf8') : undefined));
    req.on('error', () => resolve(undefined));
  });
}

// Started as a program (not imported): configuration from the environment.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const env = (name, fallback) => {
    const value = process.env[name] ?? fallback;
    if (value === undefined || value === '') {
      console.error(`${name} is not set`);
      process.exit(1);
    }
    return value;
  };
  const recordFile = process.env.RECEIVER_RECORD_FILE;
  const server = createReceiver({
    webhookSecret: env('ELIGO_WEBHOOK_SECRET'), // whsec_..., shown once when the webhook was created
    eligoBaseUrl: env('ELIGO_BASE_URL', 'http://localhost:8080'),
    eligoToken: env('ELIGO_TOKEN'), // an access token of the account that owns the program
    // Stands in for your business code: appends what it would act on, reward code included, as a JSON line
    // (kept out of the log above). The e2e test reads this file.
    onDetails: ({ details, ...event }) => {
      const record = {
        ...event,
        currentStep: details.lastResponse?.currentStep,
        rewardCode: details.lastResponse?.rewardCode ?? null,
      };
      if (recordFile) appendFileSync(recordFile, `${JSON.stringify(record)}\n`);
    },
  });
  server.listen(Number(env('PORT', '3000')), () => log('listening', { port: server.address().port }));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
