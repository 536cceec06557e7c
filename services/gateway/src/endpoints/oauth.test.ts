import { zodSays } from '../../test/check-answers';
import { checkBody } from './body-check';
import { OAuthTokenRequest } from './oauth';

describe('the token request parameters', () => {
  // The messages are what the OpenAPI validator (Ajv) answered on the hand-written OAuthTokenRequest
  // (openapi/schemas/oauth.ts), captured before it was replaced by this one; the route words them as
  // "request.…" in an invalid_request, or answers unsupported_grant_type for another grant_type string.
  it.each<[unknown, string | undefined]>([
    [{ grant_type: 'client_credentials' }, undefined],
    [
      { grant_type: 'client_credentials', client_id: 'c', client_secret: 's', scope: 'read write' },
      undefined,
    ],
    [{ grant_type: 'client_credentials', audience: 'x', resource: ['a', 'b'] }, undefined],
    [{ grant_type: 'client_credentials', client_id: '' }, undefined],
    [{ grant_type: 'client_credentials', client_id: 'x'.repeat(512) }, undefined],
    [
      { grant_type: 'client_credentials', client_id: 'x'.repeat(513) },
      'body.client_id must NOT have more than 512 characters',
    ],
    [
      { grant_type: 'client_credentials', client_secret: '\u{1F600}'.repeat(513) },
      'body.client_secret must NOT have more than 512 characters',
    ],
    [
      { grant_type: 'client_credentials', client_id: 'eligo\u0000client' },
      'body.client_id must not contain control characters',
    ],
    [{ grant_type: 'client_credentials', client_secret: ['a', 'b'] }, 'body.client_secret must be string'],
    [{ grant_type: 'client_credentials', client_id: 42 }, 'body.client_id must be string'],
    [{ grant_type: 'client_credentials', scope: 'a\nb' }, 'body.scope must not contain control characters'],
    [{ grant_type: 'client_credentials', scope: null }, 'body.scope must be string'],
    [{ grant_type: 'password' }, 'body.grant_type must be client_credentials'],
    [{ grant_type: '' }, 'body.grant_type must be client_credentials'],
    [{ grant_type: ['client_credentials', 'client_credentials'] }, 'body.grant_type must be string'],
    [{ grant_type: 1 }, 'body.grant_type must be string'],
    [{ grant_type: null }, 'body.grant_type must be string'],
    [{ client_id: 'c', client_secret: 's' }, 'body.grant_type is required'],
    [{ client_id: 1 }, 'body.grant_type is required'],
    [{}, 'body.grant_type is required'],
    [[1], 'body must be object'],
    ['grant_type=client_credentials', 'body must be object'],
    [5, 'body must be object'],
  ])('refuses or accepts %j as the OpenAPI validator did, in the same words', (body, said) => {
    expect(zodSays(OAuthTokenRequest, body)).toEqual(said);
  });

  it('ignores parameters they do not know (RFC 6749 section 3.1), and types the ones they do', () => {
    const checked = checkBody(OAuthTokenRequest, { grant_type: 'client_credentials', client_id: 'c', x: 1 });
    const params: { grant_type: 'client_credentials'; client_id?: string } | undefined = checked.ok
      ? checked.value
      : undefined;
    expect(params).toEqual({ grant_type: 'client_credentials', client_id: 'c' });
  });
});
