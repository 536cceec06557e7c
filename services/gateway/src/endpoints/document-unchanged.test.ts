import { openApiDocument } from '../openapi/document';
import { addedOnPurpose, changedOnPurpose, documentBefore as before } from '../../test/document-before';
import { withoutStaffAccess } from '../../test/staff-document';

// The served document as the hand-written OpenAPI (openapi/*.paths.ts, openapi/schemas/*) stated it, captured
// before the endpoints moved to definitions (endpoints/): moving an endpoint changes how it is described, not
// what the document says. A path or schema whose document had to change is listed with the reason.

// What staff identities add to every admin operation (the staff session, its roles and 403) is taken out:
// endpoints/admin-roles.test.ts tests it.
const now = withoutStaffAccess(openApiDocument('https://eligo.test') as typeof before);
const notAdded = (name: string) => !(name in addedOnPurpose);

describe('the served document, as the hand-written one stated it', () => {
  it.each(Object.keys(before.paths).filter((p) => !(p in changedOnPurpose)))('path %s', (path) => {
    expect(now.paths[path]).toEqual(before.paths[path]);
  });

  it.each(Object.keys(before.components.schemas).filter((name) => !(name in changedOnPurpose)))(
    'schema %s',
    (name) => {
      expect(now.components.schemas[name]).toEqual(before.components.schemas[name]);
    },
  );

  // Changed on purpose (test/document-before.ts) for the embedOrigins setting: the create and PATCH 400s list
  // its rule that the schema cannot state, and say nothing else new. Its schemas: admin-programs.test.ts and
  // program-responses.test.ts.
  it.each(['/programs', '/programs/{programId}'])('path %s, but for the rule of embedOrigins', (path) => {
    const rule =
      ', an embedOrigins entry listed twice in two spellings (https://Shop.example:443 and https://shop.example)';
    // GET /programs, the staff console's program list, is new beside the POST (admin-program-lists.test.ts).
    const item = { ...now.paths[path] };
    if (path === '/programs') delete item.get;
    const stated = JSON.stringify(item);
    expect(stated.split(rule)).toHaveLength(2);
    expect(JSON.parse(stated.replace(rule, ''))).toEqual(before.paths[path]);
  });

  it('has the same paths, schemas and shared responses, and the ones added on purpose', () => {
    expect(Object.keys(now.paths).filter(notAdded).sort()).toEqual(Object.keys(before.paths).sort());
    expect(Object.keys(now.components.schemas).filter(notAdded).sort()).toEqual(
      Object.keys(before.components.schemas).sort(),
    );
    for (const added of Object.keys(addedOnPurpose))
      expect([added, added in now.paths || added in now.components.schemas]).toEqual([added, true]);
    expect(now.components.responses).toEqual(before.components.responses);
  });
});
