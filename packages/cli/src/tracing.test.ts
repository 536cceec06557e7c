import { defaultServiceName, tracingEnabled } from './tracing';

describe('tracingEnabled', () => {
  it.each([
    [{}, false],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'x' }, false],
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, true],
    [{ OTEL_TRACES_EXPORTER: 'console' }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' }, true],
    [{ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' }, false],
    [{ OTEL_SDK_DISABLED: 'TRUE', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, false],
    [{ OTEL_SDK_DISABLED: 'false', OTEL_TRACES_EXPORTER: 'otlp' }, true],
  ])('%j → %s (off unless asked for)', (env, expected) => {
    expect(tracingEnabled(env)).toBe(expected);
  });
});

describe('defaultServiceName', () => {
  it.each([
    [[], 'eligo'],
    [['--target', 'all'], 'eligo'],
    [['--target', 'gateway'], 'eligo-gateway'],
    [['-t', 'notifier'], 'eligo-notifier'],
    [['--target=verification'], 'eligo-verification'],
    [['--target', 'documents,organizations'], 'eligo-documents+organizations'],
    [['--print-config', '--target', 'Bad Name'], 'eligo'],
  ])('%j → %s', (argv, expected) => {
    expect(defaultServiceName(argv)).toBe(expected);
  });
});
