// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageLine, usageSummary } from './usage-line';
import { renderWithBerth } from '../../test-support/render-with-berth';

afterEach(cleanup);

describe('usage line: what tool search saved', () => {
  it('says how many definition tokens tool search kept out, in the line and the details', async () => {
    const usage = {
      inputTokens: 1_500,
      outputTokens: 40,
      toolTokensEstimate: 700,
      toolTokensFullEstimate: 120_700,
      requests: 3,
    };
    expect(usageSummary(usage)).toBe('1,500 in · 40 out · tools ≈ 700 of the input · tool search saved ≈ 120,000');
    renderWithBerth(<UsageLine usage={usage} />);
    // The details load with the first opening.
    expect(screen.queryByText('Tool search')).toBeNull();
    fireEvent.click(screen.getByText(usageSummary(usage)));
    expect(await screen.findByText('Tool search')).toBeTruthy();
    expect(
      screen.getByText(/saved ≈ 120,000 tokens: every enabled tool’s definitions would have been ≈ 120,700/),
    ).toBeTruthy();
  });

  it('says nothing about tool search when it was not on', () => {
    expect(usageSummary({ inputTokens: 10, outputTokens: 1, toolTokensEstimate: 5 })).toBe(
      '10 in · 1 out · tools ≈ 5 of the input',
    );
  });
});
