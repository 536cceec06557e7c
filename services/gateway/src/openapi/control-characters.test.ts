import { openApiDocument } from './document';

// Issue 18: a NUL in a metadata key went through the edge into an event, and the projection that stores it
// stopped on it. Every text a request may carry, in a body or a query, must say in its schema that control
// characters are refused (the validator holds requests to the same schemas), so this walks the document.
type Schema = Record<string, unknown>;
const document = openApiDocument('https://eligo.example.com') as {
  paths: Record<string, Schema>;
  components: { schemas: Record<string, Schema> };
};
const methods = ['get', 'post', 'put', 'patch', 'delete'];
/** NUL, ESC (C0) and NEL (C1): each must be refused wherever text is taken. */
const samples = ['a\u0000b', 'a\u001bb', 'a\u0085b'];

/**
 * Texts the services take as they come by design: the documents service strips control characters from a
 * file name and answers an unknown type UNSUPPORTED_TYPE per file, before anything is stored, and form B's
 * multipart headers (which carry the same two) cannot be held to a schema.
 */
const exempt = [
  'post /verification/{verificationId}/step/docUpload',
  'post /verification/{verificationId}/step/docUpload/{docUploadToken}',
].flatMap((operation) => ['fileName', 'mimeType'].map((field) => `${operation} body.files[].${field}`));

/** Bodies that are files, not fields (their rows or parts are described, and checked, elsewhere). */
const fileMediaTypes = ['text/csv', 'application/x-ndjson', 'application/jsonl', 'application/octet-stream'];

const resolve = (schema: Schema): Schema =>
  typeof schema.$ref === 'string'
    ? document.components.schemas[schema.$ref.replace('#/components/schemas/', '')]!
    : schema;

const refuses = (pattern: unknown) =>
  typeof pattern === 'string' && samples.every((s) => !new RegExp(pattern).test(s));

/** Whether a string schema names its values (an enum, a constant or file content) rather than taking text. */
const closed = (s: Schema) => 'enum' in s || 'const' in s || 'contentMediaType' in s || s.format === 'binary';

/** Where, under `at`, a schema takes a text that may hold a control character. */
function openTexts(schema: Schema, at: string): string[] {
  const s = resolve(schema);
  const types = ([] as unknown[]).concat(s.type ?? []);
  const found: string[] = [];
  if (types.includes('string') && !closed(s) && !refuses(s.pattern)) found.push(at);
  for (const [name, property] of Object.entries((s.properties ?? {}) as Record<string, Schema>))
    found.push(...openTexts(property, `${at}.${name}`));
  if (s.items) found.push(...openTexts(s.items as Schema, `${at}[]`));
  if (typeof s.additionalProperties === 'object') {
    const names = (s.propertyNames ?? {}) as Schema;
    if (!('enum' in names) && !refuses(names.pattern)) found.push(`${at} (keys)`);
    found.push(...openTexts(s.additionalProperties as Schema, `${at}[key]`));
  }
  // Branches of a schema with a type of its own only narrow it (e.g. "name, when it is given, not empty").
  if (types.length === 0)
    for (const branch of [...((s.anyOf ?? []) as Schema[]), ...((s.oneOf ?? []) as Schema[])])
      found.push(...openTexts(branch, at));
  return found;
}

const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  methods.filter((m) => item[m]).map((m) => ({ name: `${m} ${path}`, item, operation: item[m] as Schema })),
);

it('refuses control characters in every text of every request body and query', () => {
  const open = operations.flatMap(({ name, item, operation }) => {
    const body = (operation.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)
      ?.content;
    const bodies = Object.entries(body ?? {})
      .filter(([type]) => !fileMediaTypes.includes(type))
      .flatMap(([, { schema }]) => openTexts(schema, 'body'));
    // Path segments name a resource: one that names none is answered 404, whatever it holds.
    const queries = [...((item.parameters ?? []) as Schema[]), ...((operation.parameters ?? []) as Schema[])]
      .filter((p) => p.in === 'query')
      .flatMap((p) => openTexts(p.schema as Schema, `query.${String(p.name)}`));
    return [...bodies, ...queries].map((where) => `${name} ${where}`);
  });
  // The rows of an organization import, which the file body only refers to.
  const rows = openTexts(document.components.schemas.OrganizationImportRow!, 'row').map(
    (where) => `post /organizations ${where}`,
  );
  expect([...new Set([...open, ...rows])].filter((where) => !exempt.includes(where))).toEqual([]);
});
