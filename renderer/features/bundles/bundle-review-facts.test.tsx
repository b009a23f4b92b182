// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { BundleReview } from '../../../shared/contract/bundles';
import { BundleReviewFacts } from './bundle-review-facts';

const review = (args: string[]): BundleReview => ({
  name: 'weather',
  command: 'node',
  args,
  env: {},
  secretEnvKeys: [],
  installPath: '/home/ann/.config/berth/bundles/weather/1.0.0',
  resolvedCommand: '/usr/bin/node',
  runtime: { ok: true, message: 'Node.js 20 is installed' },
  warnings: [],
  problems: [],
});

afterEach(cleanup);

describe('BundleReviewFacts', () => {
  it('shows each argument a shell would split or expand in single quotes, as the import and install reviews do', () => {
    render(
      <BundleReviewFacts review={review(['server/index.js', '$(curl evil.example)', 'a b', '`id`', 'C:\\x', ''])} />,
    );
    const line = document.querySelector('.import-command-line')?.textContent;
    expect(line).toBe("node server/index.js '$(curl evil.example)' 'a b' '`id`' 'C:\\x' ''");
    expect(screen.getByText('/usr/bin/node')).toBeTruthy();
  });
});
