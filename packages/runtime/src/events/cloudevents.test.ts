import {
  buildCloudEventHeaders,
  eventSource,
  eventType,
  InvalidCloudEventError,
  parseCloudEventHeaders,
  topicFor,
} from './cloudevents';

const ID = '3f1c2a9e-8b7d-4c6e-9a1b-2d3e4f5a6b7c';
const valid = (): Record<string, string> =>
  buildCloudEventHeaders({
    service: 'verification',
    eventName: 'VerificationStepChanged',
    subject: '5f0c3a9e1b2d4c6e8a0b1c2d',
    id: ID,
    time: new Date('2025-03-04T05:06:07.089Z'),
  });

function problemsOf(headers: Record<string, string | undefined>): readonly string[] {
  try {
    parseCloudEventHeaders(headers);
  } catch (err) {
    if (err instanceof InvalidCloudEventError) return err.problems;
    throw err;
  }
  return [];
}

describe('naming', () => {
  it('derives topic, source and type from the service and event name', () => {
    expect(topicFor('verification')).toBe('eligo.verification.events.v1');
    expect(eventSource('documents')).toBe('/eligo/documents');
    expect(eventType('programs', 'ProgramCreated')).toBe('eligo.programs.v1.ProgramCreated');
  });

  it.each([
    ['Verification', 'StepChanged'],
    ['verification-svc', 'StepChanged'],
    ['verification', 'stepChanged'],
    ['verification', 'Step.Changed'],
    ['', 'StepChanged'],
  ])('rejects service %j with event %j', (service, event) => {
    expect(() => eventType(service, event)).toThrow();
  });
});

describe('buildCloudEventHeaders', () => {
  it('sets every binary-mode header of docs/architecture.md, "Events"', () => {
    expect(valid()).toEqual({
      ce_specversion: '1.0',
      ce_id: ID,
      ce_source: '/eligo/verification',
      ce_type: 'eligo.verification.v1.VerificationStepChanged',
      ce_time: '2025-03-04T05:06:07.089Z',
      ce_subject: '5f0c3a9e1b2d4c6e8a0b1c2d',
      'content-type': 'application/protobuf',
    });
  });

  it('gives each event a fresh UUID and the current time by default', () => {
    const before = Date.now();
    const a = buildCloudEventHeaders({ service: 'reports', eventName: 'ReportReady', subject: 'r1' });
    const b = buildCloudEventHeaders({ service: 'reports', eventName: 'ReportReady', subject: 'r1' });
    expect(a.ce_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.ce_id).not.toBe(b.ce_id);
    expect(Date.parse(a.ce_time!)).toBeGreaterThanOrEqual(before);
  });

  it('refuses an empty subject and a non-UUID id', () => {
    expect(() =>
      buildCloudEventHeaders({ service: 'reports', eventName: 'ReportReady', subject: '' }),
    ).toThrow(/subject/);
    expect(() =>
      buildCloudEventHeaders({ service: 'reports', eventName: 'ReportReady', subject: 'r1', id: 'abc' }),
    ).toThrow(/UUID/);
  });
});

describe('parseCloudEventHeaders', () => {
  it('round-trips what buildCloudEventHeaders produced', () => {
    expect(parseCloudEventHeaders(valid())).toEqual({
      id: ID,
      source: '/eligo/verification',
      type: 'eligo.verification.v1.VerificationStepChanged',
      time: '2025-03-04T05:06:07.089Z',
      subject: '5f0c3a9e1b2d4c6e8a0b1c2d',
      service: 'verification',
      eventName: 'VerificationStepChanged',
    });
  });

  it.each([
    ['2025-03-04T05:06:07Z'],
    ['2025-03-04T05:06:07.123456+02:00'],
    ['2024-02-29t23:59:59z'],
    ['2025-03-04T05:06:07-11:30'],
  ])('accepts RFC 3339 time %s', (time) => {
    expect(problemsOf({ ...valid(), ce_time: time })).toEqual([]);
  });

  it.each<[string, Record<string, string | undefined>, RegExp]>([
    ['a missing id', { ce_id: undefined }, /ce_id is missing/],
    ['an empty subject', { ce_subject: '' }, /ce_subject is missing/],
    ['another specversion', { ce_specversion: '0.3' }, /ce_specversion/],
    ['a non-UUID id', { ce_id: 'order-42' }, /ce_id is not a UUID/],
    ['a foreign source', { ce_source: 'https://example.com/x' }, /ce_source/],
    ['a type outside eligo', { ce_type: 'com.example.Thing' }, /ce_type/],
    ['a type of another service', { ce_type: 'eligo.programs.v1.ProgramCreated' }, /does not belong/],
    ['a date without time', { ce_time: '2025-03-04' }, /ce_time/],
    ['a time without offset', { ce_time: '2025-03-04T05:06:07' }, /ce_time/],
    ['an impossible date', { ce_time: '2025-02-30T00:00:00Z' }, /ce_time/],
    ['an impossible hour', { ce_time: '2025-02-01T24:00:00Z' }, /ce_time/],
    ['a JSON payload', { 'content-type': 'application/json' }, /content-type/],
  ])('rejects %s', (_case, override, problem) => {
    const problems = problemsOf({ ...valid(), ...override });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(problem);
  });

  it('reports every problem at once', () => {
    expect(problemsOf({})).toHaveLength(7);
  });
});
