import { Readable } from 'node:stream';
import { ImportFileError, MAX_ROW_BYTES } from './import-file';
import { BodyTooLargeError, byteLimit } from './import-stream';
import { csvRows, ndjsonRows, type ParsedRow } from './organization-rows';

/** The text as a stream of chunks of `size` bytes, so that rows and characters straddle chunks. */
const chunked = (text: string | Buffer, size = 3) => {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return Readable.from(chunks, { objectMode: false });
};

async function all(rows: AsyncIterable<ParsedRow>) {
  const out: { line: number; key?: string; rejection?: string }[] = [];
  for await (const row of rows)
    out.push('rejection' in row ? row : { line: row.line, key: row.organization.externalKey });
  return out;
}

const header = 'externalId,name,type,country,domains';

describe('CSV rows', () => {
  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
  ])('numbers rows by the file line they start on, with %s line ends', async (_name, eol) => {
    const csv = [
      `\ufeff${header}`,
      'a,Alpha,UNIVERSITY,US,a.edu',
      '',
      'b,"Beta',
      'College",UNIVERSITY,US,',
      '   ',
      'c,Gamma,UNIVERSITY,US,c.edu;g.edu',
      'd,Delta,UNIVERSITY,US,',
    ].join(eol);
    const expected = [
      { line: 2, key: 'a' },
      { line: 4, key: 'b' },
      { line: 7, key: 'c' },
      { line: 8, key: 'd' },
    ];
    expect(await all(csvRows(chunked(csv)))).toEqual(expected);
    expect(await all(csvRows(chunked(`${csv}${eol}`, 1)))).toEqual(expected);
  });

  it('counts blank lines before the header', async () => {
    expect(await all(csvRows(chunked(`\n\n${header}\na,A,UNIVERSITY,US,\n`)))).toEqual([
      { line: 4, key: 'a' },
    ]);
  });

  it('reads values as the organization (trimmed, domains split)', async () => {
    const rows: ParsedRow[] = [];
    for await (const row of csvRows(
      chunked(`${header},city\n x , "Ex U" ,K12, gb , x.sch.uk ; y.sch.uk ,York\n`),
    ))
      rows.push(row);
    expect(rows).toEqual([
      {
        line: 2,
        organization: expect.objectContaining({
          externalKey: 'x',
          name: 'Ex U',
          type: 'K12',
          country: 'gb',
          domains: ['x.sch.uk', 'y.sch.uk'],
          city: 'York',
        }),
      },
    ]);
  });

  it('rejects a row with too few or too many values and goes on', async () => {
    const csv = `${header}\na,A,UNIVERSITY,US,\nb,B\nc,C,UNIVERSITY,US,,extra\nd,D,UNIVERSITY,US,\n`;
    expect(await all(csvRows(chunked(csv)))).toEqual([
      { line: 2, key: 'a' },
      { line: 3, rejection: 'the row does not have one value per header column' },
      { line: 4, rejection: 'the row does not have one value per header column' },
      { line: 5, key: 'd' },
    ]);
  });

  // Rows still in the parser's buffer when it fails are not read (a stream drops them on error): the
  // import's answer counts only what it read, and sending the file again is safe.
  it('stops at broken quoting, naming the line', async () => {
    const csv = `${header}\na,A,UNIVERSITY,US,\nb,"B"x,UNIVERSITY,US,\nc,C,UNIVERSITY,US,\n`;
    await expect(all(csvRows(chunked(csv)))).rejects.toThrow(ImportFileError);
    await expect(all(csvRows(chunked(csv)))).rejects.toThrow(
      /malformed CSV at line 3: Invalid Closing Quote/,
    );
  });

  it('stops at an oversized record', async () => {
    const csv = `${header}\na,${'x'.repeat(MAX_ROW_BYTES + 10)},UNIVERSITY,US,\n`;
    await expect(all(csvRows(chunked(csv, 4096)))).rejects.toThrow(
      /malformed CSV at line 2: Max Record Size/,
    );
  });

  it('refuses an empty file and a bad header', async () => {
    await expect(all(csvRows(chunked('')))).rejects.toThrow('the file is empty: a header row is required');
    await expect(all(csvRows(chunked('externalId,nom\n')))).rejects.toThrow(/unknown column "nom"/);
  });
});

describe('NDJSON rows', () => {
  const row = (key: string) =>
    JSON.stringify({ externalId: key, name: `N ${key}`, type: 'OTHER', country: 'FR' });

  it('numbers physical lines, skips blank ones, accepts CRLF and a byte order mark', async () => {
    const text = `\ufeff${row('a')}\r\n\r\n${row('b')}\n   \n{oops\n${row('c')}`;
    expect(await all(ndjsonRows(chunked(text)))).toEqual([
      { line: 1, key: 'a' },
      { line: 3, key: 'b' },
      { line: 5, rejection: 'not valid JSON' },
      { line: 6, key: 'c' },
    ]);
  });

  it('keeps multi-byte characters split across chunks', async () => {
    const text = JSON.stringify({
      externalId: 'z',
      name: 'Universität Zürich',
      type: 'UNIVERSITY',
      country: 'CH',
    });
    const rows: ParsedRow[] = [];
    for await (const r of ndjsonRows(chunked(text, 1))) rows.push(r);
    expect(rows).toEqual([
      { line: 1, organization: expect.objectContaining({ name: 'Universität Zürich' }) },
    ]);
  });

  it('rejects an over-long line and invalid UTF-8, and reads on', async () => {
    const long = `{"name":"${'x'.repeat(MAX_ROW_BYTES)}"}`;
    const bad = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')]);
    const text = Buffer.concat([Buffer.from(`${long}\n`), bad, Buffer.from(`${row('d')}\n`)]);
    expect(await all(ndjsonRows(chunked(text, 1000)))).toEqual([
      { line: 1, rejection: `the line is longer than ${MAX_ROW_BYTES} bytes` },
      { line: 2, rejection: 'the line is not valid UTF-8' },
      { line: 3, key: 'd' },
    ]);
  });
});

describe('byteLimit', () => {
  it('passes up to the limit and fails past it', async () => {
    const read = async (text: string, max: number) => {
      let n = 0;
      for await (const chunk of chunked(text).pipe(byteLimit(max))) n += (chunk as Buffer).length;
      return n;
    };
    await expect(read('0123456789', 10)).resolves.toBe(10);
    await expect(read('0123456789a', 10)).rejects.toThrow(BodyTooLargeError);
  });

  it('fails the CSV rows read through it', async () => {
    const source = chunked(`${header}\n${'a,A,UNIVERSITY,US,\n'.repeat(100)}`);
    const limited = byteLimit(200);
    source.pipe(limited);
    await expect(all(csvRows(limited))).rejects.toThrow(BodyTooLargeError);
  });
});
