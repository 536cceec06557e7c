import { randomBytes } from 'node:crypto';
import { UploadFilesRequest } from '../gen/eligo/documents/v1/documents_service';
import { DocumentsServiceService } from './documents-service';
import { allocUploadChunk, deserializeUploadFilesRequest, serializeUploadFilesRequest } from './upload-files';

const generatedBytes = (message: UploadFilesRequest) =>
  Buffer.from(UploadFilesRequest.encode(message).finish());
const chunk = (bytes: Buffer): UploadFilesRequest => ({ part: { $case: 'chunk', chunk: bytes } });

// Lengths around every varint width (1 to 4 bytes), and form B's 256 KiB.
const LENGTHS = [0, 1, 127, 128, 16_383, 16_384, 256 * 1024, 2_097_151, 2_097_152, 2_500_000];

const others: UploadFilesRequest[] = [
  { part: { $case: 'start', start: { verificationId: 'a'.repeat(24), docUploadToken: 't'.repeat(40) } } },
  { part: { $case: 'file', file: { fileName: 'passport é.png', mimeType: 'image/png' } } },
  { part: undefined },
];

describe('UploadFiles request codec', () => {
  it.each(LENGTHS)('writes a chunk of %d bytes as the generated codec does, once', (length) => {
    const bytes = randomBytes(length);
    expect(serializeUploadFilesRequest(chunk(bytes)).equals(generatedBytes(chunk(bytes)))).toBe(true);
  });

  it.each(LENGTHS)(
    'writes a chunk of %d bytes from allocUploadChunk in place, as the generated codec does',
    (length) => {
      const bytes = allocUploadChunk(length);
      randomBytes(length).copy(bytes);
      const message = serializeUploadFilesRequest(chunk(bytes));
      expect(message.equals(generatedBytes(chunk(bytes)))).toBe(true);
      // No copy: the message is the chunk's own memory, its header in the room before it.
      expect(message.buffer).toBe(bytes.buffer);
      // Twice (a retried write): the same bytes.
      expect(serializeUploadFilesRequest(chunk(bytes)).equals(message)).toBe(true);
    },
  );

  it('copies a part of a chunk from allocUploadChunk, whose room is not its own', () => {
    const bytes = allocUploadChunk(1000);
    randomBytes(1000).copy(bytes);
    const before = Buffer.from(bytes);
    for (const part of [bytes.subarray(10), bytes.subarray(0, 990)]) {
      const message = serializeUploadFilesRequest(chunk(part));
      expect(message.equals(generatedBytes(chunk(part)))).toBe(true);
      expect(message.buffer).not.toBe(bytes.buffer);
    }
    expect(bytes.equals(before)).toBe(true);
  });

  it.each(LENGTHS)(
    'reads a chunk of %d bytes as the generated codec does, as a view of the message',
    (length) => {
      const message = generatedBytes(chunk(randomBytes(length)));
      const part = deserializeUploadFilesRequest(message).part;
      const generated = UploadFilesRequest.decode(message).part;
      if (part?.$case !== 'chunk' || generated?.$case !== 'chunk') throw new Error('not a chunk');
      // Compared with equals: toEqual walks megabytes byte by byte.
      expect(part.chunk.equals(generated.chunk)).toBe(true);
      // No copy: the chunk's bytes are the message's own.
      expect(part.chunk.buffer).toBe(message.buffer);
    },
  );

  it.each(others)('leaves the other messages to the generated codec (%j)', (message) => {
    const bytes = serializeUploadFilesRequest(message);
    expect(bytes.equals(generatedBytes(message))).toBe(true);
    expect(deserializeUploadFilesRequest(bytes)).toEqual(UploadFilesRequest.decode(bytes));
  });

  it('reads what is not exactly one chunk field as the generated codec does', () => {
    const data = randomBytes(300);
    const withFile = Buffer.concat([generatedBytes(chunk(data)), generatedBytes(others[1]!)]);
    const twoChunks = Buffer.concat([generatedBytes(chunk(data)), generatedBytes(chunk(data.subarray(7)))]);
    // 0 as a padded varint (0x80 0x00), which only the generated decoder takes.
    const padded = Buffer.from([26, 0x80, 0x00]);
    // An unknown field 9 (varint) after the chunk: skipped.
    const unknown = Buffer.concat([generatedBytes(chunk(data)), Buffer.from([72, 1])]);
    for (const bytes of [withFile, twoChunks, padded, unknown])
      expect(deserializeUploadFilesRequest(bytes)).toEqual(UploadFilesRequest.decode(bytes));
  });

  it('fails on a truncated chunk as the generated codec does', () => {
    const truncated = generatedBytes(chunk(randomBytes(1000))).subarray(0, 500);
    expect(() => UploadFilesRequest.decode(truncated)).toThrow();
    expect(() => deserializeUploadFilesRequest(truncated)).toThrow();
    // A length whose varint never ends.
    expect(() =>
      deserializeUploadFilesRequest(Buffer.from([26, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])),
    ).toThrow();
  });

  it('is the definition both sides of UploadFiles use; the other methods keep the generated codecs', () => {
    expect(DocumentsServiceService.uploadFiles.requestSerialize).toBe(serializeUploadFilesRequest);
    expect(DocumentsServiceService.uploadFiles.requestDeserialize).toBe(deserializeUploadFilesRequest);
    expect(DocumentsServiceService.uploadFiles.path).toBe('/eligo.documents.v1.DocumentsService/UploadFiles');
  });
});
