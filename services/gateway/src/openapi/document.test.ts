import { subjectKeys, subjectTypes } from '../validation/subject-keys';
import { openApiDocument } from './document';

type Json = Record<string, unknown>;
const base = 'https://eligo.example.com';
const document = openApiDocument(base) as {
  paths: Record<string, Json>;
  components: Json;
};
const methods = ['get', 'post', 'put', 'patch', 'delete'];

const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  methods
    .filter((m) => item[m])
    .map((m) => ({ path, method: m, item, operation: item[m] as Json & { responses: Json } })),
);

function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refsIn(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsIn(v, out);
    }
  }
  return out;
}

it('resolves every $ref inside the document', () => {
  const refs = [...new Set(refsIn(document))];
  expect(refs.length).toBeGreaterThan(10);
  for (const ref of refs) {
    const target = ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, key) => (node as Json | undefined)?.[key], document);
    expect([ref, target !== undefined]).toEqual([ref, true]);
  }
});

it('gives every operation a unique operationId, a tag and a described response for each status', () => {
  const ids = operations.map((o) => o.operation.operationId);
  expect(new Set(ids).size).toBe(ids.length);
  for (const { operation } of operations) {
    expect((operation.tags as string[]).length).toBe(1);
    for (const response of Object.values(operation.responses) as Json[]) {
      expect(typeof response.description === 'string' || typeof response.$ref === 'string').toBe(true);
    }
  }
});

it('declares every path parameter of every path template', () => {
  for (const { path, item } of operations) {
    const declared = ((item.parameters as { name: string }[] | undefined) ?? []).map((p) => p.name);
    const inTemplate = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    expect([path, declared.sort()]).toEqual([path, inTemplate.sort()]);
  }
});

it('tags the admin API, OAuth and the upload URLs, and gives their paths their own servers', () => {
  for (const { path, item, operation } of operations) {
    const tag = (operation.tags as string[])[0];
    const servers = item.servers as { url: string }[] | undefined;
    if (tag === 'admin') expect(servers?.[0]?.url).toBe(`${base}/rest/admin/v1`);
    else if (tag === 'oauth') expect(servers?.[0]?.url).toBe(`${base}/rest/oauth`);
    else if (tag === 'upload') expect(servers?.[0]?.url).toBe(base);
    else expect([path, servers]).toEqual([path, undefined]);
  }
  expect(
    operations
      .filter((o) => (o.operation.tags as string[])[0] === 'admin')
      .map((o) => `${o.method} ${o.path}`),
  ).toEqual([
    'get /accounts',
    'post /accounts',
    'get /accounts/{accountId}/tokens',
    'post /accounts/{accountId}/tokens',
    'delete /accounts/{accountId}/tokens/{tokenId}',
    'get /programs',
    'post /programs',
    'get /programs/{programId}',
    'patch /programs/{programId}',
    'post /programs/{programId}/rewardCodes',
    'get /accounts/{accountId}',
    'get /programs/{programId}/rewardCodes/level',
    'post /programs/{programId}/webhook/secret',
    'get /programs/{programId}/eligibility-list',
    'put /programs/{programId}/eligibility-list',
    'delete /programs/{programId}/eligibility-list',
    'get /organizations/{organizationId}/sso',
    'put /organizations/{organizationId}/sso',
    'delete /organizations/{organizationId}/sso',
    'post /organizations',
    'get /organizations/{organizationId}',
    'get /addSchoolRequests',
    'post /addSchoolRequests/{requestId}/accept',
    'post /addSchoolRequests/{requestId}/decline',
    'post /verifications/search',
    'get /verifications/{verificationId}',
    'post /verifications/{verificationId}/expire',
    'get /reviews',
    'get /reviews/{reviewId}',
    'post /reviews/{reviewId}/decision',
    'post /reviews/{reviewId}/claim',
    'delete /reviews/{reviewId}/claim',
    'get /reviews/{reviewId}/files/{documentId}',
    'get /programs/{programId}/webhook/deliveries',
    'post /programs/{programId}/webhook/deliveries/{deliveryId}/resend',
    'get /messages',
    'get /parked-events',
    'get /parked-events/{module}/{id}',
    'post /parked-events/{module}/{id}/replay',
    'get /pii-access',
    'get /staff',
    'post /staff',
    'get /staff/{staffId}',
    'patch /staff/{staffId}',
    'post /staff/{staffId}/password',
    'get /audit',
    'get /audit/export',
  ]);
});

it('documents 401 on every authenticated operation and 400/413 on every one with a body', () => {
  for (const { path, method, operation } of operations) {
    const statuses = Object.keys(operation.responses);
    if (operation.security && path !== '/token')
      expect([method, path, statuses.includes('401')]).toEqual([method, path, true]);
    if (operation.requestBody) {
      expect([method, path, statuses.includes('400'), statuses.includes('413')]).toEqual([
        method,
        path,
        true,
        true,
      ]);
    }
  }
});

