import { staffRoles } from '../auth/principal';
import { openApiDocument } from '../openapi/document';
import { operationRoles, roleMatrix, rolesAllowed } from './admin-roles';

// Every admin operation of the served document has its staff roles (endpoints/admin-roles.ts): a new endpoint
// cannot be added without saying who of the staff may call it.
type Json = Record<string, unknown>;
const document = openApiDocument('https://eligo.example.com') as { paths: Record<string, Json> };
const adminOperations = Object.entries(document.paths).flatMap(([path, item]) =>
  ['get', 'put', 'post', 'patch', 'delete']
    .map((method) => ({ path, method, operation: item[method] as Json | undefined }))
    .filter((o): o is { path: string; method: string; operation: Json } => o.operation !== undefined)
    .filter((o) => (o.operation.tags as string[]).includes('admin')),
);

describe('the staff roles of the admin API', () => {
  it('name every admin operation of the served document, and no other', () => {
    const served = adminOperations.map((o) => String(o.operation.operationId)).sort();
    expect(served.length).toBeGreaterThan(25);
    expect(Object.keys(operationRoles).sort()).toEqual(served);
  });

  it('let admin call everything, and give support every operation reviewers have', () => {
    for (const [operationId, roles] of Object.entries(operationRoles)) {
      expect([operationId, roles.includes('admin')]).toEqual([operationId, true]);
      if (roles.includes('reviewer'))
        expect([operationId, roles.includes('support')]).toEqual([operationId, true]);
      for (const role of roles) expect(staffRoles).toContain(role);
    }
  });

  it('are the matrix docs/operations.md states', () => {
    const matrix = roleMatrix();
    expect(matrix.reviewer.sort()).toEqual(
      [
        'adminListReviews',
        'adminGetReview',
        'adminDecideReview',
        'adminClaimReview',
        'adminReleaseReview',
        'adminGetReviewFile',
        'adminGetVerification',
        'adminSearchVerifications',
      ].sort(),
    );
    expect(matrix.support.sort()).toEqual(
      [
        ...matrix.reviewer,
        'adminListAddSchoolRequests',
        'adminAcceptAddSchoolRequest',
        'adminDeclineAddSchoolRequest',
        'adminGetOrganization',
        'adminListWebhookDeliveries',
        'adminResendWebhookDelivery',
        'adminExpireVerification',
        'adminListMessages',
        'adminListAccounts',
        'adminGetAccount',
        'adminListPrograms',
        'adminGetRewardCodePoolLevel',
      ].sort(),
    );
    expect(matrix.admin.sort()).toEqual(Object.keys(operationRoles).sort());
  });

  it('refuse to all but admin an operation the table does not name', () => {
    expect(rolesAllowed('adminSomethingNew')).toEqual(['admin']);
  });

  it.each(adminOperations)(
    'are stated on $method $path: the staff session, x-staff-roles and the 403',
    ({ operation }) => {
      expect(operation.security).toEqual([{ operatorToken: [] }, { staffSession: [] }]);
      expect(operation['x-staff-roles']).toEqual(operationRoles[String(operation.operationId)]);
      expect((operation.responses as Json)['403']).toMatchObject({
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
      });
    },
  );

  it('leave the operations of other tags as they were', () => {
    for (const item of Object.values(document.paths))
      for (const method of ['get', 'put', 'post', 'patch', 'delete']) {
        const operation = item[method] as Json | undefined;
        if (!operation || (operation.tags as string[]).includes('admin')) continue;
        expect(operation['x-staff-roles']).toBeUndefined();
        expect(JSON.stringify(operation.security ?? [])).not.toContain('staffSession');
      }
  });
});
