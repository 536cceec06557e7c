import { documentsApi, sampleFiles } from '../support/documents-api';
import { organizationsApi } from '../support/organizations-api';
import { programsApi, type ProgramsApi } from '../support/programs-api';
import { janeDoe, verificationApi } from '../support/verification-api';

/** The ids Schemathesis is given, so that its requests reach real objects rather than 404s. */
export interface Seeded {
  operatorToken: string;
  /** Account A: what most operations run as. Account B: the peer that must not see A's objects. */
  a: Tenant;
  b: Tenant;
  /** A program of A that admin PATCH and reward codes may change freely (flows use a.programId). */
  adminProgramId: string;
  /** A token of A that DELETE .../tokens/{tokenId} may revoke (never the one the run uses). */
  disposableTokenId: string;
  organizationId: number;
  addSchoolRequestId: string;
  reviewId: string;
  /** Verifications of A in each state the step operations need. */
  verifications: {
    collect: string[];
    success: string;
    docUpload: string;
    docUploadToken: string;
    pending: string;
  };
  uploadToken: string;
  reportId: string;
  batchId: string;
  trackingId: string;
}

export interface Tenant {
  accountId: string;
  token: string;
  clientId: string;
  clientSecret: string;
  programId: string;
}

const ALL_ROLES = ['REPORTER', 'PII', 'BULK_VERIFIER'];

/** Creates, through the public and admin APIs only, everything the Schemathesis run needs. */
export async function seed(httpUrl: string, operatorToken: string): Promise<Seeded> {
  const api = programsApi({ httpUrl, adminToken: operatorToken });
  const flow = verificationApi(api);
  const docs = documentsApi(api, (url) => url.replace(/^https?:\/\/[^/]+/, httpUrl));
  const ok = async (what: string, reply: Promise<{ status: number; body: any }>, status = 200) => {
    const r = await reply;
    if (r.status !== status)
      throw new Error(`seed ${what}: expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };

  const a = await tenant(api, 'Schemathesis A');
  const b = await tenant(api, 'Schemathesis B');
  const adminProgram = await api.createProgram(a.accountId, {
    name: 'admin sandbox',
    offerType: 'rewardPool',
  });
  const disposable = await api.createToken(a.accountId, 'disposable');

  const orgs = organizationsApi(api);
  await ok(
    'organization import',
    orgs.importCsv([
      { externalId: 'st-1', name: 'Schemathesis University', type: 'UNIVERSITY', country: 'US', domains: [] },
    ]),
  );
  const organizationId = await orgs.idOf(a.programId, 'Schemathesis University');
  await ok(
    'add-school request',
    api.v2('POST', '/organization/addSchool', {
      body: {
        ...janeDoe,
        birthDate: undefined,
        schoolName: 'Schemathesis College',
        schoolDomain: 'schemathesis.edu',
        schoolCountry: 'US',
        programId: a.programId,
      },
    }),
    204,
  );
  const requests = await ok('add-school requests', api.admin('GET', '/addSchoolRequests?status=PENDING'));
  const addSchoolRequestId = requests.requests[0].requestId as string;

  const trackingId = 'schemathesis-1';
  const collect: string[] = [];
  for (let i = 0; i < 3; i++)
    collect.push((await flow.started(a.programId, i === 0 ? trackingId : undefined)).verificationId);
  const success = (await flow.started(a.programId)).verificationId;
  await ok(
    'success',
    flow.submit(success, 'collectStudentPersonalInfo', { ...janeDoe, organization: { id: organizationId } }),
  );

  // docUpload: a test-mode UPLOAD first name asks for documents.
  const toDocUpload = async () => {
    const v = await flow.started(a.programId);
    const r = await ok(
      'docUpload',
      flow.submit(v.verificationId, 'collectStudentPersonalInfo', {
        ...janeDoe,
        firstName: 'UPLOAD',
        organization: { id: organizationId },
      }),
    );
    return { verificationId: v.verificationId, submissionUrl: r.submissionUrl as string };
  };
  const docUpload = await toDocUpload();
  const withManifest = await toDocUpload();
  const manifest = await ok(
    'manifest',
    docs.manifest(withManifest.submissionUrl, [
      { name: 'id.png', type: 'image/png', bytes: sampleFiles.png },
    ]),
  );
  const uploadToken = (manifest.documents[0].uploadUrl as string).split('/').pop()!;
  const pending = await toDocUpload();
  await ok(
    'form B',
    docs.multipart(pending.submissionUrl, [{ name: 'id.png', type: 'image/png', bytes: sampleFiles.png }]),
  );
  const reviews = await ok('reviews', docs.reviews());
  const reviewId = reviews.reviews[0].reviewId as string;

  const report = await ok(
    'report',
    api.v2('POST', '/report/verification', {
      token: a.token,
      body: { startDate: today(), endDate: today(), format: 'CSV', isPiiIncluded: false },
    }),
    202,
  );
  const batch = await ok(
    'reverify',
    api.v2('POST', '/verification/reverify', {
      token: a.token,
      body: { programId: a.programId, verificationIds: [success] },
    }),
    202,
  );

  return {
    operatorToken,
    a,
    b,
    adminProgramId: adminProgram.programId,
    disposableTokenId: disposable.tokenId,
    organizationId,
    addSchoolRequestId,
    reviewId,
    verifications: {
      collect,
      success,
      docUpload: docUpload.verificationId,
      docUploadToken: docUpload.submissionUrl.split('/').pop()!,
      pending: pending.verificationId,
    },
    uploadToken,
    reportId: report.id,
    batchId: batch.batchId,
    trackingId,
  };
}

async function tenant(api: ProgramsApi, name: string): Promise<Tenant> {
  const account = await api.createAccount(name);
  const token = await api.createToken(account.accountId, 'schemathesis', ALL_ROLES);
  const program = await api.createProgram(account.accountId, {
    name: `${name} students`,
    offerType: 'staticCode',
    rewardCode: 'SCHEMATHESIS',
  });
  return {
    accountId: account.accountId,
    token: token.token,
    clientId: token.clientId,
    clientSecret: token.clientSecret,
    programId: program.programId,
  };
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}
