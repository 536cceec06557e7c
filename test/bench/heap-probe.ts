/**
 * Peaks of the main thread's V8 heap (used, and committed: what of it the RSS holds) and external memory (Buffers, ArrayBuffers) of an Eligo process while a
 * phase runs, read from its /metrics every `everyMs`: the process's RSS minus these is the rest (worker
 * threads, native allocations, allocator arenas), which tells where a phase's memory went.
 */
export function probeMainThreadMemory(httpUrl: string, everyMs = 100) {
  const peaks = { heapUsedMb: 0, heapTotalMb: 0, externalMb: 0 };
  const metric = (text: string, name: string) => {
    const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, 'm').exec(text);
    return m ? Math.round(Number(m[1]) / 1048576) : 0;
  };
  const timer = setInterval(() => {
    fetch(`${httpUrl}/metrics`)
      .then((res) => res.text())
      .then((text) => {
        peaks.heapUsedMb = Math.max(peaks.heapUsedMb, metric(text, 'nodejs_heap_size_used_bytes'));
        peaks.heapTotalMb = Math.max(peaks.heapTotalMb, metric(text, 'nodejs_heap_size_total_bytes'));
        peaks.externalMb = Math.max(peaks.externalMb, metric(text, 'nodejs_external_memory_bytes'));
      })
      // A sample missed (the process is busy) only makes the peak a lower bound.
      .catch(() => undefined);
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return peaks;
    },
  };
}
