import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type LabelValues } from 'prom-client';

/**
 * One registry per process (docs/architecture.md, "Operations"): the launcher creates it and hands it to
 * every module, the gRPC host and clients, and the HTTP layer serves it at /metrics. A registry object rather
 * than prom-client's global one, so that tests (and two hosts in one test process) do not collide.
 */
export type MetricsRegistry = Registry;

export interface MetricsRegistryOptions {
  /** Process metrics (CPU, memory, event loop lag, GC). On by default; one registry per process gets them. */
  defaultMetrics?: boolean;
  /** Prefix of the default process metrics, e.g. "eligo_". */
  prefix?: string;
}

export function createMetricsRegistry(options: MetricsRegistryOptions = {}): MetricsRegistry {
  const registry = new Registry();
  if (options.defaultMetrics !== false) {
    collectDefaultMetrics({ register: registry, ...(options.prefix ? { prefix: options.prefix } : {}) });
  }
  return registry;
}

/** The Prometheus text exposition, for the HTTP layer's /metrics route. */
export async function metricsText(registry: MetricsRegistry): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}

interface MetricConfig<L extends string> {
  name: string;
  help: string;
  labelNames?: readonly L[];
}

type MetricClass = typeof Counter | typeof Gauge | typeof Histogram;

/**
 * prom-client throws when a name is registered twice. In all-in-one mode several modules (and several
 * clients of one service) define the same metric, so registration is get-or-create; a name reused for a
 * different metric type is a programming error and fails loudly.
 */
function existing<T>(registry: MetricsRegistry, name: string, type: MetricClass): T | undefined {
  const found = registry.getSingleMetric(name);
  if (found === undefined) return undefined;
  if (!(found instanceof type)) {
    throw new Error(`metric ${name} is already registered with another type`);
  }
  return found as T;
}

export function counter<L extends string>(registry: MetricsRegistry, config: MetricConfig<L>): Counter<L> {
  return (
    existing<Counter<L>>(registry, config.name, Counter) ??
    new Counter<L>({ ...config, labelNames: config.labelNames ?? [], registers: [registry] })
  );
}

export function gauge<L extends string>(registry: MetricsRegistry, config: MetricConfig<L>): Gauge<L> {
  return (
    existing<Gauge<L>>(registry, config.name, Gauge) ??
    new Gauge<L>({ ...config, labelNames: config.labelNames ?? [], registers: [registry] })
  );
}

export function histogram<L extends string>(
  registry: MetricsRegistry,
  config: MetricConfig<L> & { buckets?: number[] },
): Histogram<L> {
  return (
    existing<Histogram<L>>(registry, config.name, Histogram) ??
    new Histogram<L>({ ...config, labelNames: config.labelNames ?? [], registers: [registry] })
  );
}

/** Label values of a module metric: every label but `module`, which the binding fills in. */
export type ModuleLabels<L extends string> = Partial<Record<L, string | number>>;

export interface ModuleCounter<L extends string> {
  inc(labels?: ModuleLabels<L>, value?: number): void;
}
export interface ModuleGauge<L extends string> {
  set(labels: ModuleLabels<L>, value: number): void;
  inc(labels?: ModuleLabels<L>, value?: number): void;
  dec(labels?: ModuleLabels<L>, value?: number): void;
}
export interface ModuleHistogram<L extends string> {
  observe(labels: ModuleLabels<L>, value: number): void;
  /** Starts a timer; calling the result observes the elapsed seconds (labels may be completed then). */
  startTimer(labels?: ModuleLabels<L>): (labels?: ModuleLabels<L>) => number;
}

export interface ModuleMetrics {
  readonly module: string;
  counter<L extends string = never>(config: MetricConfig<L>): ModuleCounter<L>;
  gauge<L extends string = never>(config: MetricConfig<L>): ModuleGauge<L>;
  histogram<L extends string = never>(config: MetricConfig<L> & { buckets?: number[] }): ModuleHistogram<L>;
}

/**
 * Metrics of one module, every series labelled `module` (section 12: metrics per module). Modules in one
 * process share a registry and metric names; the label is what tells their series apart, so it is bound
 * here rather than left to each call site to remember.
 */
export function moduleMetrics(registry: MetricsRegistry, module: string): ModuleMetrics {
  // module first (it reads first in the exposition) and last (a caller's own `module` label cannot win).
  const withModule = <L extends string>(labels: ModuleLabels<L> = {}): LabelValues<L | 'module'> =>
    Object.assign({ module }, labels, { module }) as LabelValues<L | 'module'>;
  const names = <L extends string>(config: MetricConfig<L>): (L | 'module')[] => [
    'module',
    ...(config.labelNames ?? []),
  ];
  return {
    module,
    counter(config) {
      const c = counter(registry, { ...config, labelNames: names(config) });
      return { inc: (labels, value = 1) => c.inc(withModule(labels), value) };
    },
    gauge(config) {
      const g = gauge(registry, { ...config, labelNames: names(config) });
      return {
        set: (labels, value) => g.set(withModule(labels), value),
        inc: (labels, value = 1) => g.inc(withModule(labels), value),
        dec: (labels, value = 1) => g.dec(withModule(labels), value),
      };
    },
    histogram(config) {
      const h = histogram(registry, { ...config, labelNames: names(config) });
      return {
        observe: (labels, value) => h.observe(withModule(labels), value),
        startTimer: (labels) => {
          const end = h.startTimer(withModule(labels));
          return (more) => end(more ? withModule({ ...labels, ...more }) : undefined);
        },
      };
    },
  };
}
