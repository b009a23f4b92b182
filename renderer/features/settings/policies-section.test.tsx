// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ConsentPoliciesSection } from './policies-section';
import { renderWithBerth } from '../../test-support/render-with-berth';

afterEach(cleanup);

describe('<ConsentPoliciesSection>: stale permissions', () => {
  it('marks each permission that no longer applies, says why, and the others as in effect', () => {
    renderWithBerth(<ConsentPoliciesSection />, {
      prepare: (store) =>
        store.getState().applyConsentPolicies([
          { id: 'a', scope: 'server', server: 'files', createdAt: 1, stale: 'server-changed' },
          { id: 'b', scope: 'tool', server: 'notes', tool: 'read_note', createdAt: 2, stale: 'tool-changed' },
          { id: 'c', scope: 'tool', server: 'notes', tool: 'list', createdAt: 3, stale: 'unrecorded' },
          { id: 'd', scope: 'tool', server: 'notes', tool: 'search', createdAt: 4 },
        ]),
    });
    const table = screen.getByRole('table', { name: 'Tool permissions' });
    const state = (id: string) => {
      const row = table.querySelector(`tr[data-policy="${id}"]`);
      if (!(row instanceof HTMLElement)) throw new Error(`no row for ${id}`);
      return within(row).getAllByRole('cell')[4]?.textContent;
    };
    expect(within(table).getByRole('columnheader', { name: 'State' })).toBeTruthy();
    expect(state('a')).toMatch(/^Server changed — This server’s command or address is not the one you allowed/);
    expect(state('b')).toMatch(
      /^Tool changed — The server changed this tool’s description, input schema or annotations/,
    );
    expect(state('c')).toMatch(/^Needs a new yes — Given in an earlier version of Berth/);
    expect(state('d')).toBe('In effect');
  });
});
