// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageLine, usageSummary } from './usage-line';
import { renderWithBerth } from '../../test-support/render-with-berth';

afterEach(cleanup);

describe('usage line: reasoning tokens', () => {
  it('says how much of the output was thinking, in the line and the details', async () => {
    const usage = { inputTokens: 900, outputTokens: 1_400, reasoningTokens: 1_150 };
    expect(usageSummary(usage)).toBe('900 in · 1,400 out · 1,150 of it thinking');
    renderWithBerth(<UsageLine usage={usage} />);
    fireEvent.click(screen.getByText(usageSummary(usage)));
    expect(await screen.findByText('Reasoning')).toBeTruthy();
    expect(screen.getByText(/1,150 of the output tokens: the model’s thinking, billed as output/)).toBeTruthy();
  });

  it('says nothing of thinking when the provider reported none', () => {
    expect(usageSummary({ inputTokens: 10, outputTokens: 1 })).toBe('10 in · 1 out');
  });
});
