import { describe, expect, it } from 'vitest';
import { listedCapabilities, type LooseCapabilities } from './anthropic-capabilities';

const yes = { supported: true };
const no = { supported: false };
const efforts = { supported: true, low: yes, medium: yes, high: yes, max: yes, xhigh: null };

describe("Anthropic's listed capabilities", () => {
  it('adaptive thinking with the three effort levels is the adaptive control', () => {
    const caps: LooseCapabilities = {
      thinking: { supported: true, types: { adaptive: yes, enabled: no } },
      effort: efforts,
    };
    expect(listedCapabilities(caps)).toEqual({ reasoning: 'adaptive' });
  });

  it('extended thinking alone (or adaptive without efforts) is a budget', () => {
    const budget = {
      thinking: { supported: true, types: { adaptive: yes, enabled: yes } },
      effort: { supported: false },
    };
    expect(listedCapabilities(budget)).toEqual({ reasoning: 'budget' });
  });

  it('a model listed without thinking gets none, whatever its id', () => {
    expect(listedCapabilities({ thinking: { supported: false, types: { adaptive: no, enabled: no } } })).toEqual({
      reasoning: 'none',
    });
    expect(listedCapabilities({ thinking: { supported: true, types: { adaptive: yes, enabled: no } } })).toEqual({
      reasoning: 'none',
    });
  });

  it('server-side compaction only when the strategy itself is supported', () => {
    expect(listedCapabilities({ context_management: { supported: true, compact_20260112: yes } })).toEqual({
      contextManagement: true,
    });
    expect(listedCapabilities({ context_management: { supported: true, compact_20260112: null } })).toEqual({
      contextManagement: false,
    });
  });

  it('says nothing where the listing said nothing (an older API or a proxy): the table decides', () => {
    expect(listedCapabilities(null)).toEqual({});
    expect(listedCapabilities({})).toEqual({});
  });
});
