import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { invalidArgument } from '@eligo/runtime';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { schemas, type SchemaName } from '../openapi/components';
import { describeValidationError } from './error-message';

/** The base URI the component schemas are registered under; `#/components/schemas/X` refs resolve in it. */
const DOCUMENT_ID = 'https://eligo.invalid/rest/openapi.json';

export interface RequestValidator {
  /** The message naming what is wrong with `value`, or undefined when it matches the schema. */
  check(schema: SchemaName, value: unknown): string | undefined;
  /**
   * Middleware: 400 ER invalidRequest unless req.body matches the schema. `optional` lets a request without
   * a body through (DELETE .../webhook); a body that is there is still checked.
   */
  body(schema: SchemaName, options?: { optional?: boolean }): RequestHandler;
}

/**
 * Compiles the schemas the OpenAPI document publishes, once, at module creation: a broken schema fails the
 * boot instead of a request. Strict mode keeps typos in schema keywords from silently validating nothing.
 */
export function createRequestValidator(): RequestValidator {
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true, verbose: true });
  addFormats(ajv);
  // OpenAPI keeps schemas under components.schemas; declaring the key lets Ajv take the document as a schema.
  ajv.addKeyword('components');
  ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas } });
  const compiled = new Map<SchemaName, ValidateFunction>();
  for (const name of Object.keys(schemas) as SchemaName[]) {
    const validate = ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/${name}`);
    if (!validate) throw new Error(`schema ${name} did not compile`);
    compiled.set(name, validate);
  }

  const check = (schema: SchemaName, value: unknown): string | undefined => {
    const validate = compiled.get(schema);
    if (!validate) throw new Error(`the document has no schema ${schema}`);
    return validate(value) ? undefined : describeValidationError(validate.errors ?? []);
  };

  return {
    check,
    body:
      (schema, options = {}) =>
      (req: Request, _res: Response, next: NextFunction) => {
        // Without a JSON content type express.json leaves the body undefined.
        if (req.body === undefined) {
          if (options.optional) return next();
          return next(invalidRequest('body is required (Content-Type: application/json)'));
        }
        const problem = check(schema, req.body);
        next(problem === undefined ? undefined : invalidRequest(problem));
      },
  };
}

export function invalidRequest(message: string) {
  return invalidArgument(message, { errorIds: ['invalidRequest'] });
}
