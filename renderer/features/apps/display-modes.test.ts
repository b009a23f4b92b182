import { describe, expect, it } from 'vitest';
import { negotiateDisplayMode } from './display-modes';

describe('negotiateDisplayMode', () => {
  it('grants a mode the app declared and Berth offers', () => {
    expect(negotiateDisplayMode('fullscreen', 'inline', ['inline', 'fullscreen'])).toBe('fullscreen');
    expect(negotiateDisplayMode('pip', 'fullscreen', ['pip'])).toBe('pip');
  });

  it('keeps the current mode for one the app did not declare, or declared nothing', () => {
    expect(negotiateDisplayMode('pip', 'inline', ['inline', 'fullscreen'])).toBe('inline');
    expect(negotiateDisplayMode('fullscreen', 'inline', undefined)).toBe('inline');
  });

  it('keeps the current mode for one the host does not offer here (a preview stays inline)', () => {
    expect(negotiateDisplayMode('fullscreen', 'inline', ['fullscreen'], ['inline'])).toBe('inline');
  });

  it('always allows going back inline, and ignores unknown modes', () => {
    expect(negotiateDisplayMode('inline', 'fullscreen', [])).toBe('inline');
    expect(negotiateDisplayMode('maximized', 'pip', ['pip'])).toBe('pip');
    expect(negotiateDisplayMode(42, 'inline', ['pip'])).toBe('inline');
  });
});
