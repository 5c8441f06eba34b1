import type { Session } from '../session.js';

/** Whether the member may change settings: owners and admins, as for API keys and the team. */
export function canChange(session: Session): boolean {
  return session.access_level === 'admin';
}

/** A settings page the member's role may not see at all: the API refuses it too. */
export function Refused({ what }: { what: string }) {
  return (
    <main>
      <h1>{what[0]!.toUpperCase() + what.slice(1)}</h1>
      <p class="empty">Only the owner and admins manage {what}. Your role can read the dashboard.</p>
    </main>
  );
}

/** Said above a page the member sees but may not change: its controls are disabled. */
export function ReadOnlyNote({ session }: { session: Session }) {
  return canChange(session) ? null : (
    <p class="hint" role="note" data-readonly>
      You are signed in as a readonly member: you see these settings, only the owner and admins can change
      them.
    </p>
  );
}
