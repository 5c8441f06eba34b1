import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/services/clock.js';
import { InvalidInputError } from '../../src/services/errors.js';
import { createServices, type Services } from '../../src/services/index.js';
import { createReportAnswers } from '../../src/services/report-answers.js';
import { createReportInputs, type ReportInputs } from '../../src/services/report-inputs.js';
import { deferred } from '../helpers/deferred.js';
import { openTestStore, type TestStore } from '../helpers/stores.js';

/** A report that counts its runs past the inputs and answers its snapshot's version. */
function countingReport(prepare: ReportInputs, accountId: string) {
  const counter = { computed: 0 };
  const run = async (raw: Record<string, string> = {}) => {
    const { snapshot, query } = await prepare(accountId, raw);
    counter.computed += 1;
    return { version: snapshot.version, currency: query.baseCurrency };
  };
  return { counter, run };
}

describe('report answers kept per snapshot', () => {
  let testStore: TestStore;
  let services: Services;
  let prepare: ReportInputs;
  let accountId: string;

  beforeAll(async () => {
    testStore = await openTestStore('pglite');
    services = createServices(testStore.store, systemClock);
    prepare = createReportInputs(services.metrics, services.fx, services.reportQuery, services.reportAnswers);
    accountId = (await services.accounts.create({ name: 'Answers' })).account.id;
    await services.customers.upsert(accountId, [{ id: 'c1', name: 'One', created_date: '2024-01-01' }]);
  });
  afterAll(() => testStore.dispose());

  // Answers are kept as the bytes sent; these reports answer JSON as the registry does.
  const answer = (request: string, run: () => Promise<unknown>) =>
    services.reportAnswers.answer(request, async () => Buffer.from(JSON.stringify(await run())));
  const parse = (body: Buffer) => JSON.parse(body.toString()) as { version: number; currency: string };
  const write = (id: string) =>
    services.customers.upsert(accountId, [{ id, name: id, created_date: '2024-02-01' }]);

  it('makes an answer once per snapshot and request, and again after a write', async () => {
    const { counter, run } = countingReport(prepare, accountId);
    const first = await answer('/count', () => run());
    expect(await answer('/count', () => run())).toBe(first);
    expect(counter.computed).toBe(1);

    // Another request (its query) is another answer.
    const inEuros = await answer('/count?eur', () => run({ baseCurrency: 'eur' }));
    expect(parse(inEuros)).toEqual({ version: parse(first).version, currency: 'eur' });
    expect(counter.computed).toBe(2);

    await write('c2');
    const after = await answer('/count', () => run());
    expect(parse(after).version).toBeGreaterThan(parse(first).version);
    expect(counter.computed).toBe(3);
  });

  it('makes one answer for requests that ask for it at once', async () => {
    const { counter, run } = countingReport(prepare, accountId);
    await write('c3');
    const answers = await Promise.all(Array.from({ length: 4 }, () => answer('/together', () => run())));
    expect(new Set(answers).size).toBe(1);
    expect(counter.computed).toBe(1);
  });

  it('gives a failure to those who waited for it and keeps nothing of it', async () => {
    let runs = 0;
    const registered = deferred();
    const secondWaits = deferred();
    const failing = async () => {
      await prepare(accountId, {});
      runs += 1;
      if (runs > 1) return 'made';
      registered.resolve();
      await secondWaits.promise;
      throw new InvalidInputError('too many groups');
    };
    const first = answer('/failing', failing);
    await registered.promise;
    // The second request's inputs find the first's answer under way, and it waits for that.
    const second = answer('/failing', () => failing().finally(() => secondWaits.resolve()));
    const results = await Promise.allSettled([first, second]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(runs).toBe(1);
    expect((await answer('/failing', failing)).toString()).toBe('"made"');
    expect(runs).toBe(2);
  });

  it("closes a request's context once it has its answer: what it left behind registers nothing", async () => {
    const leftBehind = deferred();
    const failing = async () => {
      // Work the request started and did not wait for reads the inputs after it failed.
      setTimeout(() => void prepare(accountId, {}).then(() => leftBehind.resolve()), 0);
      throw new InvalidInputError('bad parameter');
    };
    await expect(answer('/left', failing)).rejects.toThrow('bad parameter');
    await leftBehind.promise;
    // Had it registered as making the answer, this request would wait for it for good.
    const { counter, run } = countingReport(prepare, accountId);
    expect(parse(await answer('/left', () => run()))).toMatchObject({ currency: 'usd' });
    expect(counter.computed).toBe(1);
  });

  it('does not keep an answer of several reads of the inputs, nor one made outside `answer`', async () => {
    const { counter, run } = countingReport(prepare, accountId);
    const twice = async () => {
      await run();
      return run();
    };
    await answer('/twice', twice);
    await answer('/twice', twice);
    expect(counter.computed).toBe(4);
    await run();
    await run();
    expect(counter.computed).toBe(6);
  });

  it("keeps a snapshot's answers within its byte limit", async () => {
    const answers = createReportAnswers({ answers: 64, bytes: 100 });
    const small = createReportInputs(services.metrics, services.fx, services.reportQuery, answers);
    const { counter, run } = countingReport(small, accountId);
    const sized = (bytes: number) => async () => {
      await run();
      return Buffer.alloc(bytes);
    };
    await answers.answer('/sixty', sized(60));
    await answers.answer('/thirty', sized(30));
    await answers.answer('/sixty', sized(60));
    expect(counter.computed).toBe(2);
    // 60 + 30 + 20 would pass 100: the twenty drops the others first.
    await answers.answer('/twenty', sized(20));
    await answers.answer('/twenty', sized(20));
    expect(counter.computed).toBe(3);
    await answers.answer('/sixty', sized(60));
    expect(counter.computed).toBe(4);
    // Alone past the limit: made at every request, and the others stay.
    await answers.answer('/huge', sized(200));
    await answers.answer('/huge', sized(200));
    await answers.answer('/sixty', sized(60));
    await answers.answer('/twenty', sized(20));
    expect(counter.computed).toBe(6);
  });
});
