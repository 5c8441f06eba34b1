import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/services/clock.js';
import { StoreBusyError } from '../../src/services/errors.js';
import { createServices } from '../../src/services/index.js';
import { acquireDataDirLock, lockOwner, removeStaleLock } from '../../src/store/data-dir-lock.js';
import { openStore } from '../../src/store/open-store.js';
import { createTestLocation, STORE_KINDS, type TestLocation } from '../helpers/stores.js';

describe.each(STORE_KINDS)('store on %s', (kind) => {
  it('keeps every record across a restart', async () => {
    const location = await createTestLocation(kind);
    try {
      const first = await openStore(location.location);
      const services = createServices(first, systemClock);
      const { account, adminKey } = await services.accounts.create({
        name: 'Persisted',
        baseCurrency: 'EUR',
      });
      const source = await services.dataSources.create(account.id, { name: 'Books', type: 'csv' });
      await services.team.add(account.id, { email: 'ana@example.com', name: 'Ana', role: 'admin' });
      await services.settings.updateNotifications(account.id, { email: { frequency: 'daily' } });
      await first.close();

      const second = await openStore(location.location);
      const reopened = createServices(second, systemClock);
      try {
        expect(await reopened.accounts.profile(account.id)).toEqual(account);
        expect(account.base_currency).toBe('eur');
        expect(await reopened.apiKeys.authenticate(adminKey.key)).toMatchObject({ accountId: account.id });
        expect(await reopened.dataSources.list(account.id)).toEqual([source]);
        expect((await reopened.team.list(account.id)).map((member) => member.email)).toEqual([
          'ana@example.com',
        ]);
        expect((await reopened.settings.notifications(account.id)).email.frequency).toBe('daily');
      } finally {
        await second.close();
      }
    } finally {
      await location.drop();
    }
  });

  it('creates the default account on the first start only, even when two start together', async () => {
    const location = await createTestLocation(kind);
    const first = await openStore(location.location);
    try {
      const services = createServices(first, systemClock);
      const results = await Promise.all([
        services.accounts.bootstrapIfEmpty(),
        services.accounts.bootstrapIfEmpty(),
      ]);
      const created = results.filter((result) => result !== undefined);
      expect(created).toHaveLength(1);
      expect(created[0]!.account).toMatchObject({ name: 'Default', base_currency: 'usd' });
      expect(created[0]!.adminKey.access_level).toBe('admin');
      expect(await services.accounts.bootstrapIfEmpty()).toBeUndefined();
      expect(await services.accounts.list()).toHaveLength(1);
    } finally {
      await first.close();
      await location.drop();
    }
  });
});

describe('PGlite data directory', () => {
  const lockFile = (location: TestLocation) =>
    `${(location.location as { dataDir: string }).dataDir}/mrrlytics.lock`;

  it('cannot be opened twice by this process', async () => {
    const location = await createTestLocation('pglite');
    const store = await openStore(location.location);
    try {
      await expect(openStore(location.location)).rejects.toThrow(StoreBusyError);
    } finally {
      await store.close();
    }
    const reopened = await openStore(location.location);
    await reopened.close();
    await location.drop();
  });

  const dataDir = (location: TestLocation) => (location.location as { dataDir: string }).dataDir;

  it('cannot be opened while another live process holds it, after waiting for it a while', async () => {
    const location = await createTestLocation('pglite');
    writeFileSync(lockFile(location), lockOwner(process.ppid));
    try {
      const started = performance.now();
      await expect(acquireDataDirLock(dataDir(location), 300)).rejects.toThrow(
        new RegExp(`in use by process ${process.ppid}\\.`),
      );
      expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    } finally {
      await location.drop();
    }
  });

  it('is taken over once a live owner exits within the wait', async () => {
    const location = await createTestLocation('pglite');
    const owner = spawn('sleep', ['0.5']);
    const exited = new Promise((resolve) => owner.once('exit', resolve));
    try {
      writeFileSync(lockFile(location), lockOwner(owner.pid!));
      const release = await acquireDataDirLock(dataDir(location));
      // The lock now names this process, and the draft it was linked from is gone.
      expect(readFileSync(lockFile(location), 'utf8')).toBe(lockOwner(process.pid));
      expect(readdirSync(dataDir(location)).filter((name) => name.startsWith('mrrlytics.lock'))).toEqual([
        'mrrlytics.lock',
      ]);
      release();
      await exited;
    } finally {
      await location.drop();
    }
  });

  it.runIf(existsSync('/proc/self/stat'))(
    'is taken over at once from an owner that died and is not reaped yet (a zombie)',
    async () => {
      const location = await createTestLocation('pglite');
      // The shell becomes `sleep 30` and never reaps its first child, which stays a zombie.
      const parent = spawn('sh', ['-c', 'sleep 0.1 & echo $!; exec sleep 30']);
      try {
        const zombie = Number(
          await new Promise<string>((resolve) =>
            parent.stdout.once('data', (chunk) => resolve(String(chunk))),
          ),
        );
        const ownerLine = lockOwner(zombie);
        await sleep(500);
        expect(readFileSync(`/proc/${zombie}/stat`, 'utf8')).toMatch(/\) Z /);
        writeFileSync(lockFile(location), ownerLine);
        const started = performance.now();
        const release = await acquireDataDirLock(dataDir(location), 5_000);
        expect(performance.now() - started).toBeLessThan(1_000);
        release();
      } finally {
        parent.kill();
        await location.drop();
      }
    },
  );

  it('removes a stale lock only if it is still the one judged stale', async () => {
    const location = await createTestLocation('pglite');
    try {
      const path = lockFile(location);
      writeFileSync(path, '999999999');
      removeStaleLock(path, '999999999');
      expect(readdirSync(dataDir(location))).toEqual([]);
      // Another start took the stale lock over between this one's reading and its removal.
      writeFileSync(path, lockOwner(process.ppid));
      removeStaleLock(path, '999999999');
      expect(readFileSync(path, 'utf8')).toBe(lockOwner(process.ppid));
      expect(readdirSync(dataDir(location))).toEqual(['mrrlytics.lock']);
    } finally {
      await location.drop();
    }
  });

  it('is taken over from a process that has exited, or from an earlier life of our own pid', async () => {
    for (const stale of ['999999999', String(process.pid)]) {
      const location = await createTestLocation('pglite');
      writeFileSync(lockFile(location), stale);
      const store = await openStore(location.location);
      await store.close();
      await location.drop();
    }
  });
});
