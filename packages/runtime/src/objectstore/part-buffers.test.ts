import { PartBuffers } from './part-buffers';

describe('PartBuffers', () => {
  it('lends a buffer given back, whole, to the next take of its size', () => {
    const buffers = new PartBuffers();
    const first = buffers.take(1024 * 1024);
    // A part is sent as the view of what it was filled with; the whole buffer comes back.
    buffers.giveBack(first.subarray(0, 1000));
    const second = buffers.take(1024 * 1024);
    expect(second).toBe(first);
    expect(second.length).toBe(1024 * 1024);
    expect(buffers.allocated).toBe(1);
  });

  it('never lends one buffer twice at a time, nor another size', () => {
    const buffers = new PartBuffers();
    const a = buffers.take(8192);
    const b = buffers.take(8192);
    expect(b.buffer).not.toBe(a.buffer);
    buffers.giveBack(a);
    // Given back twice (a caller's mistake) it is still lent once.
    buffers.giveBack(a);
    expect(buffers.take(16384).length).toBe(16384);
    expect(buffers.take(8192)).toBe(a);
    expect(buffers.take(8192).buffer).not.toBe(a.buffer);
    expect(buffers.allocated).toBe(4);
  });

  it('ignores buffers it did not lend', () => {
    const buffers = new PartBuffers();
    buffers.giveBack(Buffer.alloc(8192));
    buffers.giveBack(Buffer.from('small, from the shared pool'));
    expect(buffers.idleCount).toBe(0);
  });

  it('keeps at most maxIdle of a size', () => {
    const buffers = new PartBuffers(2);
    const lent = [buffers.take(8192), buffers.take(8192), buffers.take(8192)];
    for (const buffer of lent) buffers.giveBack(buffer);
    expect(buffers.idleCount).toBe(2);
  });

  it('lets the idle ones go once no put took one for idleMs', () => {
    jest.useFakeTimers();
    try {
      let now = 0;
      const buffers = new PartBuffers(4, 30_000, () => now);
      buffers.giveBack(buffers.take(8192));
      now = 20_000;
      // A take at 20 s (given back at once) keeps them another 30 s.
      buffers.giveBack(buffers.take(8192));
      now = 30_000;
      jest.advanceTimersByTime(30_000);
      expect(buffers.idleCount).toBe(1);
      now = 50_000;
      jest.advanceTimersByTime(20_000);
      expect(buffers.idleCount).toBe(0);
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});
