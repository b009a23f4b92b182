import { describe, expect, it } from 'vitest';
import { busyAndIdle, topSelfTime, topTotalTime } from '../bench/cpu-profile';
import type { CpuProfile } from '../bench/cpu-profile';

const ROOT = '/repo/';
const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });

// (root) → send (app) → build (app) → sanitize (app); send → stringify (node_modules); plus idle and GC.
const PROFILE: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 6, 7] },
    { id: 2, callFrame: frame('send', 'file:///repo/app/chat/chat-engine.ts', 9), children: [3, 5] },
    { id: 3, callFrame: frame('build', 'file:///repo/app/chat/tool-names.ts', 79), children: [4] },
    { id: 4, callFrame: frame('sanitize', 'file:///repo/app/chat/tool-names.ts', 29) },
    { id: 5, callFrame: frame('stringify', 'file:///elsewhere/node_modules/sdk/index.js', 1) },
    { id: 6, callFrame: frame('(idle)') },
    { id: 7, callFrame: frame('(garbage collector)') },
  ],
  startTime: 10_000,
  // Each sample stands for the time since the one before it (µs): at 11,000, 12,000, 14,000, 15,000, 15,500, 65,500, 115,500, 116,000
  samples: [4, 4, 3, 5, 2, 6, 6, 7],
  timeDeltas: [1000, 1000, 2000, 1000, 500, 50_000, 50_000, 500],
};

describe('bench CPU profile summary', () => {
  it('ranks functions by their own time, leaving waiting out of the shares', () => {
    expect(topSelfTime(PROFILE, 10, ROOT)).toEqual([
      { where: 'sanitize (app/chat/tool-names.ts:30)', ms: 2, share: 2 / 6 },
      { where: 'build (app/chat/tool-names.ts:80)', ms: 2, share: 2 / 6 },
      { where: 'stringify (/elsewhere/node_modules/sdk/index.js:2)', ms: 1, share: 1 / 6 },
      { where: 'send (app/chat/chat-engine.ts:10)', ms: 0.5, share: 0.5 / 6 },
      { where: '(garbage collector)', ms: 0.5, share: 0.5 / 6 },
    ]);
    expect(topSelfTime(PROFILE, 1, ROOT)).toHaveLength(1);
  });

  it('gives Berth functions their callees’ time too, and nothing outside the repository', () => {
    expect(topTotalTime(PROFILE, 10, ROOT)).toEqual([
      { where: 'send (app/chat/chat-engine.ts:10)', ms: 5.5, share: 5.5 / 6 },
      { where: 'build (app/chat/tool-names.ts:80)', ms: 4, share: 4 / 6 },
      { where: 'sanitize (app/chat/tool-names.ts:30)', ms: 2, share: 2 / 6 },
    ]);
  });

  it('counts only the samples within the given spans, and tells running from waiting', () => {
    // 11,500–14,000: the samples at 12,000 (sanitize, 1 ms) and 14,000 (build, 2 ms).
    expect(topSelfTime(PROFILE, 10, ROOT, [[11_500, 14_000]])).toEqual([
      { where: 'build (app/chat/tool-names.ts:80)', ms: 2, share: 2 / 3 },
      { where: 'sanitize (app/chat/tool-names.ts:30)', ms: 1, share: 1 / 3 },
    ]);
    expect(topTotalTime(PROFILE, 10, ROOT, [[11_500, 14_000]])).toEqual([
      { where: 'build (app/chat/tool-names.ts:80)', ms: 3, share: 1 },
      { where: 'send (app/chat/chat-engine.ts:10)', ms: 3, share: 1 },
      { where: 'sanitize (app/chat/tool-names.ts:30)', ms: 1, share: 1 / 3 },
    ]);
    expect(busyAndIdle(PROFILE, [[14_500, 70_000]])).toEqual({ busyMs: 1.5, idleMs: 50 });
    expect(busyAndIdle(PROFILE)).toEqual({ busyMs: 6, idleMs: 100 });
  });
});
