import { Router, type RequestHandler } from 'express';
import type { ModuleInfoReader } from '../clients/module-info';

export interface InfoRouteOptions {
  auth: RequestHandler;
  version: string;
  gitCommit: string;
  modules: ModuleInfoReader;
}

/** GET /info: build information of the gateway and of every module it reaches over gRPC (token endpoint). */
export function infoRouter(options: InfoRouteOptions): Router {
  const router = Router();
  router.get('/info', options.auth, async (_req, res) => {
    const modules = await options.modules.readAll();
    res.json({
      name: 'eligo',
      apiVersion: '2.0.0',
      version: options.version,
      gitCommit: options.gitCommit,
      modules,
    });
  });
  return router;
}
