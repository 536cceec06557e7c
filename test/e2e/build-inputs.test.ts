import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// A second `npm start` without changes must rebuild nothing. It rebuilt every package when generated files (the
// proto package's src/gen, a build output) counted as build inputs: the first build changed its own inputs.
// `npm test` then rebuilt every package in its test phase (proto's generated src/index.ts was an input).
const root = join(__dirname, '../..');

interface DryTask {
  taskId: string;
  directory: string;
  inputs: Record<string, string>;
}

it("no build task counts a build output among its inputs, so an unchanged tree hits turbo's cache", () => {
  const turbo = join(root, 'node_modules/.bin/turbo');
  const dry = JSON.parse(
    execFileSync(turbo, ['run', 'build', '--dry=json'], {
      cwd: root,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
      maxBuffer: 64 * 1024 * 1024,
    }).toString(),
  ) as { tasks: DryTask[] };
  const outputs = (
    JSON.parse(readFileSync(join(root, 'turbo.json'), 'utf8')) as {
      tasks: { build: { outputs: string[] } };
    }
  ).tasks.build.outputs.map((glob) => glob.replace(/\*\*$/, ''));
  expect(outputs).toContain('src/gen/');
  expect(dry.tasks.length).toBeGreaterThan(5);
  const offending = dry.tasks.flatMap((task) =>
    Object.keys(task.inputs)
      .filter((file) => outputs.some((prefix) => file.startsWith(prefix)))
      .map((file) => `${task.taskId}: ${file}`),
  );
  expect(offending).toEqual([]);
  // Files git ignores are generated (or local): none may be an input, whatever output glob covers it.
  const inputs = dry.tasks.flatMap((task) =>
    Object.keys(task.inputs).map((file) => join(task.directory, file)),
  );
  const ignored = spawnSync('git', ['check-ignore', '--stdin'], { cwd: root, input: inputs.join('\n') });
  expect(ignored.stdout.toString().split('\n').filter(Boolean)).toEqual([]);
}, 60_000);
