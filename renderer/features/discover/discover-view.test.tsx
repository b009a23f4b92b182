// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { MethodOutput } from '../../../shared/contract';
import type { RegistryEntry } from '../../../shared/contract/registry';
import { fail, ok, type Result } from '../../../shared/result';
import { registryError } from '../../../shared/domain/registry-errors';
import { createFakeTransport, type FakeHandlers } from '../../test-support/fake-transport';
import { DiscoverView } from './discover-view';
import { suggestedName } from './install-dialog';
import { ageText } from './use-registry-search';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { activateLocale } from '../../i18n/i18n';

afterEach(cleanup);

const REGISTRY = 'https://registry.example.com';
const entry = (name: string, title: string): RegistryEntry => ({
  name,
  title,
  description: `${title} server`,
  version: '1.0.0',
  status: 'active',
  kinds: ['npm'],
});
const page = (
  servers: RegistryEntry[],
  extra: Partial<MethodOutput<'registry.search'>> = {},
): Result<MethodOutput<'registry.search'>> =>
  ok({ servers, skipped: 0, fetchedAt: Date.now(), fromCache: false, ...extra });

function mount(search: FakeHandlers['registry.search']) {
  const transport = createFakeTransport({
    'registry.sources': () => ok({ registries: [REGISTRY] }),
    'registry.updates': () => ok({ updates: [], problems: [] }),
    'registry.search': search,
  });
  renderWithBerth(<DiscoverView />, { transport });
  return transport;
}

const searches = (transport: ReturnType<typeof createFakeTransport>) =>
  transport.calls
    .filter((call) => call.method === 'registry.search')
    .map((call) => (call.input as { query: string }).query);
const listed = () =>
  within(screen.getByRole('list', { name: 'Servers' }))
    .getAllByRole('button')
    .map((button) => button.querySelector('.discover-item-title')?.textContent);

describe('DiscoverView', () => {
  it('searches once typing pauses, not on every key', async () => {
    const transport = mount((input) => page([entry(`io.x/${input.query ?? ''}`, `Result for ${input.query ?? ''}`)]));
    const box = await screen.findByRole('searchbox', { name: 'Search servers' });
    await waitFor(() => expect(searches(transport)).toEqual(['']));
    for (const text of ['w', 'we', 'wea', 'weat']) fireEvent.change(box, { target: { value: text } });
    await waitFor(() => expect(listed()).toEqual(['Result for weat']));
    expect(searches(transport)).toEqual(['', 'weat']);
  });

  it('drops an answer to a query the person has since changed', async () => {
    let releaseSlow: (() => void) | undefined;
    const transport = mount((input) => {
      if (input.query === 'slow')
        return new Promise((resolve) => (releaseSlow = () => resolve(page([entry('io.x/slow', 'Slow')]))));
      return page([entry(`io.x/${input.query ?? 'all'}`, input.query === 'fast' ? 'Fast' : 'All')]);
    });
    const box = await screen.findByRole('searchbox', { name: 'Search servers' });
    fireEvent.change(box, { target: { value: 'slow' } });
    await waitFor(() => expect(searches(transport)).toContain('slow'));
    fireEvent.change(box, { target: { value: 'fast' } });
    await waitFor(() => expect(listed()).toEqual(['Fast']));
    releaseSlow?.();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(listed()).toEqual(['Fast']);
  });

  it('pages with the cursor and appends', async () => {
    const transport = mount((input) =>
      input.cursor === undefined ? page([entry('io.x/a', 'A')], { nextCursor: 'c2' }) : page([entry('io.x/b', 'B')]),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(listed()).toEqual(['A', 'B']));
    expect(transport.calls.filter((call) => call.method === 'registry.search').at(-1)?.input).toMatchObject({
      cursor: 'c2',
    });
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });

  it('shows cached results with why and how old, and explains when nothing can be shown', async () => {
    const hourAgo = Date.now() - 60 * 60_000;
    mount((input) =>
      input.query === ''
        ? page([entry('io.x/a', 'A')], {
            fromCache: true,
            fetchedAt: hourAgo,
            notice: 'The registry could not be used (cannot reach registry.example.com).',
          })
        : fail('SERVER_ERROR', 'The registry could not be used (offline), and nothing from it is cached yet.'),
    );
    const notice = await screen.findByRole('status');
    expect(notice.textContent).toContain('cannot reach registry.example.com');
    expect(notice.textContent).toContain('These results are from 1 hour ago.');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search servers' }), { target: { value: 'x' } });
    expect(await screen.findByRole('heading', { name: 'The registry cannot be reached' })).toBeTruthy();
    expect(screen.getByText(/nothing from it is cached yet/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it("words the registry's failure in the person's language from its code", async () => {
    await activateLocale('zh-CN');
    try {
      const refused = registryError('registry-errors.unreachable', { detail: 'offline' });
      mount(() => fail('SERVER_ERROR', refused.text, undefined, refused.hostMessage));
      expect(await screen.findByText('无法使用注册表（offline），且还没有它的缓存内容。')).toBeTruthy();
      expect(screen.queryByText(/nothing from it is cached yet/)).toBeNull();
    } finally {
      await activateLocale('en');
    }
  });
});

describe('Discover helpers', () => {
  it('suggests a valid Berth name from the registry name', () => {
    expect(suggestedName('io.github.modelcontextprotocol/server-everything')).toBe('server-everything');
    expect(suggestedName('com.example/@@weird name!')).toBe('weird name-');
    expect(suggestedName('com.example/___')).toBe('server');
  });

  it('says how old cached results are', () => {
    const now = 10_000_000;
    expect(ageText(now - 10_000, now)).toBe('less than a minute ago');
    expect(ageText(now - 5 * 60_000, now)).toBe('5 minutes ago');
    expect(ageText(now - 3 * 86_400_000, now)).toBe('3 days ago');
  });

  it('says how old cached results are in the active language', async () => {
    const now = 10_000_000;
    await activateLocale('ja');
    expect(ageText(now - 5 * 60_000, now)).toBe('5 分前');
    await activateLocale('ko');
    expect(ageText(now - 2 * 3_600_000, now)).toBe('2시간 전');
  });
});
