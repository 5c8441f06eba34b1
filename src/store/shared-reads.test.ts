import { describe, expect, it } from 'vitest';
import { sharedRead } from './shared-reads.js';

/** A read whose answers the test gives one at a time, each the value stored when it started. */
function controlledRead() {
  let stored = 0;
  const started: { key: string; answer: () => void; fail: (error: Error) => void }[] = [];
  const read = (key: string) =>
    new Promise<string>((resolve, reject) => {
      const value = `${key}@${stored}`;
      started.push({ key, answer: () => resolve(value), fail: reject });
    });
  return {
    read,
    started,
    write: () => (stored += 1),
  };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('sharedRead', () => {
  it('gives callers who ask while a read is in flight one read that starts after that one ends', async () => {
    const source = controlledRead();
    const shared = sharedRead(source.read);
    const first = shared('a');
    // A write commits while the first read is in flight; the callers after it must see it.
    source.write();
    const second = shared('a');
    const third = shared('a');
    expect(source.started).toHaveLength(1);
    source.started[0]!.answer();
    expect(await first).toBe('a@0');
    await settled();
    // One read for both later callers, started once the first had ended.
    expect(source.started).toHaveLength(2);
    source.started[1]!.answer();
    expect(await Promise.all([second, third])).toEqual(['a@1', 'a@1']);
  });

  it('reads each key on its own, and anew once no read of it is in flight', async () => {
    const source = controlledRead();
    const shared = sharedRead(source.read);
    const a = shared('a');
    const b = shared('b');
    expect(source.started.map((read) => read.key)).toEqual(['a', 'b']);
    source.started.forEach((read) => read.answer());
    expect(await Promise.all([a, b])).toEqual(['a@0', 'b@0']);
    source.write();
    const again = shared('a');
    expect(source.started).toHaveLength(3);
    source.started[2]!.answer();
    expect(await again).toBe('a@1');
  });

  it('fails only the callers of the read that failed; the next read still starts', async () => {
    const source = controlledRead();
    const shared = sharedRead(source.read);
    const first = shared('a');
    const second = shared('a');
    source.started[0]!.fail(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await settled();
    source.started[1]!.answer();
    expect(await second).toBe('a@0');
    const third = shared('a');
    source.started[2]!.fail(new Error('timeout'));
    await expect(third).rejects.toThrow('timeout');
    // Nothing left in flight: the next call reads at once.
    const fourth = shared('a');
    expect(source.started).toHaveLength(4);
    source.started[3]!.answer();
    expect(await fourth).toBe('a@0');
  });

  it('reads again after a read that threw rather than rejected', async () => {
    let calls = 0;
    let release = () => {};
    const shared = sharedRead((key) => {
      calls += 1;
      if (calls === 2) throw new Error('no connection');
      return new Promise<string>((resolve) => (release = () => resolve(`${key}#${calls}`)));
    });
    const first = shared('a');
    const second = shared('a');
    release();
    expect(await first).toBe('a#1');
    await expect(second).rejects.toThrow('no connection');
    const third = shared('a');
    release();
    expect(await third).toBe('a#3');
  });
});
