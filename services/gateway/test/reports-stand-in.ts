import pino from 'pino';
import { type programsV1, reportsV1 } from '@eligo/proto';
import { bindService, createClient, GrpcHost, type ServiceHandlers } from '@eligo/runtime';
import { AuthCache } from '../src/auth/auth-cache';
import { createAuthenticator } from '../src/auth/authenticator';
import { createReportsClient } from '../src/clients/reports.client';
import { startTestRestApp, TEST_OPERATOR_TOKEN } from './rest-app';

// Test support, not a test (kept out of the build by tsconfig.build.json): the REST routes backed by the
// ReportsService, as mounted by mountRest (test/rest-app.ts, which checks every answer against the
// OpenAPI document), through the real reports client against a stand-in ReportsService on a gRPC server. Every
// other client of the gateway is empty: a request that reached them would fail with 500.

/** The account (and token) every accepted token stands for. */
export const accountId = 'ac'.repeat(12);
export const tokenId = 'ee'.repeat(12);
/** The operator token: refused by the account routes, needed by the admin ones. */
export const operator = TEST_OPERATOR_TOKEN;
export const publicBaseUrl = 'https://eligo.example.com';

export type ReportsHandlers = ServiceHandlers<typeof reportsV1.ReportsServiceService>;

/** Records the calls of the stand-in and answers them as planned. */
export interface Recorder {
  /** Every call the stand-in received: the method and its request. */
  readonly calls: [string, unknown][];
  /** What the next call of a method answers (a reply, or an error to throw); the handler's default otherwise. */
  readonly planned: Map<string, unknown>;
  /** Records a call and takes what is planned for it: a planned error is thrown, a planned reply returned. */
  record<Res>(method: string, req: unknown): Res | undefined;
  /** A unary handler that records its calls and answers as planned, or else with the fallback. */
  answer<Req, Res>(method: string, fallback: (req: Req) => Res): (req: Req) => Promise<Res>;
  /** Forgets the calls and the plans (before each test). */
  reset(): void;
}

export function createRecorder(): Recorder {
  const calls: [string, unknown][] = [];
  const planned = new Map<string, unknown>();
  const record = <Res>(method: string, req: unknown): Res | undefined => {
    calls.push([method, req]);
    const next = planned.get(method);
    planned.delete(method);
    if (next instanceof Error) throw next;
    return next as Res | undefined;
  };
  return {
    calls,
    planned,
    record,
    answer:
      <Req, Res>(method: string, fallback: (req: Req) => Res) =>
      async (req: Req): Promise<Res> =>
        record<Res>(method, req) ?? fallback(req),
    reset: () => {
      calls.length = 0;
      planned.clear();
    },
  };
}

export interface StandInOptions {
  /** The handlers the routes under test call; any other method fails the call. */
  handlers: Partial<ReportsHandlers>;
  /** The account tokens the authenticator accepts, with their roles; any other (but the operator's) is refused. */
  tokens: Record<string, programsV1.TokenRole[]>;
  /** The general JSON body limit of the REST app. */
  bodyLimit: string;
  /** Where the routes under test are mounted: the `url` answered. */
  basePath?: '/rest/v2' | '/rest/admin/v1';
  /** The deadline of a report download (the client's default otherwise). */
  downloadDeadlineMs?: number;
}

export interface ReportsStandIn {
  /** The base URL of the REST routes, e.g. http://127.0.0.1:PORT/rest/v2. */
  url: string;
  /**
   * Closes the REST server (and its connections), the client and the stand-in; throws when an answer broke
   * the OpenAPI document.
   */
  stop(): void;
}

const logger = pino({ level: 'silent' });

const unexpected = (method: string) => async (): Promise<never> => {
  throw new Error(`${method} is not called by the routes under test`);
};

/** Starts the stand-in ReportsService with the given handlers, and the REST app in front of it. */
export async function startReportsStandIn(options: StandInOptions): Promise<ReportsStandIn> {
  const grpc = new GrpcHost({ logger, reflection: false });
  grpc.addService(
    bindService(
      reportsV1.ReportsServiceService,
      {
        getInfo: async () => ({}),
        createVerificationReport: unexpected('createVerificationReport'),
        createReverifyReport: unexpected('createReverifyReport'),
        getReportStatus: unexpected('getReportStatus'),
        downloadReport: async function* () {
          throw new Error('downloadReport is not called by the routes under test');
        },
        deleteReport: unexpected('deleteReport'),
        listReportFields: unexpected('listReportFields'),
        recordConversion: unexpected('recordConversion'),
        startReverification: unexpected('startReverification'),
        getReverification: unexpected('getReverification'),
        listPiiAccess: unexpected('listPiiAccess'),
        ...options.handlers,
      },
      logger,
    ),
  );
  const address = `127.0.0.1:${await grpc.listen('127.0.0.1', 0)}`;
  const client = createClient(reportsV1.ReportsServiceClient, address, { deadlineMs: 5000, breaker: false });
  const app = await startTestRestApp({
    publicBaseUrl,
    bodyLimit: options.bodyLimit,
    reports: createReportsClient(client, options.downloadDeadlineMs),
    authenticator: createAuthenticator({
      operatorToken: operator,
      cache: new AuthCache({ ttlMs: 0 }),
      authenticate: async ({ token }) => {
        const roles = options.tokens[token];
        if (!roles) throw Object.assign(new Error('bad token'), { code: 16, details: 'bad token' });
        return { accountId, tokenId, roles };
      },
    }),
  });
  return {
    url: `${app.origin}${options.basePath ?? '/rest/v2'}`,
    stop: () => {
      client.close();
      grpc.forceShutdown();
      app.close();
    },
  };
}
