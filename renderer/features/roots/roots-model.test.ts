import { describe, expect, it } from 'vitest';
import type { RootsView } from '../../../shared/contract/roots';
import {
  asSentence,
  consentState,
  exposureOf,
  exposureSummary,
  hasAnswers,
  seesRoot,
  toggleExposure,
} from './roots-model';

const view: RootsView = {
  roots: [],
  exposure: { git: ['a'] },
  consent: { fs: { allowed: ['a'], denied: ['b'] }, git: { allowed: [], denied: [] } },
};

describe('roots model', () => {
  it('defaults a server to every root', () => {
    expect(exposureOf(view, 'fs')).toBe('all');
    expect(exposureOf(view, 'git')).toEqual(['a']);
    expect(seesRoot('all', 'z')).toBe(true);
    expect(seesRoot(['a'], 'b')).toBe(false);
  });

  it('reads the answers per root', () => {
    expect(consentState(view, 'fs', 'a')).toBe('allowed');
    expect(consentState(view, 'fs', 'b')).toBe('denied');
    expect(consentState(view, 'fs', 'c')).toBe('not-asked');
    expect(consentState(view, 'other', 'a')).toBe('not-asked');
    expect(hasAnswers(view, 'fs')).toBe(true);
    expect(hasAnswers(view, 'git')).toBe(false);
  });

  it('turns "all" into an explicit list when one root is unchecked', () => {
    expect(toggleExposure('all', ['a', 'b', 'c'], 'b', false)).toEqual(['a', 'c']);
    expect(toggleExposure(['a'], ['a', 'b'], 'b', true)).toEqual(['a', 'b']);
    expect(toggleExposure(['a'], ['a', 'b'], 'a', true)).toEqual(['a']);
    // Ids of removed roots are dropped rather than kept forever.
    expect(toggleExposure(['gone', 'a'], ['a', 'b'], 'b', true)).toEqual(['a', 'b']);
  });

  it('summarizes access in words', () => {
    expect(exposureSummary('all', 3)).toBe('Sees all 3 roots (and any added later)');
    expect(exposureSummary([], 3)).toBe('Sees no roots');
    expect(exposureSummary(['a'], 3)).toBe('Sees 1 of 3 roots');
  });

  it('turns a problem into a sentence', () => {
    expect(asSentence('the folder /a does not exist')).toBe('The folder /a does not exist.');
    expect(asSentence('Permission denied.')).toBe('Permission denied.');
    expect(asSentence('文件夹 /a 不存在。')).toBe('文件夹 /a 不存在。');
  });
});
