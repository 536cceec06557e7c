import type { commonBuildInfoV1 } from '@eligo/proto';
import type { z } from 'zod';
import type { ModuleInfo as ModuleInfoSchema } from '../endpoints/info';
import type { ServiceClients } from './clients';

/** What GET /info reports of each module (endpoints/info.ts). */
export type ModuleInfo = z.input<typeof ModuleInfoSchema>;

export interface ModuleInfoReader {
  readAll(): Promise<ModuleInfo[]>;
}

type GetInfo = (deadlineMs: number) => Promise<{ buildInfo?: commonBuildInfoV1.BuildInfo | undefined }>;

/**
 * GetInfo of every service. Spelled out per client: the clients' unary signatures differ per service, so a
 * loop over the union of clients is not callable once the services' RPC sets diverge.
 */
function getInfoCalls(clients: ServiceClients): Record<keyof ServiceClients, GetInfo> {
  return {
    programs: (deadlineMs) => clients.programs.unary('getInfo', {}, { deadlineMs }),
    verification: (deadlineMs) => clients.verification.unary('getInfo', {}, { deadlineMs }),
    documents: (deadlineMs) => clients.documents.unary('getInfo', {}, { deadlineMs }),
    organizations: (deadlineMs) => clients.organizations.unary('getInfo', {}, { deadlineMs }),
    reports: (deadlineMs) => clients.reports.unary('getInfo', {}, { deadlineMs }),
    notifier: (deadlineMs) => clients.notifier.unary('getInfo', {}, { deadlineMs }),
  };
}

/** Asks every service for its build info in parallel; one that does not answer is reported, not fatal. */
export function moduleInfoReader(clients: ServiceClients, deadlineMs: number): ModuleInfoReader {
  const calls = getInfoCalls(clients);
  return {
    readAll: () =>
      Promise.all(
        Object.entries(calls).map(async ([module, getInfo]): Promise<ModuleInfo> => {
          try {
            const { buildInfo } = await getInfo(deadlineMs);
            if (!buildInfo) return { module, status: 'UNAVAILABLE' };
            return {
              module,
              status: 'SERVING',
              version: buildInfo.version,
              gitCommit: buildInfo.gitCommit,
              runtimeVersion: buildInfo.runtimeVersion,
              startedAt: buildInfo.startedAt?.toISOString(),
              hostName: buildInfo.hostName,
            };
          } catch {
            return { module, status: 'UNAVAILABLE' };
          }
        }),
      ),
  };
}
