import { slackPayload, teamsPayload } from '../engine/notifications/chat-message.js';
import type { NotificationSettings } from './settings-service.js';

export const CHAT_SYSTEMS = ['slack', 'teams'] as const;
export type ChatSystem = (typeof CHAT_SYSTEMS)[number];

/** A chat system answering this slowly is treated as failed, so the job retries later. */
const CHAT_TIMEOUT_MS = 5000;

/** The webhook URL of a chat system in the settings, '' when none is set. */
export function chatUrl(settings: NotificationSettings, system: ChatSystem): string {
  return settings.chat[`${system}_webhook_url`];
}

/** The chat systems a message goes to: chat on, and a webhook URL set. */
export function chatTargets(settings: NotificationSettings): ChatSystem[] {
  if (!settings.chat.enabled) return [];
  return CHAT_SYSTEMS.filter((system) => chatUrl(settings, system) !== '');
}

/** Posts one message to a chat system's incoming webhook; anything but a 2xx answer throws. */
export async function postToChat(
  settings: NotificationSettings,
  system: ChatSystem,
  text: string,
): Promise<void> {
  const url = chatUrl(settings, system);
  // The URL was removed since the message was queued: there is nowhere to post it.
  if (url === '') return;
  const body = system === 'slack' ? slackPayload(text, settings.chat.channel) : teamsPayload(text);
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(CHAT_TIMEOUT_MS),
  });
  // Read the body either way, so the connection is released.
  const answer = await response.text();
  if (!response.ok) throw new Error(`${system} webhook answered ${response.status}: ${answer.slice(0, 200)}`);
}
