import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import { AuthCache } from '../src/auth/auth-cache';
import { createAuthenticator } from '../src/auth/authenticator';
import type { DocumentsClient } from '../src/clients/documents.client';
import type { NotifierClient } from '../src/clients/notifier.client';
import type { ParkedEventsClient } from '../src/clients/parked-events.client';
import type { OrganizationsClient } from '../src/clients/organizations.client';
import type { ProgramsClient } from '../src/clients/programs.client';
import type { ReportsClient } from '../src/clients/reports.client';
import type { VerificationClient } from '../src/clients/verification.client';
import { openApiDocument } from '../src/openapi/document';
import { mountRest, type RestOptions } from '../src/http/rest-app';
import { responseConformance } from './response-conformance';
import { standIn } from './stand-in';

/** The operator token of the test app; every account token is refused (401) unless `authenticator` is given. */
export const TEST_OPERATOR_TOKEN = 'eligo_operator_0123456789abcdefghij';

export interface TestRestApp {
  /** http://127.0.0.1:port, under which /rest/v2, /rest/admin/v1, /rest/oauth and /uploads are mounted. */
  origin: string;
  /** Answers that the OpenAPI document does not describe, so far (close() fails on any). */
  violations: string[];
  /**
   * Stops the server and ends its connections (kept-alive ones, a download a test left unread); throws when an
   * answer broke the document (see test/response-conformance.ts).
   */
  close(): void;
}

/**
 * The REST app as mountRest mounts it, on a free local port, with the clients a test gives (stand-ins or real
 * clients of stand-in services) and stand-ins without methods for the rest, which a test must not reach
 * (test/stand-in.ts).
 */
export async function startTestRestApp(options: Partial<RestOptions> = {}): Promise<TestRestApp> {
  const app = express();
  const publicBaseUrl = options.publicBaseUrl ?? 'https://eligo.example.com';
  // Every JSON answer of every gateway test is checked against the document the gateway serves.
  const conformance = responseConformance(openApiDocument(publicBaseUrl), publicBaseUrl);
  app.use(conformance.middleware);
  mountRest(app, {
    logger: pino({ level: 'silent' }),
    publicBaseUrl,
    bodyLimit: '100kb',
    version: 'test',
    gitCommit: 'test',
    modules: { readAll: async () => [] },
    programs: standIn<ProgramsClient>('programs'),
    organizations: standIn<OrganizationsClient>('organizations'),
    verification: standIn<VerificationClient>('verification'),
    documents: standIn<DocumentsClient>('documents'),
    notifier: standIn<NotifierClient>('notifier'),
    parkedEvents: standIn<ParkedEventsClient>('parkedEvents'),
    reports: standIn<ReportsClient>('reports'),
    authenticator: createAuthenticator({
      operatorToken: TEST_OPERATOR_TOKEN,
      cache: new AuthCache({ ttlMs: 0 }),
      authenticate: async () => {
        // What a grpc-js client sees for an unknown token: UNAUTHENTICATED.
        throw Object.assign(new Error('bad token'), { code: 16, details: 'bad token', metadata: undefined });
      },
    }),
    importMaxBytes: 1024,
    importBatchDeadlineMs: 1000,
    ...options,
  });
  const server = createServer(app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    violations: conformance.violations,
    close: () => {
      server.closeAllConnections();
      server.close();
      if (conformance.violations.length > 0)
        throw new Error(
          `answers the OpenAPI document does not describe:\n${conformance.violations.join('\n')}`,
        );
    },
  };
}
