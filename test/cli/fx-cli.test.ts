import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { createTestLocation, STORE_KINDS, type TestLocation } from '../helpers/stores.js';

describe.each(STORE_KINDS)('mrrlytics fx on %s', (kind) => {
  let location: TestLocation;
  let files: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    location = await createTestLocation(kind);
    files = mkdtempSync(join(tmpdir(), 'mrrlytics-fx-'));
    env =
      'databaseUrl' in location.location
        ? { DATABASE_URL: location.location.databaseUrl }
        : { DATA_DIR: location.location.dataDir };
  });
  afterAll(async () => {
    rmSync(files, { recursive: true, force: true });
    await location.drop();
  });

  async function run(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, { out: (line) => out.push(line), err: (line) => err.push(line), env });
    return { code, out, err };
  }

  it('reports the shipped history before anything is loaded', async () => {
    const { code, out } = await run('fx', 'status');
    expect(code).toBe(0);
    expect(out[0]).toMatch(/^Rates from 1999-01-04 to 2026-04-13 for \d+ currencies:$/);
    expect(out[1]).toContain(' usd ');
    expect(out[2]).toBe('Loaded after install: none, the shipped ECB history only');
  });

  it('loads a newer ECB file, which a later command sees', async () => {
    const path = join(files, 'eurofxref.csv');
    writeFileSync(path, 'Date, USD, GBP, \n14 April 2026, 1.1702, 0.8712, \n');
    expect(await run('fx', 'load', path)).toEqual({
      code: 0,
      out: ['Loaded 2 rates (2 new or changed) for 2 currencies over 1 day, 2026-04-14 to 2026-04-14'],
      err: [],
    });
    const { out } = await run('fx', 'status');
    expect(out[0]).toMatch(/^Rates from 1999-01-04 to 2026-04-14 /);
    expect(out[2]).toBe('Loaded after install: 2 rates, 2026-04-14 to 2026-04-14');
  });

  it('exits 2 with a clear message on a bad file, a missing file or a missing path', async () => {
    const bad = join(files, 'bad.csv');
    writeFileSync(bad, 'Date,USD\n2026-04-15,1.17\n2026-04-16,N.A.\n');
    expect(await run('fx', 'load', bad)).toMatchObject({
      code: 2,
      err: ['Not an ECB rate file: Line 3: "N.A." in USD is not a positive rate'],
    });
    const missing = await run('fx', 'load', join(files, 'nope.zip'));
    expect(missing.code).toBe(2);
    expect(missing.err[0]).toMatch(/^Cannot read ".*nope\.zip": ENOENT/);
    expect(await run('fx', 'load')).toMatchObject({
      code: 2,
      err: ['Usage: mrrlytics fx load <path-to-csv-or-zip>'],
    });
    expect((await run('fx', 'status', 'extra')).err[0]).toMatch(/^Unknown command "fx status extra"/);
  });
});
