/** The servers the harness provides. */
export type ServiceName = 'postgres' | 'kafka' | 'minio';

export const SERVICE_NAMES: readonly ServiceName[] = ['postgres', 'kafka', 'minio'];

/** One server that the harness started: enough to find it again, check it and stop it from another process. */
export interface ServiceRecord {
  service: ServiceName;
  via: 'process' | 'container';
  /** The ELIGO_TEST_* variables through which consumers reach this server. */
  env: Record<string, string>;
  ports: Record<string, number>;
  /** Kafka only: the broker version. */
  version?: string;
  /** Leader of the server's own process group (via 'process'). */
  pid?: number;
  /** Kernel start time of `pid`, so that a recycled pid is never taken for ours. */
  pidStart?: string;
  /** The signal that shuts the server down cleanly (postgres: SIGINT, fast shutdown). */
  stopSignal?: NodeJS.Signals;
  containerId?: string;
  /** Temporary directory holding the server's data, config and logs; removed when it stops. */
  dir?: string;
  log?: string;
  startedAt: string;
  /** CLI state only: started for jest runs (stopped when the last one ends) rather than by a developer's `up`. */
  ephemeral?: boolean;
}

/** What a service's start function gets. */
export interface StartContext {
  cacheDir: string;
  kafkaVersion: string;
  /** Progress lines (already prefixed with the service name). */
  log: (line: string) => void;
  /** The environment to pass on to tools (PATH, JAVA_HOME, GOPROXY, ...). */
  env: NodeJS.ProcessEnv;
  /** The server must outlive this process (CLI `up`), rather than die with it (in-process use). */
  keepRunning: boolean;
}
