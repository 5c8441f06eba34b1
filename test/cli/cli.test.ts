import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { systemClock } from '../../src/services/clock.js';
import { createServices } from '../../src/services/index.js';
import type { StoreLocation } from '../../src/store/open-store.js';
import { openStore } from '../../src/store/open-store.js';
import { createTestLocation, STORE_KINDS, type TestLocation } from '../helpers/stores.js';

function envFor(location: StoreLocation): NodeJS.ProcessEnv {
  return 'databaseUrl' in location ? { DATABASE_URL: location.databaseUrl } : { DATA_DIR: location.dataDir };
}

describe.each(STORE_KINDS)('CLI on %s', (kind) => {
  let location: TestLocation;
  const run = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      env: envFor(location.location),
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  const secretIn = (text: string) => /(mrr_[A-Za-z0-9_-]{32})/.exec(text)?.[1];
  const authenticates = async (secret: string | undefined) => {
    const store = await openStore(location.location);
    try {
      return (await createServices(store, systemClock).apiKeys.authenticate(secret ?? '')) !== undefined;
    } finally {
      await store.close();
    }
  };

  beforeAll(async () => {
    location = await createTestLocation(kind);
  });
  afterAll(() => location.drop());

  it('prints usage without a command and refuses an unknown one', async () => {
    expect(await run()).toMatchObject({ code: 0, out: expect.stringContaining('Usage: mrrlytics') });
    expect(await run('launch', 'rockets')).toMatchObject({
      code: 2,
      err: expect.stringContaining('Unknown command "launch rockets"'),
    });
    expect(await run('key', 'list', '--bogus')).toMatchObject({
      code: 2,
      err: expect.stringContaining("Unknown option '--bogus'"),
    });
  });

  it('asks for an account while the store has none', async () => {
    expect(await run('key', 'list')).toEqual({
      code: 2,
      out: '',
      err: 'The store holds no account yet: run "account create" first',
    });
  });

  it('manages accounts, keys and team members, printing each secret once', async () => {
    const created = await run('account', 'create', '--name', 'Acme', '--currency', 'EUR');
    expect(created.code).toBe(0);
    const accountId = /^Account ([0-9a-f-]{36}) "Acme" \(eur\)/.exec(created.out)?.[1];
    expect(accountId).toBeDefined();
    const adminSecret = secretIn(created.out);
    expect(await authenticates(adminSecret)).toBe(true);

    const listed = await run('account', 'list');
    expect(listed.out).toBe(`${accountId}\teur\tAcme`);

    // With one account in the store, --account may be left out.
    const viewer = await run('key', 'create', '--name', 'Dashboard', '--access', 'viewer');
    expect(viewer.out).toMatch(/^API key [0-9a-f-]{36} \(viewer, "Dashboard"\)/);
    const viewerId = /^API key ([0-9a-f-]{36})/.exec(viewer.out)![1]!;
    const viewerSecret = secretIn(viewer.out);

    const keys = await run('key', 'list', '--account', accountId!);
    expect(keys.out.split('\n')).toEqual([
      // authenticates() above used the admin key.
      expect.stringMatching(/\tadmin\t\d{4}-\d{2}-\d{2}T[^\t]+\tInitial admin key$/),
      `${viewerId}\tviewer\tnever used\tDashboard`,
    ]);
    expect(keys.out).not.toContain(adminSecret);

    const regenerated = await run('key', 'regenerate', '--key', viewerId);
    const newSecret = secretIn(regenerated.out);
    expect(newSecret).not.toBe(viewerSecret);
    expect(await authenticates(viewerSecret)).toBe(false);
    expect(await authenticates(newSecret)).toBe(true);

    expect(await run('key', 'delete', '--key', viewerId)).toMatchObject({ code: 0, out: 'Deleted' });
    expect(await authenticates(newSecret)).toBe(false);
    expect(await run('key', 'delete', '--key', viewerId)).toMatchObject({
      code: 3,
      err: `API key ${viewerId} not found`,
    });

    const member = await run(
      'member',
      'add',
      '--email',
      'ana@example.com',
      '--name',
      'Ana',
      '--role',
      'admin',
    );
    expect(member.out).toMatch(/^Team member [0-9a-f-]{36} ana@example.com \(admin, pending\)$/);
    const memberId = /^Team member ([0-9a-f-]{36})/.exec(member.out)![1]!;
    expect((await run('member', 'list')).out).toBe(`${memberId}\tadmin\tpending\tana@example.com\tAna`);
    expect(await run('member', 'add', '--email', 'ana@example.com')).toMatchObject({ code: 4 });
    expect(await run('member', 'delete', '--member', memberId)).toMatchObject({ code: 0, out: 'Deleted' });
    expect((await run('member', 'list')).out).toBe('');
  });

  it('reports bad input with exit code 2 and unknown records with 3', async () => {
    expect(await run('account', 'create')).toMatchObject({ code: 2, err: '--name is required' });
    expect(await run('account', 'create', '--name', 'X', '--currency', 'xyz')).toMatchObject({
      code: 2,
      err: 'base currency "xyz" is not an ISO 4217 code',
    });
    expect(await run('key', 'create', '--name', 'k', '--access', 'owner')).toMatchObject({ code: 2 });
    expect(await run('member', 'add', '--email', 'not-an-email')).toMatchObject({
      code: 2,
      err: 'email "not-an-email" is not a valid email address',
    });
    expect(await run('member', 'add', '--email', 'bo@example.com', '--role', 'boss')).toMatchObject({
      code: 2,
    });
    expect(await run('key', 'list', '--account', 'nope')).toMatchObject({
      code: 3,
      err: 'Account nope not found',
    });
    expect(await run('key', 'regenerate', '--key', 'nope')).toMatchObject({ code: 3 });
    // With a second account in the store, --account becomes necessary.
    await run('account', 'create', '--name', 'Second');
    expect(await run('key', 'list')).toMatchObject({ code: 2, err: '--account is required' });
  });
});
