import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCodeBatches } from './reward-codes-file';

describe('readCodeBatches', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eligo-codes-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function batches(content: string, size: number): Promise<string[][]> {
    const file = join(dir, `codes-${Math.random()}.txt`);
    writeFileSync(file, content);
    const out: string[][] = [];
    for await (const b of readCodeBatches(file, size)) out.push(b);
    return out;
  }

  it('reads one code per line, skipping blanks and comments, CRLF and CSV first column included', async () => {
    expect(await batches('# codes\nA1\r\n\n  B2  \nC3,extra,columns\n', 10)).toEqual([['A1', 'B2', 'C3']]);
  });

  it('splits into batches of the given size', async () => {
    expect(await batches('a\nb\nc\nd\ne', 2)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('yields nothing for an empty file', async () => {
    expect(await batches('\n# nothing\n', 2)).toEqual([]);
  });
});
