import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientDocuments } from './client-documents';

// The typed client (packages/client) is generated from these files: they must be what the gateway serves.
const dir = join(__dirname, '../../../../packages/client/openapi');

it.each(Object.entries(clientDocuments()))(
  'packages/client/openapi/%s.json is the served document (else: npm run client:documents)',
  (name, document) => {
    const committed = JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as unknown;
    expect(committed).toEqual(JSON.parse(JSON.stringify(document)));
  },
);

it('splits the served paths by server: REST v2 and the admin API, each without per-path servers', () => {
  const { 'rest-v2': v2, admin } = clientDocuments();
  expect(Object.keys(v2.paths)).toContain('/verification/{verificationId}/step/collectStudentPersonalInfo');
  expect(Object.keys(admin.paths)).toContain('/accounts');
  for (const doc of [v2, admin])
    for (const item of Object.values(doc.paths)) expect(item.servers).toBeUndefined();
  expect(Object.keys(v2.paths).filter((p) => p in admin.paths)).toEqual([]);
});
