import { documentBefore } from '../../test/document-before';
import { schemas } from '../openapi/components';

const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
type Statement = { properties: Record<string, Record<string, unknown>> };

// Changed on purpose since the capture (test/document-before.ts): the instant-match sources of issue 22.
describe('VerificationDetails.verificationMethod', () => {
  it('names the sources that decide instantly, LIST and HTTP_SOURCE, and the rest as before', () => {
    const now = plain(schemas.VerificationDetails) as Statement;
    const before = documentBefore.components.schemas.VerificationDetails as unknown as Statement;
    const { verificationMethod, ...others } = now.properties;
    const { verificationMethod: was, ...othersBefore } = before.properties;
    expect(others).toEqual(othersBefore);
    expect(verificationMethod).toEqual({
      ...was,
      enum: ['INSTANT', 'MANUAL', 'LIST', 'HTTP_SOURCE', 'EMAIL_LOOP', 'SSO', null],
      description: expect.stringContaining('HTTP_SOURCE'),
    });
  });
});
