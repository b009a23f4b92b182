import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import { cleanEnv, newConversation, TEST_API_KEY, turnEndAfter } from './host-chat-support';
import { startHost, type HostHarness } from './host-harness';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe("a chat turn when Anthropic's base URL holds a password", () => {
  it('fails with the refusal’s code beside its English, and nothing reaches the API', async () => {
    const fake = await FakeAnthropic.start({ apiKey: TEST_API_KEY });
    const dir = await mkdtemp(join(tmpdir(), 'berth-base-url-'));
    const env = cleanEnv({
      ANTHROPIC_API_KEY: TEST_API_KEY,
      ANTHROPIC_BASE_URL: fake.url.replace('http://', 'http://me:hunter2@'),
    });
    const harness: HostHarness = await startHost(dir, { env });
    cleanup = async () => {
      await harness.host.shutdown();
      await fake.close();
      await rm(dir, { recursive: true, force: true });
    };
    const conversation = await newConversation(harness);
    const mark = harness.events.length;
    await harness.call('chat.send', { id: conversation.id, text: 'hello?' });
    expect(await turnEndAfter(harness, mark, conversation.id)).toMatchObject({
      type: 'turn-failed',
      message: expect.stringContaining(
        "Anthropic's base URL (ANTHROPIC_BASE_URL or settings.json baseURL) is not used",
      ),
      hostMessage: { code: 'provider-errors.anthropic-base-url-credentials' },
    });
    expect(fake.requests).toEqual([]);
  });
});
