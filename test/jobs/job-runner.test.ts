import { afterEach, describe, expect, it } from 'vitest';
import { FinalJobError, type JobDefinition, type JobPayload } from '../../src/jobs/job-queue.js';
import { createJobRunner, type JobRunner, keyedJobId } from '../../src/jobs/job-runner.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createTestLocation, openTestStore, STORE_KINDS, type TestLocation } from '../helpers/stores.js';

// Failed runs are expected here; the queue reports them to nobody.
const FAST = { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1, onError: () => {} };

/** Polls until `check` holds, failing after `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stateOf(store: Store, queue: string, id: string): Promise<string | undefined> {
  const { rows } = await store.jobQueueDb.executeSql(
    'select state from pgboss.job where name = $1 and id = $2',
    [queue, id],
  );
  return (rows[0] as { state: string } | undefined)?.state;
}

/** A definition that records each payload it runs and fails while `failures` says so. */
function recorder(queue: string, failures: (run: number) => boolean, limit = 3) {
  const runs: JobPayload[] = [];
  const definition: JobDefinition = {
    queue,
    retry: { limit, delaySeconds: 0 },
    async run(payload) {
      runs.push(payload);
      if (failures(runs.length)) throw new Error(`run ${runs.length} failed`);
    },
  };
  return { runs, definition };
}

