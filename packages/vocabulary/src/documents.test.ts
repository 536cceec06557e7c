import { MAX_FILE_BYTES, MAX_UPLOAD_FILES, MIN_UPLOAD_FILES } from './documents';
import { DEFAULT_ERROR_MESSAGES } from './error-ids';

describe('document upload limits', () => {
  it('are the spec’s: 1 to 3 files of 10 MiB', () => {
    expect([MIN_UPLOAD_FILES, MAX_UPLOAD_FILES, MAX_FILE_BYTES]).toEqual([1, 3, 10_485_760]);
  });

  it('are the ones the default message of invalidFileSizeMax names', () => {
    expect(DEFAULT_ERROR_MESSAGES.invalidFileSizeMax).toContain(`${MAX_FILE_BYTES / 1024 / 1024} MiB`);
  });
});
