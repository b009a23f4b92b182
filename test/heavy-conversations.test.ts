import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationStore } from '../app/chat/conversation-store';
import { generateConversations } from '../bench/generators/conversations';

describe('a generated heavy-user config dir', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-heavy-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('holds valid private conversation files; the first start builds the index, the next one uses it', async () => {
    const generated = await generateConversations(dir, { count: 1_000, now: 1_800_000_000_000 });
    const files = (await readdir(join(dir, 'conversations'))).filter((name) => name.endsWith('.json'));
    expect(files).toHaveLength(1_000);
    expect((await stat(join(dir, 'conversations', files[0]!))).mode & 0o777).toBe(0o600);

    const notices: string[] = [];
    const problems: string[] = [];
    const first = await ConversationStore.open({
      dir,
      onNotice: (message) => notices.push(message),
      onProblem: (problem) => problems.push(problem.message),
    });
    expect(problems).toEqual([]);
    expect(first.list().map((summary) => summary.title)).toEqual(generated.titles);
    expect(first.list()[0]).toMatchObject({ id: generated.ids[0], messageCount: 4 });
    expect(notices).toEqual([expect.stringContaining('Rebuilt the conversations index from 1000 files')]);
    await first.flushIndex();

    notices.length = 0;
    const second = await ConversationStore.open({ dir, onNotice: (message) => notices.push(message) });
    expect(notices).toEqual([]);
    expect(second.list()).toEqual(first.list());
  });
});
