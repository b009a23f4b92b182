import { describe, expect, it } from 'vitest';
import type { ServerState } from '../../shared/domain/server';
import { SKILLS_EXTENSION_ID } from '../../shared/domain/skills-extension';
import { SkillCatalogService, type SkillServers } from './skill-catalog';

/** A ready server whose skills/list answers only when the test says. */
function slowServer() {
  const answers: Array<() => void> = [];
  const state = {
    name: 'docs',
    status: 'ready',
    readySince: 1,
    capabilities: { extensions: { [SKILLS_EXTENSION_ID]: {} } },
  } as unknown as ServerState;
  const servers: SkillServers = {
    get: (name) => (name === 'docs' ? state : undefined),
    list: () => [state],
    request: <T>() => new Promise<T>((resolve) => answers.push(() => resolve({ skills: [] } as T))),
  };
  return { servers, answer: () => answers.shift()?.() };
}

describe('SkillCatalogService.listed', () => {
  it('waits for the listing under way (and one begun meanwhile), so a load never acts on the entry being replaced', async () => {
    const { servers, answer } = slowServer();
    const catalog = new SkillCatalogService(servers, () => undefined);
    await catalog.listed('docs'); // nothing under way: at once
    void catalog.refresh('docs');
    let done = false;
    const waiting = catalog.listed('docs').then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(done).toBe(false);
    void catalog.refresh('docs'); // the server said its skills changed again
    answer();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(done).toBe(false);
    answer();
    await waiting;
    expect(done).toBe(true);
  });
});
