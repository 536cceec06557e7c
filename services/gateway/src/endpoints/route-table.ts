import type { ErrorRequestHandler, RequestHandler, Router } from 'express';
import { staffGuard } from '../auth/staff-guard';
import { requestBody } from './body-check';
import { expressPath, type EndpointDefinition } from './define';
import { requestQuery } from './query';

/** One route of a resource's table: the endpoint it serves, and its handler by name. */
export interface Route {
  endpoint: EndpointDefinition;
  /** What runs before the definition's checks: authentication first, then path ids (404 before 400). */
  before?: readonly RequestHandler[];
  /** What runs after the checks and before the handler (a rate limit that counts only well-formed requests). */
  after?: readonly RequestHandler[];
  handler: RequestHandler;
  /** Error handlers of this route only (a route whose refusals have another body shape). */
  errors?: readonly ErrorRequestHandler[];
  /**
   * The route checks its body itself (conversion answers SEM; multipart bodies are read as they stream): the
   * definition's JSON body is not checked here. Its query parameters still are.
   */
  ownBodyCheck?: boolean;
}

/**
 * Registers a resource's routes from one table, so that grepping a path finds its definition and the
 * definition's name finds its handler: each route is the endpoint's method and path, then (on the admin API)
 * what a staff session must pass (auth/staff-guard.ts), `before`, the definition's query check and body check
 * (endpoints/query.ts, endpoints/body-check.ts), `after`, the handler and `errors`.
 */
export function routeTable(router: Router, routes: readonly Route[]): Router {
  for (const route of routes) {
    const { endpoint } = route;
    const checks: RequestHandler[] = [];
    if (endpoint.query !== undefined) checks.push(requestQuery(endpoint));
    if (endpoint.body !== undefined && !route.ownBodyCheck)
      checks.push(requestBody(endpoint.body, { optional: endpoint.bodyOptional === true }));
    // The route template of the access log and the HTTP metrics (the runtime's http/access.ts): the
    // definition's path under the router's mount point, never the request's path, which carries ids.
    // The operation and its path parameters are also what the admin API's audit log records (staff/audit-hook.ts).
    const named: RequestHandler = (req, res, next) => {
      res.locals.route = `${req.baseUrl}${endpoint.path}`;
      res.locals.operationId = endpoint.operationId;
      res.locals.pathParams = { ...req.params };
      next();
    };
    const guard = staffGuard(endpoint);
    router[endpoint.method](
      expressPath(endpoint),
      named,
      ...(guard ? [guard] : []),
      ...(route.before ?? []),
      ...checks,
      ...(route.after ?? []),
      route.handler,
      ...(route.errors ?? []),
    );
  }
  return router;
}
