import { describe, expect, it } from 'vitest';
import { expectedTools } from './skill-entry';

describe('allowed-tools, shown as what a skill expects', () => {
  it('reads the space-delimited string (or a YAML list) as the server wrote each name', () => {
    expect(expectedTools({ 'allowed-tools': 'get_forecast  Bash(git:*)\nRead, Grep' })).toEqual([
      'get_forecast',
      'Bash(git:*)',
      'Read',
      'Grep',
    ]);
    expect(expectedTools({ 'allowed-tools': ['<b>x</b>', 3, ' Write '] })).toEqual(['<b>x</b>', 'Write']);
    expect(expectedTools({ name: 'a', description: 'b' })).toEqual([]);
    expect(expectedTools({ 'allowed-tools': { all: true } })).toEqual([]);
  });

  it('keeps a long list and long names within what a dialog can show', () => {
    const many = expectedTools({ 'allowed-tools': Array.from({ length: 60 }, (_, i) => `tool_${i}`).join(' ') });
    expect(many).toHaveLength(51);
    expect(many.at(-1)).toBe('… and 10 more');
    const [long] = expectedTools({ 'allowed-tools': 'x'.repeat(500) });
    expect(long).toHaveLength(120);
    expect(long?.endsWith('…')).toBe(true);
  });
});
