import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { createFsObjectStore, isDomainError, type ObjectStore } from '@eligo/runtime';
import { MAX_FILE_BYTES } from '@eligo/vocabulary';
import { PNG } from '../../test/files';
import { FileIntake } from './file-intake';

// FileIntake on the embedded mode's filesystem store (a real store, in a temp directory); a store failing
// half-way is that store with its write cut after the first bytes it read.
// A whole 1x1 PNG first: file-type reads its chunks up to IDAT, so noise after it cannot change the verdict.
const png = (bytes: number) => Buffer.concat([PNG, randomBytes(bytes - PNG.length)]);

let dir: string;
let store: ObjectStore;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'file-intake-test-'));
  store = createFsObjectStore({
    root: dir,
    publicBaseUrl: 'http://127.0.0.1:1/storage',
    signingSecret: 'x'.repeat(32),
  });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function feed(intake: FileIntake, bytes: Buffer, size = 64 * 1024) {
  for (let at = 0; at < bytes.length; at += size) await intake.write(bytes.subarray(at, at + size));
  await intake.close();
}
const read = async (key: string) => {
  const chunks: Buffer[] = [];
  for await (const c of await store.get(key)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

it('stores an accepted file as it streams, and only then', async () => {
  const bytes = png(300_000);
  const intake = new FileIntake(store, 'd1', 'documents/u/d1', 'a.png', 'image/PNG');
  await feed(intake, bytes);
  expect([intake.accepted, intake.size, intake.touchedStore]).toEqual([true, bytes.length, true]);
  expect((await read('documents/u/d1')).equals(bytes)).toBe(true);
});

it.each([
  ['a declared type that is not allowed', 'text/plain', png(200_000)],
  ['bytes of another type', 'application/pdf', png(200_000)],
  ['a file too short to be anything', 'image/png', Buffer.from('hi')],
])('counts but does not store %s', async (_, mimeType, bytes) => {
  const intake = new FileIntake(store, 'd2', 'documents/u/d2', 'a', mimeType);
  await feed(intake, bytes);
  expect([intake.accepted, intake.size, intake.touchedStore]).toEqual([false, bytes.length, false]);
  expect(await store.exists('documents/u/d2')).toBe(false);
});

it('stops storing a file once it grows past the maximum', async () => {
  const intake = new FileIntake(store, 'd3', 'documents/u/d3', 'a.png', 'image/png');
  await feed(intake, png(MAX_FILE_BYTES + 1), 1024 * 1024);
  expect([intake.accepted, intake.size]).toEqual([false, MAX_FILE_BYTES + 1]);
  expect(await store.exists('documents/u/d3')).toBe(false);
});

it('fails with documentStoreFailed when the store gives up half-way', async () => {
  const failing: ObjectStore = Object.create(store) as ObjectStore;
  failing.put = async (_key: string, body: Buffer | Readable) => {
    for await (const _ of body as Readable) throw new Error('the store went away');
    throw new Error('unreachable');
  };
  const intake = new FileIntake(failing, 'd4', 'documents/u/d4', 'a.png', 'image/png');
  const err: unknown = await feed(intake, png(2 * 1024 * 1024)).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isDomainError(err) && [err.kind, err.reason]).toEqual(['unavailable', 'documentStoreFailed']);
});
