import { programsV1, verificationV1 } from '@eligo/proto';
import {
  createClient,
  createServiceModule,
  type Knex,
  type ModuleDefinition,
  type ModuleFactory,
} from '@eligo/runtime';
import { migrations } from '../migrations';
import { createMailer } from './adapters/mailer';
import { createWebhookSender } from './adapters/webhook-sender';
import { createAppContext, type AppContext } from './app/context';
import { Dispatcher } from './app/dispatcher';
import { sendDueMessages } from './app/messages';
import { notifierMetrics } from './app/metrics';
import { programsPort, verificationPort } from './app/ports';
import { WorkLoop } from './app/work-loop';
import { loadNotifierConfig } from './config';
import { notifierConsumers } from './events/consumers';
import { notifierGrpcService } from './grpc/notifier.handlers';

/**
 * Modules the notifier service calls: programs (webhook settings, send-link recipients) and verification (the
 * recipient and code of an email-loop mail).
 */
export const dependsOn = ['programs', 'verification'] as const;

/** How often the mail sender looks for messages due a retry (new messages wake it). */
const MESSAGE_POLL_MS = 5_000;
/** Beyond an attempt's timeout, a delivery's lease covers the webhook lookup and recording the outcome. */
const LEASE_MARGIN_MS = 5_000;

export const createModule: ModuleFactory = (config, deps) => {
  const own = loadNotifierConfig(config);
  // The launcher's logger for this module already names it (component "notifier").
  const { logger } = deps;
  // The address is read at the first call: in one process the gRPC port is known only once it listens.
  const programs = createClient(programsV1.ProgramsServiceClient, () => deps.addressOf('programs'), {
    deadlineMs: own.dependencyDeadlineMs,
    metrics: deps.metrics,
    module: 'notifier',
    internalToken: deps.internalToken,
    logger,
  });
  const verification = createClient(
    verificationV1.VerificationServiceClient,
    () => deps.addressOf('verification'),
    {
      deadlineMs: own.dependencyDeadlineMs,
      metrics: deps.metrics,
      module: 'notifier',
      internalToken: deps.internalToken,
      logger,
    },
  );
  const mailer = createMailer(own.mail);
  // One app context per module, shared by the consumers, the gRPC handlers and the background loops.
  let app: AppContext | undefined;
  const appOf = (db: Knex): AppContext =>
    (app ??= createAppContext({
      db,
      schema: own.schema,
      programs: programsPort(programs, own.webhook.cacheMs),
      verification: verificationPort(verification),
      sender: createWebhookSender({ timeoutMs: own.webhook.timeoutMs, allowCidrs: own.webhook.allowCidrs }),
      mailer,
      encryptionKey: deps.encryptionKey,
      metrics: notifierMetrics(deps.metrics),
      logger,
      webhook: {
        timeoutMs: own.webhook.timeoutMs,
        retrySchedule: own.webhook.retrySchedule,
        disableAfterMs: own.webhook.disableAfterMs,
        leaseMs: own.webhook.timeoutMs + own.dependencyDeadlineMs + LEASE_MARGIN_MS,
      },
      linkTemplate: own.mail.linkTemplate,
    }));
  // The module's pool exists once createServiceModule below has asked for the gRPC services.
  const built = (): AppContext => {
    if (!app) throw new Error('notifier app context used before the module was built');
    return app;
  };
  // Half the shutdown grace for attempts in flight: the rest is for the consumers, the relay and the pool.
  const dispatcher = new Dispatcher(built, {
    concurrency: own.webhook.concurrency,
    intervalMs: own.webhook.dispatchIntervalMs,
    graceMs: Math.floor(config.shutdownGraceMs / 2),
    logger,
  });
  const messages = new WorkLoop({
    name: 'send-link-messages',
    intervalMs: MESSAGE_POLL_MS,
    run: () => sendDueMessages(built()),
    logger,
  });
  const module = createServiceModule(
    {
      name: 'notifier',
      dependsOn,
      schema: own.schema,
      poolMax: own.poolMax,
      migrations,
      grpcServices: (context) => [notifierGrpcService(context, appOf(context.db))],
      consumers: (context) => notifierConsumers(appOf(context.db)),
    },
    config,
    deps,
  );
  built().deliveries = dispatcher;
  built().wakeMessages = () => messages.wake();
  return {
    ...module,
    async start() {
      await module.start();
      // After the migrations (module.start): the loops query the schema. Deliveries left by a previous run
      // (due, or leased by a process that died) are picked up by the first pass.
      dispatcher.start();
      messages.start();
    },
    async stop() {
      await Promise.all([dispatcher.stop(), messages.stop()]);
      await module.stop();
      programs.close();
      verification.close();
      mailer.close();
    },
  };
};

export const definition: ModuleDefinition = { createModule, dependsOn };
