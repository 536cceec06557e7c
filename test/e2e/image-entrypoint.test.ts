import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { readImageProcess } from '../support/dockerfile';
import {
  freePort,
  freshDatabase,
  startEligo,
  tempDataDir,
  waitReady,
  type EligoProcess,
} from '../support/eligo-process';

// The container image cannot be built here (no container engine): this runs the command and environment the
// Dockerfile's runtime stage sets (WORKDIR = the built tree, ENTRYPOINT + CMD, ENV) as a container would,
// adding only what an operator adds: the database, the keys, the volume and the ports it maps.
const image = readImageProcess();
const repo = join(__dirname, '..', '..');
let db: Awaited<ReturnType<typeof freshDatabase>>;
let data: ReturnType<typeof tempDataDir>;
let tmp: ReturnType<typeof tempDataDir>;
let eligo: EligoProcess;

beforeAll(async () => {
  db = await freshDatabase();
  data = tempDataDir();
  tmp = tempDataDir();
}, 60_000);

afterAll(async () => {
  await eligo?.stop('SIGKILL');
  await db?.drop();
  data?.remove();
  tmp?.remove();
});

describe('the image', () => {
  it('starts node on the built CLI, all modules by default, as an unprivileged user, with a data volume', () => {
    expect(image.workdir).toBe('/app');
    expect(image.command).toEqual(['node', 'packages/cli/dist/src/main.js', 'start', '--target', 'all']);
    expect(image.user).toBe('1000:1000');
    expect(image.volumes).toEqual([image.env.ELIGO_DATA_DIR]);
    expect(image.exposed).toEqual([Number(image.env.ELIGO_HTTP_PORT), Number(image.env.ELIGO_GRPC_PORT)]);
    expect(image.env).toMatchObject({ NODE_ENV: 'production', ELIGO_BIND_HOST: '0.0.0.0' });
  });

  it('serves, is ready, and stops on SIGTERM with exit code 0', async () => {
    const [node, script, ...args] = image.command;
    expect(node).toBe('node');
    const [http, grpc] = [await freePort(), await freePort()];
    eligo = await startEligo(
      args,
      {
        ...image.env,
        // The mounts and port mappings of the container.
        ELIGO_DATA_DIR: data.dir,
        TMPDIR: tmp.dir,
        ELIGO_HTTP_PORT: String(http),
        ELIGO_GRPC_PORT: String(grpc),
        // What the operator gives the container (docs/operations.md).
        ELIGO_DATABASE_URL: db.url,
        ELIGO_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        ELIGO_ADMIN_TOKEN: `eligo_admin_${'image'.repeat(6)}`,
        ELIGO_ORGANIZATIONS_SEED: 'none',
      },
      // WORKDIR /app is where the build stage put the tree: here, the repository's built tree.
      join(repo, script!),
    );
    await waitReady(eligo, 120_000);
    const document = await fetch(`${eligo.httpUrl}/rest/v2/openapi.json`);
    expect(document.status).toBe(200);
    expect(await eligo.stop('SIGTERM')).toBe(0);
  }, 240_000);
});
