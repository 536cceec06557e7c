import { errorLines } from './eligo-process';

it("picks a process's error and fatal lines and its `eligo:` message, the last five", () => {
  const output = [
    '{"level":"info","msg":"event bus ready"}',
    '{"level":"error","err":{"message":"The coordinator is not available"},"msg":"kafka consumer crashed"}',
    '{"level":"fatal","msg":"module failed; stopping the process"}',
    '{"level":"info","msg":"stopped"}',
    'eligo: failed to start: listen EADDRINUSE: address already in use 127.0.0.1:34749',
    '{"level":50,"msg":"pino numeric level"}',
  ].join('\n');
  expect(errorLines(output).split('\n')).toEqual([
    '{"level":"error","err":{"message":"The coordinator is not available"},"msg":"kafka consumer crashed"}',
    '{"level":"fatal","msg":"module failed; stopping the process"}',
    'eligo: failed to start: listen EADDRINUSE: address already in use 127.0.0.1:34749',
    '{"level":50,"msg":"pino numeric level"}',
  ]);
  const many = Array.from({ length: 8 }, (_, i) => `eligo: line ${i}`).join('\n');
  expect(errorLines(many).split('\n')).toEqual([
    'eligo: line 3',
    'eligo: line 4',
    'eligo: line 5',
    'eligo: line 6',
    'eligo: line 7',
  ]);
});

it('keeps as many as asked', () => {
  const output = Array.from({ length: 40 }, (_, i) => `{"level":"error","msg":"e${i}"}`).join('\n');
  expect(errorLines(output, 30).split('\n')).toHaveLength(30);
  expect(errorLines(output, 30).split('\n')[0]).toBe('{"level":"error","msg":"e10"}');
});
