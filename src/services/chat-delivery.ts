import { slackPayload, teamsPayload } from '../engine/notifications/chat-message.js';
import { FinalJobError } from '../jobs/job-queue.js';
import { BlockedTargetError, type OutboundPolicy, outboundRequest } from './outbound-http.js';
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

/** How much of a refusing chat system's answer is quoted in the error. */
const ANSWER_EXCERPT = 200;

/**
 * Posts one message to a chat system's incoming webhook, under the outbound policy; anything
 * but a 2xx answer throws. A refused target throws a FinalJobError: no retry would get through.
 */
export async function postToChat(
  settings: NotificationSettings,
  system: ChatSystem,
  text: string,
  policy: OutboundPolicy,
): Promise<void> {
  const url = chatUrl(settings, system);
  // The URL was removed since the message was queued: there is nowhere to post it.
  if (url === '') return;
  const body = system === 'slack' ? slackPayload(text, settings.chat.channel) : teamsPayload(text);
  const response = await outboundRequest(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    timeoutMs: CHAT_TIMEOUT_MS,
    policy,
  }).catch((error: unknown) => {
    throw error instanceof BlockedTargetError
      ? new FinalJobError(`${system} webhook refused: ${error.message}`)
      : error;
  });
  // Read the body either way, so the connection is released.
  const answer = (await response.read(ANSWER_EXCERPT)).bytes.toString('utf8');
  if (response.status < 200 || response.status >= 300)
    throw new Error(`${system} webhook answered ${response.status}: ${answer}`);
}
