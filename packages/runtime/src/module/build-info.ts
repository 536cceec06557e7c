import { hostname } from 'node:os';

export interface BuildInfo {
  module: string;
  version: string;
  gitCommit: string;
  runtimeVersion: string;
  startedAt: Date;
  processId: number;
  hostName: string;
}

const startedAt = new Date();

/** Build information for a module; the commit comes from ELIGO_GIT_COMMIT baked into the image (or empty). */
export function buildInfoFor(module: string, version: string, gitCommit: string): BuildInfo {
  return {
    module,
    version,
    gitCommit,
    runtimeVersion: process.version,
    startedAt,
    processId: process.pid,
    hostName: hostname(),
  };
}

/** The GetInfo answer every service gives (eligo.<svc>.v1.GetInfoResponse shares this shape). */
export function getInfoResponse(deps: { buildInfo(): BuildInfo }): { buildInfo: BuildInfo } {
  return { buildInfo: deps.buildInfo() };
}
