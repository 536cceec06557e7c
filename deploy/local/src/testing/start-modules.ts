import {
  createClient,
  createDb,
  type GeneratedClientConstructor,
  type GrpcClient,
  type GrpcClientOptions,
  type Knex,
  type ModuleDefinition,
  type ModuleName,
} from '@eligo/runtime';
import { modulesToStart, packageLookup } from './module-lookup';
import {
  startServiceUnderTest,
  type ServiceUnderTest,
  type ServiceUnderTestOptions,
} from './service-under-test';

/**
 * What integration suites of the services want unless they say otherwise: an empty organization catalog,
 * and programs read uncached, so that a test may change a program and use it again at once.
 */
export const MODULE_TEST_ENV: Readonly<Record<string, string>> = {
  ELIGO_ORGANIZATIONS_SEED: 'none',
  ELIGO_ORGANIZATIONS_PROGRAM_CACHE_MS: '0',
  ELIGO_VERIFICATION_PROGRAM_CACHE_MS: '0',
};

export interface StartModulesOptions extends Pick<
  ServiceUnderTestOptions,
  'adminToken' | 'logLevel' | 'beside'
> {
  /**
   * Definitions to use instead of loading `@eligo/<name>`: the package's own module, from its source (a test
   * must test the source, not its last build), or a stand-in.
   */
  modules?: Partial<Record<ModuleName, ModuleDefinition>>;
  /**
   * Modules reached at an address instead of started here (ELIGO_<NAME>_GRPC_ADDRESS); their dependencies
   * are not followed. With `beside`, the modules that process hosts are remote at its address by default.
   */
  remote?: Partial<Record<ModuleName, string>>;
  /** Extra ELIGO_* settings, over MODULE_TEST_ENV. */
  env?: Record<string, string>;
  /** The package whose test starts the modules, to check its declared dependencies; the working directory by default. */
  packageDir?: string;
}

export interface ModulesUnderTest extends ServiceUnderTest {
  /** The modules this process hosts, dependencies first. */
  modules: ModuleName[];
  /** A client of a service of this process (or of `address`), closed by stop(): 20 s deadline, no breaker. */
  client<S extends ServiceOf>(
    ctor: GeneratedClientConstructor<S>,
    options?: GrpcClientOptions & { address?: string },
  ): GrpcClient<S>;
  /** A small pool on one schema of the database, for assertions on stored rows; destroyed by stop(). */
  db(schema: string): Knex;
}

type ServiceOf = Parameters<typeof createClient>[0] extends GeneratedClientConstructor<infer S> ? S : never;

/**
 * Starts `target` (a module name or several) with every module it needs, following each definition's
 * `dependsOn`, in the test process (docs/architecture.md, "Tests"): one launcher, one gRPC and one HTTP
 * server, a fresh database, the suite's Kafka and MinIO. Definitions come from the packages `@eligo/<name>`,
 * which the calling package must declare as (dev)dependencies, or from `options.modules`.
 */
export async function startModules(
  target: ModuleName | readonly ModuleName[],
  options: StartModulesOptions = {},
): Promise<ModulesUnderTest> {
  const remote: Record<ModuleName, string> = {};
  for (const name of options.beside?.running.info.modules ?? []) remote[name] = options.beside!.grpcAddress;
  for (const [name, address] of Object.entries(options.remote ?? {})) if (address) remote[name] = address;

  const lookup = packageLookup(options.modules ?? {}, options.packageDir ?? process.cwd());
  const definitions: Record<ModuleName, ModuleDefinition> = {};
  const targets = modulesToStart(
    target,
    (name) => {
      const definition = lookup(name);
      if (definition) definitions[name] = definition;
      return definition;
    },
    Object.keys(remote),
  );
  const addresses = Object.fromEntries(
    Object.entries(remote)
      .filter(([name]) => targets.some((t) => definitions[t]!.dependsOn.includes(name)))
      .map(([name, address]) => [`ELIGO_${name.toUpperCase()}_GRPC_ADDRESS`, address]),
  );

  const sut = await startServiceUnderTest({
    modules: definitions,
    targets,
    env: { ...MODULE_TEST_ENV, ...addresses, ...options.env },
    ...(options.adminToken !== undefined && { adminToken: options.adminToken }),
    ...(options.logLevel !== undefined && { logLevel: options.logLevel }),
    ...(options.beside && { beside: options.beside }),
  });
  const clients: { close(): void }[] = [];
  const pools: Knex[] = [];
  return {
    ...sut,
    modules: targets,
    client(ctor, { address, ...clientOptions } = {}) {
      const client = createClient(ctor, address ?? sut.grpcAddress, {
        deadlineMs: 20_000,
        breaker: false,
        ...clientOptions,
      });
      clients.push(client);
      return client;
    },
    db(schema) {
      const pool = createDb({ url: sut.databaseUrl, schema, poolMax: 4, applicationName: `${schema}-it` });
      pools.push(pool);
      return pool;
    },
    async stop() {
      for (const client of clients.splice(0)) client.close();
      for (const pool of pools.splice(0)) await pool.destroy();
      await sut.stop();
    },
  };
}