it('documents 431 (a request head over the HTTP server’s 16 KiB limit, SEM) on every operation', () => {
  const without = operations.filter(({ operation }) => !('431' in operation.responses));
  expect(without.map(({ method, path }) => `${method} ${path}`)).toEqual([]);
  expect(operations[0]!.operation.responses['431']).toEqual({
    $ref: '#/components/responses/RequestHeadTooLarge',
  });
});

it('leaves the organization search and add-school open, and marks the per-audience searches deprecated', () => {
  const organization = operations.filter((o) => (o.operation.tags as string[])[0] === 'organization');
  expect(organization.map((o) => `${o.method} ${o.path}`)).toEqual([
    'get /program/{programId}/organization',
    'get /organization/student',
    'get /organization/military',
    'get /organization/teacher',
    'post /organization/addSchool/search/domain',
    'post /organization/addSchool/search/name',
    'post /organization/addSchool',
  ]);
  for (const { path, operation } of organization) {
    expect([path, operation.security]).toEqual([path, undefined]);
    const deprecated = path.startsWith('/organization/') && !path.includes('addSchool');
    expect([path, operation.deprecated === true]).toEqual([path, deprecated]);
  }
});

it('describes the verification flow, every personal-info step on both path shapes, and the token endpoints', () => {
  const verification = operations.filter((o) => (o.operation.tags as string[])[0] === 'verification');
  const names = verification.map((o) => `${o.method} ${o.path}`);
  expect(names).toEqual(
    expect.arrayContaining([
      'post /verification',
      'get /verification/{verificationId}',
      'get /verification/program/{programId}/trackingId/{trackingId}',
      'get /verification/program/{programId}/trackingId/{trackingId}/history',
      'get /verification/{verificationId}/details',
      'get /verification/{verificationId}/metadata',
      'put /verification/{verificationId}/metadata',
      'post /verification/{verificationId}/refireWebhooks',
      'post /verification/{verificationId}/expire',
      'post /verification/{verificationId}/step/collectPersonalInfo',
      'post /verification/{verificationId}/step/collectMarketplaceToken',
      'post /verification/marketplace',
      'post /verification/{verificationId}/step/collectMilitaryStatus',
      'post /verification/{verificationId}/step/collectSocialSecurityNumber',
      'delete /verification/{verificationId}/step/collectSocialSecurityNumber',
      'get /verification/{verificationId}/step/sso',
      'delete /verification/{verificationId}/step/sso',
      ...subjectTypes.flatMap((type) => [
        `post /verification/{verificationId}/step/collect${type}PersonalInfo`,
        `post /verification/program/{programId}/step/collect${type}PersonalInfo`,
      ]),
    ]),
  );
  const tokenEndpoints = ['/history', '/details', '/metadata', '/refireWebhooks'];
  // The creation paths take a token without needing one (a program may require its account's).
  const creation = (method: string, path: string) =>
    method === 'post' &&
    (path === '/verification' ||
      path === '/verification/marketplace' ||
      path.startsWith('/verification/program/{programId}/step/'));
  for (const { method, path, operation } of verification) {
    const needsToken = tokenEndpoints.some((end) => path.endsWith(end));
    const security = operation.security as object[] | undefined;
    if (creation(method, path)) expect([method, path, security?.[0]]).toEqual([method, path, {}]);
    else expect([method, path, security !== undefined]).toEqual([method, path, needsToken]);
  }
});

it('gives each subject schema exactly the keys of its row of the subjects table', () => {
  const schemas = document.components.schemas as Record<string, { properties: Json }>;
  for (const type of subjectTypes) {
    expect([type, Object.keys(schemas[`${type}Subject`]!.properties)]).toEqual([type, subjectKeys[type]]);
  }
  const driverLicense = (
    document.paths['/verification/{verificationId}/step/collectDriverLicensePersonalInfo'] as {
      post: { requestBody: { content: Json } };
    }
  ).post.requestBody.content;
  expect(Object.keys(driverLicense)).toEqual(['application/json', 'application/jose']);
});

it('documents the docUpload step (both forms, both path shapes), completeDocUpload and the upload URL', () => {
  const at = (method: string, path: string) => {
    const found = operations.find((o) => o.method === method && o.path === path);
    if (!found) throw new Error(`${method} ${path} is not documented`);
    return found.operation as Json & { responses: Json; requestBody?: { content: Json } };
  };
  for (const path of [
    '/verification/{verificationId}/step/docUpload',
    '/verification/{verificationId}/step/docUpload/{docUploadToken}',
  ]) {
    const upload = at('post', path);
    expect(Object.keys(upload.requestBody!.content)).toEqual(['application/json', 'multipart/form-data']);
    expect(Object.keys(upload.responses)).toEqual(
      expect.arrayContaining(['200', '400', '404', '413', '429', '502', '503']),
    );
    expect(upload.security).toBeUndefined();
  }
  expect(Object.keys(at('post', '/verification/{verificationId}/step/completeDocUpload').responses)).toEqual(
    expect.arrayContaining(['200', '400', '404']),
  );
  const put = at('put', '/uploads/{uploadToken}');
  expect(put.security).toBeUndefined();
  expect(Object.keys(put.responses)).toEqual(
    expect.arrayContaining(['200', '400', '404', '410', '411', '413', '502', '503']),
  );
});
