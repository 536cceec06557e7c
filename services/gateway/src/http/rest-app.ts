import express, {
  Router,
  type Express,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import type { Logger } from 'pino';
import type { Authenticator } from '../auth/authenticator';
import { authMiddlewares } from '../auth/middleware';
import type { DocumentsClient } from '../clients/documents.client';
import type { ModuleInfoReader } from '../clients/module-info';
import type { NotifierClient } from '../clients/notifier.client';
import type { OrganizationsClient } from '../clients/organizations.client';
import type { ProgramsClient } from '../clients/programs.client';
import type { ReportsClient } from '../clients/reports.client';
import type { VerificationClient } from '../clients/verification.client';
import { errorMiddleware } from '../errors';
import { openApiDocument } from '../openapi/document';
import { adminAccountRouter } from '../routes/admin/accounts';
import { adminAccountListRouter } from '../routes/admin/account-lists';
import { adminNotifierRouter } from '../routes/admin/notifier';
import { adminParkedEventsRouter } from '../routes/admin/parked-events';
import type { ParkedEventsClient } from '../clients/parked-events.client';
import { idempotency } from '../idempotency/middleware';
import type { IdempotencyStore } from '../idempotency/store';
import type { RateLimiters } from './rate-limits';
import { adminOrganizationImportRouter, adminOrganizationRouter } from '../routes/admin/organizations';
import { adminEligibilityListRouter } from '../routes/admin/eligibility-lists';
import { adminOrganizationSsoRouter } from '../routes/admin/organization-sso';
import { adminPiiAccessRouter } from '../routes/admin/pii-access';
import { adminProgramRouter } from '../routes/admin/programs';
import { adminProgramListRouter } from '../routes/admin/program-lists';
import { adminReviewRouter } from '../routes/admin/reviews';
import { adminAuditRouter } from '../routes/admin/audit';
import { adminStaffRouter } from '../routes/admin/staff';
import { consoleOidcRouter } from '../routes/console-oidc';
import { consoleSessionRouter } from '../routes/console-session';
import type { StaffOidc } from '../staff/oidc';
import { conversionRouter } from '../routes/conversion';
import { docUploadRouter } from '../routes/doc-upload';
import { infoRouter } from '../routes/info';
import { oauthRouter } from '../routes/oauth';
import { organizationRouter } from '../routes/organization';
import { programRouter } from '../routes/program';
import { reportRouter } from '../routes/report';
import { reverifyRouter } from '../routes/reverify';
import { uploadRouter } from '../routes/uploads';
import { adminVerificationRouter } from '../routes/admin/verifications';
import { verificationRouter } from '../routes/verification';
import { apiReferenceRouter } from './api-reference';
import { ssoCallbackRouter } from '../routes/sso-callback';
import { verifyPageRouter } from './verify-page';
import { consolePageRouter } from './console-page';
import { corsForPublicEndpoints } from './cors';
import { embedOrigins } from './embed-origins';
import { oauthErrorMiddleware } from './oauth-errors';
import { allowedMethods, answerOptions, methodNotAllowed } from './allowed-methods';
import { collapseSlashes, refuseUndecodablePath } from './request-path';

export interface RestOptions {
  logger: Logger;
  publicBaseUrl: string;
  bodyLimit: string;
  version: string;
  gitCommit: string;
  modules: ModuleInfoReader;
  programs: ProgramsClient;
  organizations: OrganizationsClient;
  verification: VerificationClient;
  documents: DocumentsClient;
  notifier: NotifierClient;
  parkedEvents: ParkedEventsClient;
  /** Idempotency-Key records; the module always gives them (route tests that do not need them leave it out). */
  idempotency?: IdempotencyStore;
  /** The store's lock period, which running requests renew (ELIGO_GATEWAY_IDEMPOTENCY_LOCK_MS). */
  idempotencyLockMs?: number;
  /** Rate limits of public creations and send-link; absent in route tests, which need none. */
  rateLimits?: RateLimiters;
  /** Express's trust proxy setting (ELIGO_GATEWAY_TRUST_PROXY): who the client is behind a load balancer. */
  trustProxy?: boolean | number | string[];
  reports: ReportsClient;
  authenticator: Authenticator;
  /** Staff sign-in with the operator's OpenID provider, when configured (ELIGO_GATEWAY_STAFF_OIDC_*). */
  staffOidc?: StaffOidc;
  /** ELIGO_GATEWAY_IMPORT_MAX_BYTES: the organization import streams its body, outside bodyLimit. */
  importMaxBytes: number;
  importBatchDeadlineMs: number;
}

/**
 * Mounts REST v2 (/rest/v2), the admin API (/rest/admin/v1), the OAuth token endpoint (/rest/oauth) and the
 * document upload URLs (/uploads), each with its body limit, its authentication and the one error mapper.
 */
export function mountRest(app: Express, options: RestOptions): void {
  const document = openApiDocument(options.publicBaseUrl);
  const methods = allowedMethods(document, options.publicBaseUrl);
  const options405 = answerOptions(methods);
  const notAllowed = methodNotAllowed(methods);
  const auth = authMiddlewares(options.authenticator);
  const { programs, organizations, documents, reports, logger, publicBaseUrl } = options;
  // After each route's body parser (the body is part of what a key stands for); a no-op without a store.
  const idempotent: RequestHandler = options.idempotency
    ? idempotency(options.idempotency, logger, options.idempotencyLockMs ?? 15_000)
    : (_req, _res, next) => next();
  // JSON merge patch bodies are JSON too; anything else leaves req.body undefined (the validator says so).
  const json = express.json({
    limit: options.bodyLimit,
    strict: true,
    type: ['application/json', 'application/merge-patch+json'],
  });

  // Ahead of every router: `/rest/v2//verification/...` (a base URL ending in / plus a path starting with
  // one) is `/rest/v2/verification/...`.
  app.use(collapseSlashes);
  if (options.trustProxy !== undefined) app.set('trust proxy', options.trustProxy);

  // Who may embed a program's hosted page and call its public endpoints from a browser.
  const origins = embedOrigins(programs, options.verification);
  const v2 = Router();
  v2.use(refuseUndecodablePath, corsForPublicEndpoints({ origins, methods, logger }), options405);
  if (options.rateLimits)
    v2.post(
      ['/verification', '/verification/marketplace', '/organization/addSchool'],
      options.rateLimits.publicCreation,
    );
  // Ahead of the JSON parser: these routes read their own bodies (application/jose steps, smaller limits,
  // multipart uploads streamed on to the documents service).
  v2.use(
    docUploadRouter({
      idempotent,
      documents,
      publicBaseUrl: options.publicBaseUrl,
      bodyLimit: options.bodyLimit,
    }),
  );
  // Ahead of the verification flow, whose /verification/:verificationId routes would otherwise see
  // "reverify" first (they pass it on, but the bulk endpoints should not depend on that).
  v2.use(reverifyRouter({ reports, auth, publicBaseUrl, idempotent }));
  v2.use(
    verificationRouter({
      idempotent,
      verification: options.verification,
      auth,
      publicBaseUrl: options.publicBaseUrl,
      bodyLimit: options.bodyLimit,
    }),
  );
  // Its own parser too: every refusal of a conversion, malformed JSON included, is SEM.
  v2.use(conversionRouter({ reports, auth, bodyLimit: options.bodyLimit, idempotent }));
  v2.use(json);
  v2.use(idempotent);
  v2.use(apiReferenceRouter());
  v2.use(
    infoRouter({
      auth: auth.requireAnyToken,
      version: options.version,
      gitCommit: options.gitCommit,
      modules: options.modules,
      document,
    }),
  );
  v2.use(programRouter({ programs, auth, sendLinkLimit: options.rateLimits?.sendLink }));
  v2.use(organizationRouter({ organizations, publicBaseUrl: options.publicBaseUrl }));
  v2.use(reportRouter({ reports, auth, publicBaseUrl, logger }));
  v2.use(notAllowed, notFound);
  v2.use(errorMiddleware(logger));
  app.use('/rest/v2', v2);

  const admin = Router();
  // The operator check needs no service call, so it runs before any body is read; unknown paths are 401 too.
  admin.use(auth.requireOperator, options405);
  // Before the JSON parser: the import streams its own body (CSV or NDJSON) under its own size limit.
  admin.use(
    adminOrganizationImportRouter({
      organizations,
      maxBytes: options.importMaxBytes,
      batchDeadlineMs: options.importBatchDeadlineMs,
    }),
  );
  // Also before the JSON parser: a program's eligibility list streams the same way.
  admin.use(
    adminEligibilityListRouter({ verification: options.verification, maxBytes: options.importMaxBytes }),
  );
  admin.use(json);
  admin.use(adminAccountRouter({ programs, authenticator: options.authenticator }));
  admin.use(adminProgramRouter({ programs }));
  admin.use(adminAccountListRouter({ programs }));
  admin.use(adminProgramListRouter({ programs }));
  admin.use(adminOrganizationRouter({ organizations }));
  admin.use(adminOrganizationSsoRouter({ organizations }));
  admin.use(
    adminVerificationRouter({ verification: options.verification, publicBaseUrl: options.publicBaseUrl }),
  );
  admin.use(adminReviewRouter({ documents, publicBaseUrl, logger }));
  admin.use(adminNotifierRouter({ notifier: options.notifier }));
  admin.use(adminParkedEventsRouter({ parkedEvents: options.parkedEvents }));
  admin.use(adminPiiAccessRouter({ reports }));
  admin.use(adminStaffRouter({ staff: options.authenticator.staff?.access }));
  admin.use(adminAuditRouter({ staff: options.authenticator.staff?.access }));
  admin.use(notAllowed, notFound);
  admin.use(errorMiddleware(logger));
  app.use('/rest/admin/v1', admin);

  const oauth = Router();
  oauth.use(options405);
  oauth.use(express.urlencoded({ limit: options.bodyLimit, extended: false }));
  oauth.use(json);
  oauth.use(oauthRouter({ programs }));
  oauth.use(notAllowed, notFound);
  oauth.use(oauthErrorMiddleware(logger));
  app.use('/rest/oauth', oauth);

  // The upload URLs of form A ({publicBase}/uploads/{token}): outside /rest, no token, and no body parser
  // ahead of them, since the body is streamed on to the object store as it arrives.
  // The router's path is the whole one (endpoints/doc-upload.ts): it is mounted at the root.
  app.use('/uploads', options405);
  app.use(uploadRouter({ documents, logger }));
  app.use('/uploads', notAllowed, notFound);

  // The console's staff session (sign-in, the current member, sign-out): outside /rest, not in the document.
  app.use(consoleSessionRouter({ authenticator: options.authenticator, publicBaseUrl, logger }));
  const staff = options.authenticator.staff;
  if (options.staffOidc && staff)
    app.use(consoleOidcRouter({ staff, oidc: options.staffOidc, publicBaseUrl, logger }));

  // The return from an organization's OpenID provider (a verification's sign-on): browser navigation, not API.
  app.use(ssoCallbackRouter({ verification: options.verification, publicBaseUrl, logger }));
  // The hosted verification page and its embed script: web pages, not API (no OpenAPI operation).
  app.use(verifyPageRouter({ programs, origins, logger }));
  // The staff console's pages (after the session router, which keeps /console/session).
  app.use(consolePageRouter({ oidcLabel: options.staffOidc && staff ? options.staffOidc.label : undefined }));
}

function notFound(req: Request, res: Response, _next: NextFunction): void {
  res.status(404).json({ systemErrorMessage: `No endpoint ${req.method} ${req.baseUrl}${req.path}` });
}
