"""An Eligo webhook receiver: verify the Standard Webhooks signature, answer 204 at once, then read the
verification's details (reward code, current step) with the account token. Python 3.9+, the standard library
and one dependency: `standardwebhooks` (requirements.txt). See ../README.md.

    PORT=3000 ELIGO_BASE_URL=http://localhost:8080 ELIGO_TOKEN=eligo_... ELIGO_WEBHOOK_SECRET=whsec_... \\
      python receiver.py
"""

import json
import os
import queue
import re
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import OrderedDict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, Optional

from standardwebhooks import Webhook

# Eligo's bodies are ids only: anything bigger is not from Eligo, and is refused without reading it.
MAX_BODY_BYTES = 64 * 1024
# Eligo ids are 24 lowercase hex characters; checked before the id goes into a URL.
ELIGO_ID = re.compile(r"^[0-9a-f]{24}$")

_log_lock = threading.Lock()


def log(event: str, **fields: Any) -> None:
    """One JSON line on stdout per event: ids and outcomes only. Details hold personal data: never log them."""
    with _log_lock:
        print(json.dumps({"event": event, **fields}, separators=(",", ":")), flush=True)


class SeenIds:
    """The webhook-ids already taken. Eligo retries a delivery until it gets a 2xx (same webhook-id each time),
    so the same notification can arrive twice (e.g. our 204 was lost). This in-memory set forgets on restart and
    is not shared between replicas: a real receiver inserts the id into its database under a unique constraint
    (INSERT ... ON CONFLICT DO NOTHING), in the same transaction that queues the work, and keeps ids for at
    least a week (Eligo's retries span about three days)."""

    def __init__(self, limit: int = 100_000) -> None:
        self._ids: "OrderedDict[str, None]" = OrderedDict()
        self._limit = limit
        self._lock = threading.Lock()  # requests are handled on several threads

    def add(self, webhook_id: str) -> bool:
        """True when the id is new (and now taken), False when it was seen before."""
        with self._lock:
            if webhook_id in self._ids:
                return False
            self._ids[webhook_id] = None
            if len(self._ids) > self._limit:
                self._ids.popitem(last=False)  # bounded: the oldest goes first
            return True


def fetch_details(eligo_base_url: str, eligo_token: str, verification_id: str) -> Dict[str, Any]:
    """GET /rest/v2/verification/{id}/details with the account token; retries what may pass on a second try."""
    url = f"{eligo_base_url.rstrip('/')}/rest/v2/verification/{verification_id}/details"
    request = urllib.request.Request(
        url, headers={"Authorization": f"Bearer {eligo_token}", "Accept": "application/json"}
    )
    attempt = 1
    while True:
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            # 401 (token revoked?) or 404 (another account's verification) will not change: give up at once.
            if attempt >= 3 or (error.code < 500 and error.code != 429):
                raise RuntimeError(f"details answered {error.code}") from None
        except OSError:  # connection refused, timeout (URLError is an OSError)
            if attempt >= 3:
                raise
        time.sleep(attempt)
        attempt += 1


