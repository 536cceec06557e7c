import { verificationV1 } from '@eligo/proto';
import { bindService, createLogger, GrpcHost, type ServiceHandlers } from '@eligo/runtime';

type Service = typeof verificationV1.VerificationServiceService;
type Take = verificationV1.TakeEmailLoopMessageResponse;

/**
 * Test support: a VerificationService on a real gRPC server that implements TakeEmailLoopMessage only, for the
 * notifier's email-loop tests (the notifier is started with the verification module remote at `address`).
 * Each send the test plans answers its recipient and code; any other send answers found=false (the code is
 * no longer current). Every other RPC fails: the notifier must not call it.
 */
export interface VerificationStandIn {
  address: string;
  /** Plans the answer of one send (verification id and send id), found=true. */
  plan(answer: { verificationId: string; sendId: string } & Omit<Take, 'found'>): void;
  /** The TakeEmailLoopMessage calls received, in order. */
  readonly calls: verificationV1.TakeEmailLoopMessageRequest[];
  stop(): void;
}

export async function startVerificationStandIn(): Promise<VerificationStandIn> {
  const planned = new Map<string, Take>();
  const calls: verificationV1.TakeEmailLoopMessageRequest[] = [];
  const logger = createLogger({ level: 'silent' });
  const definition = verificationV1.VerificationServiceService;
  const refused = Object.fromEntries(
    Object.keys(definition).map((name) => [
      name,
      async () => {
        throw new Error(`${name} is not called by the notifier`);
      },
    ]),
  ) as unknown as ServiceHandlers<Service>;
  const host = new GrpcHost({ logger, reflection: false });
  host.addService(
    bindService(
      definition,
      {
        ...refused,
        takeEmailLoopMessage: async (req) => {
          calls.push(req);
          const answer = planned.get(`${req.verificationId}/${req.sendId}`);
          return answer ?? verificationV1.TakeEmailLoopMessageResponse.fromPartial({ found: false });
        },
      },
      logger,
    ),
  );
  const address = `127.0.0.1:${await host.listen('127.0.0.1', 0)}`;
  return {
    address,
    calls,
    plan: ({ verificationId, sendId, ...answer }) =>
      planned.set(`${verificationId}/${sendId}`, { ...answer, found: true }),
    stop: () => host.forceShutdown(),
  };
}
