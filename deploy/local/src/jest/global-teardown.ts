import { recall, runCli } from './run-cli';

/**
 * Releases the setup's lease. When no other jest run holds one, the servers started for test runs are
 * stopped; servers that a developer brought up with `npm run infra -- up` stay up. This runs even when the
 * setup only reused servers: if the run that started them has finished meanwhile, this is the last user.
 */
export default async function globalTeardown(): Promise<void> {
  const record = recall();
  if (!record) return; // the servers were given by the environment: nothing of ours to stop
  try {
    await runCli(['down', '--json', '--lease', String(record.lease)]);
  } finally {
    for (const key of record.setKeys) delete process.env[key];
  }
}
