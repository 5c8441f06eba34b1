import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../bench/api-client.js';
import { reflect } from '../../bench/reports.js';

/** A server whose answers to each path are the given statuses in turn (200 once they run out). */
function answering(statuses: Record<string, number[]>) {
  const asked: string[] = [];
  const api = {
    get: (path: string) => {
      asked.push(path);
      const status = statuses[path]?.shift() ?? 200;
      return Promise.resolve({
        status,
        text: status === 200 ? '{}' : '{"error":"deadline"}',
        headers: new Headers(),
      });
    },
  } as unknown as ApiClient;
  return { api, asked };
}

const TARGETS = [
  { path: '/reports/summary', query: '' },
  { path: '/reports/transactions', query: '' },
];

describe('every report once after the writes', () => {
  it('calls a report answered 503 at the deadline again, and counts those answers', async () => {
    const { api, asked } = answering({ '/reports/transactions': [503, 503] });
    const reflection = await reflect(api, TARGETS, () => 0);
    expect(asked).toEqual([
      '/reports/summary',
      '/reports/transactions',
      '/reports/transactions',
      '/reports/transactions',
    ]);
    expect(reflection.firstCalls.map((call) => call.deadlines)).toEqual([0, 2]);
  });

  it('fails on another error, or on too many deadlines', async () => {
    await expect(reflect(answering({ '/reports/summary': [500] }).api, TARGETS, () => 0)).rejects.toThrow(
      'GET /reports/summary: 500',
    );
    const always = answering({ '/reports/summary': Array(11).fill(503) });
    await expect(reflect(always.api, TARGETS, () => 0)).rejects.toThrow('GET /reports/summary: 503');
  });
});
