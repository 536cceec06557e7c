import { allModules } from '@eligo/cli/modules';
import { startServiceUnderTest, type ServiceUnderTest } from '@eligo/local-infra';

/** Every module in the test process (`--target all`) on the suite's real servers: REST scenarios through the gateway. */
export function startAllInProcess(env: Record<string, string> = {}): Promise<ServiceUnderTest> {
  return startServiceUnderTest({ modules: allModules, targets: Object.keys(allModules), env });
}
