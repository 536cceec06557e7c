import type { ServiceClients } from './clients';

/** What GET /info reports of each module. */
export interface ModuleInfo {
  module: string;
  status: 'SERVING' | 'UNAVAILABLE';
  version?: string;
  gitCommit?: string;
  runtimeVersion?: string;
  startedAt?: string;
  hostName?: string;
}

export interface ModuleInfoReader {
  readAll(): Promise<ModuleInfo[]>;
}

/** Asks every service for its build info in parallel; one that does not answer is reported, not fatal. */
export function moduleInfoReader(clients: ServiceClients, deadlineMs: number): ModuleInfoReader {
  return {
    readAll: () =>
      Promise.all(
        Object.entries(clients).map(async ([module, client]): Promise<ModuleInfo> => {
          try {
            const { buildInfo } = await client.unary('getInfo', {}, { deadlineMs });
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
