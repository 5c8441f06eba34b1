import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { storeLocation } from '../config.js';
import type { IssuedApiKey } from '../services/api-keys-service.js';
import { systemClock } from '../services/clock.js';
import { ConflictError, InvalidInputError, NotFoundError, StoreBusyError } from '../services/errors.js';
import { createServices, type Services } from '../services/index.js';
import { openStore } from '../store/open-store.js';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  env: NodeJS.ProcessEnv;
}

const USAGE = `Usage: mrrlytics <command> [options]

Accounts
  account create --name <name> [--currency <code>]   new account and its first admin key
  account list
API keys (--account may be left out when the store holds one account)
  key create --name <name> [--access admin|viewer] [--account <id>]
  key list [--account <id>]
  key regenerate --key <id> [--account <id>]          new secret, the old one stops working
  key delete --key <id> [--account <id>]
Team members
  member add --email <email> [--name <name>] [--role owner|admin|readonly] [--account <id>]
  member list [--account <id>]
  member delete --member <id> [--account <id>]
Exchange rates (the ECB history ships with mrrlytics; a running server sees loads within a minute)
  fx load <path-to-csv-or-zip>                       add or correct rates from an ECB rate file
  fx status                                          currencies, days covered, rates loaded

The store is the service's: DATABASE_URL, else PGlite under DATA_DIR (default ./data).`;

const OPTIONS = {
  name: { type: 'string' },
  currency: { type: 'string' },
  account: { type: 'string' },
  access: { type: 'string' },
  key: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  member: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Options = {
  [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'string' ? string : boolean;
};

/** Commands that take operands after their two words, with their usage; the others take none. */
const OPERANDS: Record<string, { count: number; usage: string }> = {
  'fx load': { count: 1, usage: 'fx load <path-to-csv-or-zip>' },
};

function parseCommand(positionals: string[]): { command: string; operands: string[] } {
  const command = positionals.slice(0, 2).join(' ');
  const operands = positionals.slice(2);
  const expected = OPERANDS[command];
  if (operands.length === (expected?.count ?? 0)) return { command, operands };
  throw new InvalidInputError(
    expected
      ? `Usage: mrrlytics ${expected.usage}`
      : `Unknown command "${positionals.join(' ')}"\n\n${USAGE}`,
  );
}

function readInput(path: string): Uint8Array {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new InvalidInputError(`Cannot read "${path}": ${(error as Error).message}`);
  }
}

function required(options: Options, name: keyof Options): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '') throw new InvalidInputError(`--${name} is required`);
  return value;
}

async function accountId(services: Services, options: Options): Promise<string> {
  if (options.account) return (await services.accounts.profile(options.account)).id;
  const accounts = await services.accounts.list();
  if (accounts.length === 1) return accounts[0]!.id;
  throw new InvalidInputError(
    accounts.length === 0
      ? 'The store holds no account yet: run "account create" first'
      : '--account is required',
  );
}

function printKey(io: CliIo, key: IssuedApiKey): void {
  io.out(`API key ${key.id} (${key.access_level}, "${key.name}"). The secret is shown only this once:`);
  io.out(`  ${key.key}`);
}

async function execute(
  services: Services,
  { command, operands }: { command: string; operands: string[] },
  options: Options,
  io: CliIo,
): Promise<void> {
  switch (command) {
    case 'account create': {
      const created = await services.accounts.create({
        name: required(options, 'name'),
        baseCurrency: options.currency,
      });
      io.out(`Account ${created.account.id} "${created.account.name}" (${created.account.base_currency})`);
      return printKey(io, created.adminKey);
    }
    case 'account list':
      for (const account of await services.accounts.list()) {
        io.out(`${account.id}\t${account.base_currency}\t${account.name}`);
      }
      return;
    case 'key create': {
      const access = options.access ?? 'admin';
      if (access !== 'admin' && access !== 'viewer')
        throw new InvalidInputError('--access must be admin or viewer');
      const key = await services.apiKeys.create(await accountId(services, options), {
        name: required(options, 'name'),
        accessLevel: access,
      });
      return printKey(io, key);
    }
    case 'key list':
      for (const key of await services.apiKeys.list(await accountId(services, options))) {
        io.out(`${key.id}\t${key.access_level}\t${key.last_used ?? 'never used'}\t${key.name}`);
      }
      return;
    case 'key regenerate':
      return printKey(
        io,
        await services.apiKeys.regenerate(await accountId(services, options), required(options, 'key')),
      );
    case 'key delete':
      await services.apiKeys.delete(await accountId(services, options), required(options, 'key'));
      return io.out('Deleted');
    case 'member add': {
      const member = await services.team.add(await accountId(services, options), {
        email: required(options, 'email'),
        name: options.name,
        role: options.role ?? 'readonly',
      });
      return io.out(`Team member ${member.id} ${member.email} (${member.role}, ${member.status})`);
    }
    case 'member list':
      for (const member of await services.team.list(await accountId(services, options))) {
        io.out(`${member.id}\t${member.role}\t${member.status}\t${member.email}\t${member.name}`);
      }
      return;
    case 'member delete':
      await services.team.delete(await accountId(services, options), required(options, 'member'));
      return io.out('Deleted');
    case 'fx load': {
      const loaded = await services.fx.load(readInput(operands[0]!));
      return io.out(
        `Loaded ${loaded.rates} rates (${loaded.written} new or changed) for ${loaded.currencies.length} ` +
          `currencies over ${loaded.days} day${loaded.days === 1 ? '' : 's'}, ${loaded.firstDay} to ${loaded.lastDay}`,
      );
    }
    case 'fx status': {
      const status = await services.fx.status();
      io.out(
        `Rates from ${status.firstDay} to ${status.lastDay} for ${status.currencies.length} currencies:`,
      );
      io.out(`  ${status.currencies.join(' ')}`);
      const { loaded } = status;
      return io.out(
        loaded.rates === 0
          ? 'Loaded after install: none, the shipped ECB history only'
          : `Loaded after install: ${loaded.rates} rates, ${loaded.firstDay} to ${loaded.lastDay}`,
      );
    }
    default:
      throw new InvalidInputError(`Unknown command "${command}"\n\n${USAGE}`);
  }
}

const EXIT_CODES: [new (...args: never[]) => Error, number][] = [
  [InvalidInputError, 2],
  [NotFoundError, 3],
  [ConflictError, 4],
  [StoreBusyError, 5],
];

/** Runs one CLI command against the configured store; returns the process exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help || parsed.positionals.length === 0) {
    io.out(USAGE);
    return 0;
  }
  try {
    const command = parseCommand(parsed.positionals);
    const store = await openStore(storeLocation(io.env));
    try {
      await execute(createServices(store, systemClock), command, parsed.values, io);
    } finally {
      await store.close();
    }
    return 0;
  } catch (error) {
    const code = EXIT_CODES.find(([type]) => error instanceof type)?.[1];
    if (code === undefined) throw error;
    io.err((error as Error).message);
    return code;
  }
}
