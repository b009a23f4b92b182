import { describe, expect, it } from 'vitest';
import type { PromptInfo } from '../../../shared/contract/prompts';
import { moveHighlight } from '../../ui/use-combobox-menu';
import { filterPrompts, promptLabel, slashQuery } from './slash-model';

const prompt = (server: string, name: string, extra: Partial<PromptInfo> = {}): PromptInfo => ({
  server,
  name,
  arguments: [],
  ...extra,
});
const CATALOG = [
  prompt('everything', 'simple-prompt', { title: 'Simple Prompt', description: 'A prompt with no arguments' }),
  prompt('everything', 'args-prompt', {
    title: 'Arguments Prompt',
    description: 'A prompt with two arguments, one required and one optional',
  }),
  prompt('everything', 'completable-prompt', {
    title: 'Team Management',
    description: 'First argument choice narrows values for second argument.',
  }),
  prompt('github', 'review', { description: 'Review a pull request' }),
];

describe('slashQuery', () => {
  it('is the text after a leading slash on one line', () => {
    expect(slashQuery('/')).toBe('');
    expect(slashQuery('/team m')).toBe('team m');
    expect(slashQuery('hello /team')).toBeUndefined();
    expect(slashQuery('/team\nmore')).toBeUndefined();
    expect(slashQuery(`/${'x'.repeat(81)}`)).toBeUndefined();
  });
});

describe('filterPrompts', () => {
  const names = (query: string) => filterPrompts(CATALOG, query).map((p) => p.name);

  it('shows everything for an empty query, in catalog order', () => {
    expect(names('')).toEqual(['simple-prompt', 'args-prompt', 'completable-prompt', 'review']);
  });
  it('ranks name and title prefixes above word starts, servers and descriptions', () => {
    expect(names('team')).toEqual(['completable-prompt']);
    expect(names('prompt')).toEqual(['simple-prompt', 'args-prompt', 'completable-prompt']);
    expect(names('arg')).toEqual(['args-prompt', 'simple-prompt', 'completable-prompt']);
    expect(names('git')).toEqual(['review']);
    expect(names('pull')).toEqual(['review']);
  });
  it('needs every word to match, ignoring case', () => {
    expect(names('EVERYTHING simple')).toEqual(['simple-prompt']);
    expect(names('everything review')).toEqual([]);
  });
});

describe('moveHighlight and promptLabel', () => {
  it('wraps around and starts at the ends', () => {
    expect(moveHighlight(0, -1, 3)).toBe(2);
    expect(moveHighlight(2, 1, 3)).toBe(0);
    expect(moveHighlight(-1, 1, 3)).toBe(0);
    expect(moveHighlight(-1, -1, 3)).toBe(2);
    expect(moveHighlight(0, 1, 0)).toBe(-1);
  });
  it('prefers the title', () => {
    expect(promptLabel({ name: 'x', title: 'X marks' })).toBe('X marks');
    expect(promptLabel({ name: 'x', title: ' ' })).toBe('x');
  });
});
