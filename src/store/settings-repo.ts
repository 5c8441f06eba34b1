import type { Queryable } from './db.js';

export function settingsRepo(db: Queryable) {
  return {
    /** The stored overrides, locked against a concurrent read-modify-write when asked. */
    async notifications(accountId: string, options: { forUpdate?: boolean } = {}): Promise<unknown> {
      await db.query('insert into account_settings (account_id) values ($1) on conflict do nothing', [
        accountId,
      ]);
      const [row] = await db.query<{ notifications: unknown }>(
        `select notifications from account_settings where account_id = $1${options.forUpdate ? ' for update' : ''}`,
        [accountId],
      );
      return row?.notifications ?? {};
    },

    async saveNotifications(accountId: string, notifications: unknown): Promise<void> {
      await db.query('update account_settings set notifications = $2::jsonb where account_id = $1', [
        accountId,
        JSON.stringify(notifications),
      ]);
    },
  };
}
