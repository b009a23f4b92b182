// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { serverState } from '../../test-support/fake-transport';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { Sidebar } from '../shell/sidebar';

afterEach(cleanup);

describe('the protocol date on a ready server', () => {
  it('says it is the MCP protocol version the server speaks, in its tooltip and to screen readers', () => {
    renderWithBerth(<Sidebar />, {
      prepare: (store) =>
        store
          .getState()
          .applyServersSnapshot([serverState('alpha', { status: 'ready', protocolVersion: '2025-11-25' })]),
    });
    const meaning = 'Speaks MCP protocol version 2025-11-25 (the revision of the specification, named by its date)';
    const button = screen.getByRole('button', { name: /^alpha/ });
    expect(button.textContent).toContain(meaning);
    expect(button.querySelector('.version-chip')?.getAttribute('title')).toBe(meaning);
  });
});
