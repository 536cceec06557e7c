#!/usr/bin/env node
// Writes the OpenAPI documents the typed client (@eligo/client) is generated from: the document the gateway
// serves, split by server (REST v2; the admin API), so that each client knows only its own paths. Run after a
// build whenever an endpoint changes: `npm run client:documents`. A gateway test fails while they differ.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { clientDocuments } = require(join(root, 'services/gateway/dist/src/openapi/client-documents.js'));
for (const [name, document] of Object.entries(clientDocuments())) {
  const file = join(root, 'packages/client/openapi', `${name}.json`);
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
  console.log(`wrote ${file}`);
}
