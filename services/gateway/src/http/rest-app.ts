import express, { Router, type Express, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { operatorTokenVerifier, requireToken } from '../auth';
import type { ModuleInfoReader } from '../clients/module-info';
import { errorMiddleware } from '../errors';
import { openApiDocument } from '../openapi/document';
import { infoRouter } from '../routes/info';

export interface RestOptions {
  logger: Logger;
  publicBaseUrl: string;
  bodyLimit: string;
  adminToken: string;
  version: string;
  gitCommit: string;
  modules: ModuleInfoReader;
}

/** Mounts REST v2 (and, later, the admin API) with body limits, bearer auth and the one error mapper. */
export function mountRest(app: Express, options: RestOptions): void {
  const document = openApiDocument(options.publicBaseUrl);
  const auth = requireToken(operatorTokenVerifier(options.adminToken));

  const v2 = Router();
  v2.use(express.json({ limit: options.bodyLimit, strict: true }));
  v2.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  v2.use(
    infoRouter({ auth, version: options.version, gitCommit: options.gitCommit, modules: options.modules }),
  );
  v2.use(notFound);
  v2.use(errorMiddleware(options.logger));
  app.use('/rest/v2', v2);
}

function notFound(req: Request, res: Response, _next: NextFunction): void {
  res.status(404).json({ systemErrorMessage: `No endpoint ${req.method} ${req.baseUrl}${req.path}` });
}
