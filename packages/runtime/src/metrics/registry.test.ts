import { counter, createMetricsRegistry, metricsText, moduleMetrics } from './registry';

describe('metrics registry', () => {
  it('exposes default process metrics in the text format', async () => {
    const { contentType, body } = await metricsText(createMetricsRegistry());
    expect(contentType).toMatch(/^text\/plain/);
    expect(body).toContain('process_cpu_user_seconds_total');
    expect(body).toContain('nodejs_eventloop_lag_seconds');
  });

  it('labels module metrics with their module, sharing one metric between modules', async () => {
    const registry = createMetricsRegistry({ defaultMetrics: false });
    const programs = moduleMetrics(registry, 'programs').counter({
      name: 'eligo_things_total',
      help: 'Things.',
      labelNames: ['outcome'],
    });
    const reports = moduleMetrics(registry, 'reports').counter({
      name: 'eligo_things_total',
      help: 'Things.',
      labelNames: ['outcome'],
    });
    programs.inc({ outcome: 'ok' });
    programs.inc({ outcome: 'ok' });
    reports.inc({ outcome: 'failed' }, 3);
    const { body } = await metricsText(registry);
    expect(body).toContain('eligo_things_total{module="programs",outcome="ok"} 2');
    expect(body).toContain('eligo_things_total{module="reports",outcome="failed"} 3');
  });

  it('times with a module histogram and sets a module gauge', async () => {
    const registry = createMetricsRegistry({ defaultMetrics: false });
    const metrics = moduleMetrics(registry, 'documents');
    const end = metrics
      .histogram({ name: 'eligo_upload_seconds', help: 'Uploads.', labelNames: ['kind'] })
      .startTimer({
        kind: 'pdf',
      });
    end();
    metrics.gauge({ name: 'eligo_queue_depth', help: 'Queue.' }).set({}, 7);
    const { body } = await metricsText(registry);
    expect(body).toContain('eligo_upload_seconds_count{module="documents",kind="pdf"} 1');
    expect(body).toContain('eligo_queue_depth{module="documents"} 7');
  });

  it('refuses a name reused for another metric type', () => {
    const registry = createMetricsRegistry({ defaultMetrics: false });
    counter(registry, { name: 'eligo_x', help: 'x' });
    expect(() => moduleMetrics(registry, 'a').gauge({ name: 'eligo_x', help: 'x' })).toThrow(/another type/);
  });
});
