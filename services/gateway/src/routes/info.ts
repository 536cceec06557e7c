import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { ModuleInfoReader } from '../clients/module-info';
import { routeTable } from '../endpoints/route-table';
import { getInfo, getOpenApiDocument } from '../endpoints/info';

export interface InfoRouteOptions {
  auth: RequestHandler;
  version: string;
  gitCommit: string;
  modules: ModuleInfoReader;
  /** The OpenAPI document served at /openapi.json (openapi/document.ts), built once. */
  document: Record<string, unknown>;
}

/**
 * Service information (REST v2), as endpoints/info.ts defines it: build information of the gateway and of
 * every module it reaches over gRPC (any token), and the OpenAPI document (no token).
 */
export function infoRouter(options: InfoRouteOptions): Router {
  async function buildInfo(_req: Request, res: Response) {
    const modules = await options.modules.readAll();
    res.json({
      name: 'eligo',
      apiVersion: '2.0.0',
      version: options.version,
      gitCommit: options.gitCommit,
      modules,
    });
  }

  function openApiDocument(_req: Request, res: Response) {
    res.json(options.document);
  }

  return routeTable(Router(), [
    { endpoint: getInfo, before: [options.auth], handler: buildInfo },
    { endpoint: getOpenApiDocument, handler: openApiDocument },
  ]);
}
