import type { z } from 'zod';
import { checkBody } from '../src/endpoints/body-check';
import { schemas as served } from '../src/openapi/components';
import { changedOnPurpose, documentBefore } from './document-before';
import { createDocumentValidator, type DocumentValidator } from './document-validator';

/**
 * Test support: the two answers the endpoint tests compare for a body, each one sentence, or undefined for a
 * body that is taken. The definitions' zod checks must accept and refuse the same bodies, in the same words,
 * as the OpenAPI validator (Ajv) did on the hand-written schemas.
 */

/** What a definition's check answers (endpoints/body-check.ts). */
export function zodSays(schema: z.ZodType, body: unknown): string | undefined {
  const checked = checkBody(schema, body);
  return checked.ok ? undefined : checked.problem;
}

// Compiling the whole captured document takes a few hundred milliseconds: once a test file, when first asked.
let before: DocumentValidator | undefined;

/**
 * What the OpenAPI validator answered for the schema of that name, as the request validator ran it over the
 * document captured before the endpoints became definitions (test/document-before.ts). A schema changed on
 * purpose since (changedOnPurpose) is read as the served document states it now: the definitions' checks
 * must still say what their document says, in the same words.
 */
export function ajvSaidBefore(schema: string, body: unknown): string | undefined {
  before ??= createDocumentValidator({
    ...documentBefore.components.schemas,
    ...Object.fromEntries(
      Object.keys(changedOnPurpose)
        .filter((name) => name in documentBefore.components.schemas)
        .map((name) => [name, served[name]]),
    ),
  });
  return before.check(schema, body);
}
