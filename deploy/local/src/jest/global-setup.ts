import { REQUIRED_ENV } from '../config';
import { remember, runCli } from './run-cli';

/**
 * Jest global setup of every package: provides the servers through the ELIGO_TEST_* variables, which jest
 * passes on to its workers. Given servers (all variables set) are used as they are. Otherwise `up` starts
 * what is missing, or reuses what runs, under a lease held by this jest process; the teardown releases it.
 */
export default async function globalSetup(): Promise<void> {
  if (REQUIRED_ENV.every((key) => process.env[key])) return;
  const lease = process.pid;
  const out = await runCli(['up', '--json', '--lease', String(lease)]);
  const result = JSON.parse(out) as { env: Record<string, string>; started: string[] };
  const setKeys: string[] = [];
  for (const [key, value] of Object.entries(result.env)) {
    if (process.env[key] === value) continue;
    process.env[key] = value;
    setKeys.push(key);
  }
  remember({ lease, started: result.started, setKeys });
}