def make_server(
    port: int,
    webhook_secret: str,
    eligo_base_url: str,
    eligo_token: str,
    on_details: Callable[[Dict[str, Any]], None] = lambda event: None,
) -> ThreadingHTTPServer:
    """The receiver as an HTTP server (call serve_forever()). `on_details(event)` is your code (grant the offer,
    update the order, ...); event has webhookId, verificationId, notifierEventType and details."""
    # Raises here on a secret that is not `whsec_` + base64, instead of refusing every delivery later.
    webhook = Webhook(webhook_secret)
    seen = SeenIds()
    # Answer first, work after: Eligo waits at most 15 s for the answer, and a slow or failing details call must
    # not turn into a timeout and a retry of a notification we already have. One worker takes the queue.
    work: "queue.Queue[Dict[str, str]]" = queue.Queue()

    def worker() -> None:
        while True:
            event = work.get()
            try:
                details = fetch_details(eligo_base_url, eligo_token, event["verificationId"])
                last = details.get("lastResponse") or {}
                log(
                    "handled",
                    **event,
                    currentStep=last.get("currentStep"),
                    hasRewardCode=bool(last.get("rewardCode")),
                )
                on_details({**event, "details": details})
            except Exception as error:  # noqa: BLE001 - one bad event must not stop the worker
                # Eligo had its 2xx and will not resend this one. A real receiver keeps the event in a durable
                # queue and retries later; POST /rest/v2/verification/{id}/refireWebhooks also sends it again.
                log("failed", **event, error=str(error))

    threading.Thread(target=worker, daemon=True).start()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
            length = self.headers.get("Content-Length")
            if length is None or not length.isdigit():
                return self.answer(411)
            if int(length) > MAX_BODY_BYTES:
                self.close_connection = True  # the body is left unread
                return self.answer(413)
            body = self.rfile.read(int(length))
            headers = {name.lower(): value for name, value in self.headers.items()}

            # Verify the raw bytes as received (parsed and re-serialised JSON would not match the signature).
            # This also refuses a webhook-timestamp more than 5 minutes off, so an old captured request cannot be
            # replayed. Any failure (missing header, malformed signature, wrong key) is a refusal.
            try:
                webhook.verify(body, headers, json_parse=False)
            except Exception:  # noqa: BLE001
                log("refused", reason="bad signature")
                return self.answer(401)  # not 2xx: nothing is done, and were it Eligo's, it would be retried
            webhook_id = headers["webhook-id"]
            try:
                notification = json.loads(body)
            except ValueError:
                notification = None
            verification_id = notification.get("verificationId") if isinstance(notification, dict) else None
            if not isinstance(verification_id, str) or not ELIGO_ID.match(verification_id):
                log("refused", reason="no verificationId", webhookId=webhook_id)
                return self.answer(400)
            # Marked only after the signature is checked: a forger must not be able to burn real ids.
            if not seen.add(webhook_id):
                log("duplicate", webhookId=webhook_id, verificationId=verification_id)
                return self.answer(204)  # 2xx, so that Eligo stops retrying it
            self.answer(204)
            work.put(
                {
                    "webhookId": webhook_id,
                    "verificationId": verification_id,
                    # Absent on a success (the body integrators have always had); DOCUMENT_REJECTED, ... else.
                    "notifierEventType": notification.get("notifierEventType") or "SUCCESS",
                }
            )

        def answer(self, status: int) -> None:
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass  # the access log is replaced by the JSON lines above

    return ThreadingHTTPServer(("", port), Handler)


def main() -> None:
    def env(name: str, default: Optional[str] = None) -> str:
        value = os.environ.get(name) or default
        if not value:
            sys.exit(f"{name} is not set")
        return value

    record_file = os.environ.get("RECEIVER_RECORD_FILE")

    def on_details(event: Dict[str, Any]) -> None:
        # Stands in for your business code: appends what it would act on, reward code included, as a JSON line
        # (kept out of the log). The e2e test reads this file.
        last = event["details"].get("lastResponse") or {}
        record = {
            "webhookId": event["webhookId"],
            "verificationId": event["verificationId"],
            "notifierEventType": event["notifierEventType"],
            "currentStep": last.get("currentStep"),
            "rewardCode": last.get("rewardCode"),
        }
        if record_file:
            with open(record_file, "a", encoding="utf-8") as out:
                out.write(json.dumps(record) + "\n")

    server = make_server(
        port=int(env("PORT", "3000")),
        webhook_secret=env("ELIGO_WEBHOOK_SECRET"),  # whsec_..., shown once when the webhook was created
        eligo_base_url=env("ELIGO_BASE_URL", "http://localhost:8080"),
        eligo_token=env("ELIGO_TOKEN"),  # an access token of the account that owns the program
        on_details=on_details,
    )
    log("listening", port=server.server_address[1])
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