describe.each(STORE_KINDS)('job runner on %s', (kind) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function started(definitions: JobDefinition[]): Promise<{ store: Store; runner: JobRunner }> {
    const testStore = await openTestStore(kind);
    cleanups.push(() => testStore.dispose());
    const runner = createJobRunner(testStore.store, FAST);
    cleanups.push(() => runner.stop());
    await runner.start(definitions);
    return { store: testStore.store, runner };
  }

  it('runs a job that fails twice three times, and it completes', async () => {
    const flaky = recorder('flaky', (run) => run <= 2);
    const { store, runner } = await started([flaky.definition]);
    await runner.sender.send('flaky', { n: 1 }, { key: 'one' });
    const id = keyedJobId('flaky', 'one');
    await until(async () => (await stateOf(store, 'flaky', id)) === 'completed');
    expect(flaky.runs).toEqual([{ n: 1 }, { n: 1 }, { n: 1 }]);
    expect(await runner.dead()).toEqual([]);
  });

  it('leaves a job that always fails dead after its retries, and lists it', async () => {
    // limit 2: the first run and two retries.
    const broken = recorder('broken', () => true, 2);
    const { runner } = await started([broken.definition]);
    await runner.sender.send('broken', { accountId: 'a1' });
    await until(async () => (await runner.dead('broken')).length === 1);
    expect(broken.runs).toHaveLength(3);
    const [dead] = await runner.dead();
    expect(dead).toMatchObject({
      queue: 'broken',
      payload: { accountId: 'a1' },
      attempts: 3,
      error: 'run 3 failed',
    });
    expect(await runner.dead('other')).toEqual([]);
  });

  it('ends a job that fails with a FinalJobError at once: reported, not retried, not dead', async () => {
    const errors: unknown[] = [];
    const runs: JobPayload[] = [];
    const testStore = await openTestStore(kind);
    cleanups.push(() => testStore.dispose());
    const runner = createJobRunner(testStore.store, { ...FAST, onError: (error) => errors.push(error) });
    cleanups.push(() => runner.stop());
    await runner.start([
      {
        queue: 'refused',
        retry: { limit: 3, delaySeconds: 0 },
        async run(payload) {
          runs.push(payload);
          throw new FinalJobError('the target is refused');
        },
      },
    ]);
    await runner.sender.send('refused', { n: 1 }, { key: 'r' });
    const id = keyedJobId('refused', 'r');
    await until(async () => (await stateOf(testStore.store, 'refused', id)) === 'completed');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(runs).toEqual([{ n: 1 }]);
    expect(errors).toEqual([new FinalJobError('the target is refused')]);
    expect(await runner.dead()).toEqual([]);
  });

  it('runs a keyed job once however often it is sent, also once archived', async () => {
    const once = recorder('once', () => false);
    const { store, runner } = await started([once.definition]);
    await runner.sender.send('once', { n: 1 }, { key: 'k' });
    await runner.sender.send('once', { n: 2 }, { key: 'k' });
    const id = keyedJobId('once', 'k');
    await until(async () => (await stateOf(store, 'once', id)) === 'completed');
    await runner.sender.send('once', { n: 3 }, { key: 'k' });
    // What pg-boss's maintenance does a day after completion.
    await store.jobQueueDb.executeSql(
      `with moved as (delete from pgboss.job where name = $1 and id = $2 returning *)
       insert into pgboss.archive select moved.*, now() from moved`,
      ['once', id],
    );
    await runner.sender.send('once', { n: 4 }, { key: 'k' });
    await runner.sender.send('once', { n: 5 }, { key: 'other' });
    await until(() => once.runs.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(once.runs).toEqual([{ n: 1 }, { n: 5 }]);
  });

  it('refuses to send before it starts and to a queue it does not run', async () => {
    const testStore = await openTestStore(kind);
    cleanups.push(() => testStore.dispose());
    const runner = createJobRunner(testStore.store, FAST);
    await expect(runner.sender.send('q', {})).rejects.toThrow(
      'The job runner is not started: cannot send to q',
    );
    cleanups.push(() => runner.stop());
    await runner.start([recorder('q', () => false).definition]);
    await expect(runner.sender.send('elsewhere', {})).rejects.toThrow(
      'No job definition for queue elsewhere',
    );
  });

  it('refuses two definitions of one queue', async () => {
    const testStore = await openTestStore(kind);
    cleanups.push(() => testStore.dispose());
    const runner = createJobRunner(testStore.store, FAST);
    const twice = recorder('twice', () => false).definition;
    await expect(runner.start([twice, twice])).rejects.toThrow('Two job definitions for queue twice');
  });

  it('schedules a cron definition (UTC), and unschedules it when a later start drops the cron', async () => {
    const nightly = { ...recorder('nightly', () => false).definition, cron: '0 3 * * *' };
    const { store, runner } = await started([nightly]);
    const schedules = async () =>
      (await store.jobQueueDb.executeSql('select name, cron, timezone from pgboss.schedule')).rows;
    expect(await schedules()).toEqual([{ name: 'nightly', cron: '0 3 * * *', timezone: 'UTC' }]);
    await runner.stop();
    const { cron: _cron, ...plain } = nightly;
    const again = createJobRunner(store, FAST);
    cleanups.push(() => again.stop());
    await again.start([plain]);
    expect(await schedules()).toEqual([]);
  });

  describe('across a restart', () => {
    let location: TestLocation;
    afterEach(() => location.drop());

    it('runs after the restart a job sent before it', async () => {
      location = await createTestLocation(kind);
      const first = recorder('later', () => false);
      let store = await openStore(location.location);
      let runner = createJobRunner(store, FAST);
      await runner.start([first.definition]);
      await runner.sender.send('later', { n: 1 }, { startAfter: new Date(Date.now() + 2000) });
      await runner.stop();
      await store.close();
      expect(first.runs).toEqual([]);

      const second = recorder('later', () => false);
      store = await openStore(location.location);
      runner = createJobRunner(store, FAST);
      await runner.start([second.definition]);
      try {
        await until(() => second.runs.length === 1);
        expect(second.runs).toEqual([{ n: 1 }]);
      } finally {
        await runner.stop();
        await store.close();
      }
    });
  });
});

describe.skipIf(!STORE_KINDS.includes('postgres'))('job runners starting together on PostgreSQL', () => {
  let location: TestLocation;
  const stores: Store[] = [];
  const runners: JobRunner[] = [];
  afterEach(async () => {
    for (const runner of runners.splice(0)) await runner.stop();
    for (const store of stores.splice(0)) await store.close();
    await location.drop();
  });

  // As the workers of a cluster do on a new database: pg-boss creates each queue with its row and
  // a partition of the job table, and two processes creating the same queue may deadlock.
  it('all start, each queue created once', async () => {
    location = await createTestLocation('postgres');
    const queues = ['first', 'second', 'third', 'fourth'];
    stores.push(...(await Promise.all(queues.map(() => openStore(location.location)))));
    runners.push(...stores.map((store) => createJobRunner(store, FAST)));
    await Promise.all(
      runners.map((runner) => runner.start(queues.map((queue) => recorder(queue, () => false).definition))),
    );
    const { rows } = await stores[0]!.jobQueueDb.executeSql(
      "select name from pgboss.queue where name not like '\\_\\_pgboss%' order by name",
    );
    expect(rows.map((row) => (row as { name: string }).name)).toEqual([...queues].sort());
  });
});
