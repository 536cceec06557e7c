import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareUploadSpool } from './upload-spool';

describe('the form-B upload spool', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'eligo-spool-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("removes at start what dead processes left (identity documents), keeps a live one's, makes its own", () => {
    const root = join(dataDir, 'upload-spool');
    for (const dir of ['4000001', '4000002', 'eligo-docupload-x']) {
      mkdirSync(join(root, dir, 'part'), { recursive: true });
      writeFileSync(join(root, dir, 'part', 'passport.jpg'), 'JANE DOE');
    }
    const own = prepareUploadSpool(dataDir, (pid) => pid === 4000002);
    expect(own).toBe(join(root, String(process.pid)));
    expect(existsSync(own)).toBe(true);
    expect(existsSync(join(root, '4000001'))).toBe(false);
    expect(existsSync(join(root, 'eligo-docupload-x'))).toBe(false);
    expect(existsSync(join(root, '4000002', 'part', 'passport.jpg'))).toBe(true);
  });
});
