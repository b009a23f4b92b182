import { isTopicName, topics, type TopicName, type TopicPayload } from '../../shared/contract';

/** What checking one host event against its topic's schema found. */
export type TopicCheck<T extends TopicName> = { ok: true; payload: TopicPayload<T> } | { ok: false; problem: string };

/**
 * Checks a host event against its topic's zod schema. This module (and with it zod and
 * every contract schema) is loaded on demand by ./validated-events.ts, so the first
 * screen's JavaScript does not carry it.
 */
export function checkTopicPayload<T extends TopicName>(topic: T, payload: unknown): TopicCheck<T> {
  // The problem goes to the console, for developers (validated-events.ts).
  // eslint-disable-next-line lingui/no-unlocalized-strings -- a developer's log line
  if (!isTopicName(topic)) return { ok: false, problem: 'no such topic in this version of Berth' };
  const parsed = topics[topic].safeParse(payload);
  if (parsed.success) return { ok: true, payload: parsed.data as TopicPayload<T> };
  return {
    ok: false,
    problem: parsed.error.issues.map((issue) => `${issue.path.join('.') || '(payload)'}: ${issue.message}`).join('; '),
  };
}
