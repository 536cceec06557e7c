import { startModules, type ModulesUnderTest } from '@eligo/local-infra';
import { documentsV1 } from '@eligo/proto';
import { definition } from '../src';
import { failure, type DocumentsClient } from './support';

/**
 * The documents module alone, its verification service unreachable (split deployment, peer down): calls that
 * need it answer this service's own 503, naming the dependency and not its address.
 */
describe('an unreachable verification service', () => {
  let sut: ModulesUnderTest;
  let documents: DocumentsClient;
  beforeAll(async () => {
    sut = await startModules('documents', {
      modules: { documents: definition },
      // Nothing listens on the discard port.
      remote: { verification: '127.0.0.1:9' },
      env: { ELIGO_DOCUMENTS_DEPENDENCY_DEADLINE_MS: '500' },
    });
    documents = sut.client(documentsV1.DocumentsServiceClient, {
      deadlineMs: 10_000,
      retry: { maxAttempts: 1 },
    });
  });
  afterAll(() => sut?.stop());

  it('answers UNAVAILABLE for a new upload', async () => {
    const err = await failure(
      documents.unary('createUpload', {
        verificationId: 'a'.repeat(24),
        docUploadToken: '',
        files: [{ fileName: 'a.png', mimeType: 'image/png', fileSize: 70 }],
      }),
    );
    expect([err.codeName, err.kind]).toEqual(['UNAVAILABLE', 'unavailable']);
    expect(err.message).toBe('The verification service is unavailable');
    expect(err.message).not.toContain('127.0.0.1');
  });
});
