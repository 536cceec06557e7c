import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { matchingTemplates, pathTemplates } from '../src/http/allowed-methods';

type Json = Record<string, unknown>;

/** Where the document's components live for ajv: operation schemas' `#/components/...` refs point there. */
const DOC = 'https://eligo.invalid/openapi.json';

export interface ResponseConformance {
  /** Mount before the routes: checks every JSON answer against what the document declares for it. */
  middleware: RequestHandler;
  /** "POST /rest/v2/x -> 400: ..." for each answer the document does not describe. */
  violations: string[];
}

/**
 * Checks answers against the served document: each JSON body must be declared for its operation and status,
 * and match the declared schema. The gateway's tests mount it on the REST app (test/rest-app.ts), so
 * that a response drifting from the document fails the test that produced it, not a later Schemathesis run.
 */
export function responseConformance(document: Json, publicBaseUrl: string): ResponseConformance {
  const templates = pathTemplates(document, publicBaseUrl);
  const components = document.components as Json;
  const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC, components });
  const compiled = new Map<object, ValidateFunction>();
  const validatorOf = (schema: object): ValidateFunction => {
    let validate = compiled.get(schema);
    if (!validate) compiled.set(schema, (validate = ajv.compile(absoluteRefs(schema) as object)));
    return validate;
  };
  const violations: string[] = [];

  const check = (req: Request, status: number, body: unknown): void => {
    const path = req.originalUrl.split('?')[0]!;
    const method = req.method === 'HEAD' ? 'get' : req.method.toLowerCase();
    const operation = matchingTemplates(templates, path)
      .map((t) => t.item[method] as { responses?: Json } | undefined)
      .find(Boolean);
    // Answers outside the document's operations (unknown paths, 405s) are the allowed-methods table's business.
    if (!operation?.responses) return;
    const where = `${req.method} ${path} -> ${status}`;
    let declared = (operation.responses[String(status)] ??
      operation.responses[`${String(status)[0]}XX`] ??
      operation.responses.default) as Json | undefined;
    if (typeof declared?.$ref === 'string')
      declared = (components.responses as Json)[declared.$ref.split('/').pop()!] as Json | undefined;
    if (!declared) return void violations.push(`${where}: the status is not declared`);
    const schema = (declared.content as Record<string, { schema?: object }> | undefined)?.['application/json']
      ?.schema;
    if (!schema) return void violations.push(`${where}: a JSON body where the document declares none`);
    const validate = validatorOf(schema);
    if (!validate(body))
      violations.push(
        `${where}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(body).slice(0, 300)}`,
      );
  };

  return {
    violations,
    middleware: (req: Request, res: Response, next: NextFunction) => {
      const json = res.json.bind(res);
      res.json = (body: unknown) => {
        check(req, res.statusCode, body);
        return json(body);
      };
      next();
    },
  };
}

/** `#/components/...` refs made absolute, so that they resolve in the document ajv holds. */
function absoluteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(absoluteRefs);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [k, k === '$ref' ? `${DOC}${String(v)}` : absoluteRefs(v)]),
  );
}
