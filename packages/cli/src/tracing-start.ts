// Side effect on import: main.ts imports this before anything else, so that instrumentations are in place
// before http, express, @grpc/grpc-js and pg are loaded. Only `eligo start` serves requests worth tracing.
import { startTracing } from './tracing';

export const stopTracing =
  process.argv[2] === 'start' ? startTracing(process.env, process.argv.slice(3)) : undefined;
