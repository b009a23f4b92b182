// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SamplingModelTable } from '../../../shared/contract/sampling';
import { fail, ok } from '../../../shared/result';
import { samplingWords } from '../../../shared/domain/sampling-words';
import { createFakeTransport } from '../../test-support/fake-transport';
import { ModelRanksSection } from './model-ranks-section';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { activateLocale } from '../../i18n/i18n';

afterEach(async () => {
  cleanup();
  await activateLocale('en');
});

const TABLE: SamplingModelTable = {
  defaultModel: 'claude-sonnet-5',
  models: [
    {
      key: 'claude-sonnet-5',
      label: 'Claude Sonnet 5',
      provider: 'Anthropic',
      tier: 'balanced',
      costRank: 2,
      speedRank: 2,
      intelligenceRank: 3,
      custom: false,
    },
    {
      key: 'ollama:llama3.1:8b',
      label: 'llama3.1:8b',
      provider: 'Ollama',
      tier: 'fast',
      costRank: 1,
      speedRank: 4,
      intelligenceRank: 5,
      custom: true,
    },
  ],
};

function mount() {
  let table = TABLE;
  const transport = createFakeTransport({
    'sampling.models': () => ok(table),
    'sampling.setModelRanks': ({ model, ranks }) => {
      table = {
        ...table,
        models: table.models.map((row) =>
          row.key !== model
            ? row
            : ranks === null
              ? { ...row, tier: 'fast', costRank: 1, speedRank: 1, intelligenceRank: 1, custom: false }
              : { ...row, ...ranks, custom: true },
        ),
      };
      return ok(table);
    },
  });
  renderWithBerth(<ModelRanksSection />, { transport });
  return { transport };
}

describe('<ModelRanksSection>', () => {
  it('lists every provider’s models with tier and ranks, and saves an edited row', async () => {
    const { transport } = mount();
    const table = await screen.findByRole('table', { name: 'Models for sampling' });
    const sonnet = table.querySelector('tr[data-model="claude-sonnet-5"]') as HTMLElement;
    expect(within(sonnet).getByRole('rowheader').textContent).toBe('Claude Sonnet 5 Anthropic');
    expect((within(table).getByLabelText('Tier of llama3.1:8b (Ollama)') as HTMLSelectElement).value).toBe('fast');
    expect(
      within(table.querySelector('tr[data-model="ollama:llama3.1:8b"]') as HTMLElement).getByText('yours'),
    ).toBeTruthy();

    const save = within(sonnet).getByRole('button', { name: 'Save Claude Sonnet 5 (Anthropic)' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.change(within(sonnet).getByLabelText('Intelligence rank of Claude Sonnet 5 (Anthropic)'), {
      target: { value: '1' },
    });
    fireEvent.change(within(sonnet).getByLabelText('Tier of Claude Sonnet 5 (Anthropic)'), {
      target: { value: 'smart' },
    });
    fireEvent.click(save);
    await waitFor(() =>
      expect(transport.calls.filter((c) => c.method === 'sampling.setModelRanks').map((c) => c.input)).toEqual([
        { model: 'claude-sonnet-5', ranks: { tier: 'smart', costRank: 2, speedRank: 2, intelligenceRank: 1 } },
      ]),
    );
    const saved = (await screen.findByRole('table')).querySelector('tr[data-model="claude-sonnet-5"]') as HTMLElement;
    await waitFor(() => expect(within(saved).getByText('yours')).toBeTruthy());
  });

  it('refuses a rank that is not a whole number from 1 to 100, and resets a row to its defaults', async () => {
    const { transport } = mount();
    const table = await screen.findByRole('table', { name: 'Models for sampling' });
    const llama = table.querySelector('tr[data-model="ollama:llama3.1:8b"]') as HTMLElement;
    const cost = within(llama).getByLabelText('Cost rank of llama3.1:8b (Ollama)');
    fireEvent.change(cost, { target: { value: '0' } });
    expect(within(llama).getByRole('alert').textContent).toBe(
      'Ranks are whole numbers from 1 (cheapest, fastest, most capable) to 100.',
    );
    expect(cost.getAttribute('aria-invalid')).toBe('true');
    expect(
      (within(llama).getByRole('button', { name: 'Save llama3.1:8b (Ollama)' }) as HTMLButtonElement).disabled,
    ).toBe(true);

    fireEvent.click(within(llama).getByRole('button', { name: 'Reset llama3.1:8b (Ollama)' }));
    await waitFor(() =>
      expect(transport.calls.filter((c) => c.method === 'sampling.setModelRanks').map((c) => c.input)).toEqual([
        { model: 'ollama:llama3.1:8b', ranks: null },
      ]),
    );
    const reset = (await screen.findByRole('table')).querySelector(
      'tr[data-model="ollama:llama3.1:8b"]',
    ) as HTMLElement;
    await waitFor(() => expect(within(reset).queryByText('yours')).toBeNull());
    expect((within(reset).getByLabelText('Cost rank of llama3.1:8b (Ollama)') as HTMLInputElement).value).toBe('1');
  });
});

describe('<ModelRanksSection> in the person’s language', () => {
  it('words the table, the tiers, the row controls and a bad rank in Chinese, the models as named', async () => {
    await activateLocale('zh-CN');
    mount();
    expect(await screen.findByRole('heading', { name: '采样使用的模型' })).toBeTruthy();
    const table = screen.getByRole('table', { name: '采样使用的模型' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((head) => head.textContent),
    ).toEqual(['模型', '层级', '成本排名', '速度排名', '智能排名', '操作']);
    const llama = table.querySelector('tr[data-model="ollama:llama3.1:8b"]') as HTMLElement;
    const tier = within(llama).getByRole('combobox', { name: 'llama3.1:8b (Ollama) 的层级' }) as HTMLSelectElement;
    expect([...tier.options].map((option) => [option.value, option.textContent])).toEqual([
      ['fast', '快速'],
      ['balanced', '均衡'],
      ['smart', '智能'],
    ]);
    expect(within(llama).getByText('自定义')).toBeTruthy();
    expect(within(llama).getByRole('button', { name: '重置 llama3.1:8b (Ollama)' })).toBeTruthy();
    const save = within(llama).getByRole('button', { name: '保存 llama3.1:8b (Ollama)' });
    expect(save.querySelector('.sr-only')?.textContent).toBe('llama3.1:8b (Ollama)');
    fireEvent.change(within(llama).getByRole('spinbutton', { name: 'llama3.1:8b (Ollama) 的成本排名' }), {
      target: { value: '101' },
    });
    expect(within(llama).getByRole('alert').textContent).toBe(
      '排名必须是 1 到 100 之间的整数（1 表示最便宜、最快或能力最强）。',
    );
  });

  it('puts the model before the verb in the Save button’s name in Korean', async () => {
    await activateLocale('ko');
    mount();
    const table = await screen.findByRole('table', { name: '샘플링에 사용할 모델' });
    expect(within(table).getByRole('button', { name: 'Claude Sonnet 5 (Anthropic) 저장' })).toBeTruthy();
  });

  it('words the host’s refusal of a model no longer listed from its code, and again after a live switch', async () => {
    await activateLocale('ja');
    const refusal = samplingWords('sampling-words.model-not-listed', { model: 'ollama:llama3.1:8b' });
    const transport = createFakeTransport({
      'sampling.models': () => ok(TABLE),
      'sampling.setModelRanks': () => fail('NOT_FOUND', refusal.text, 'model', refusal.hostMessage),
    });
    renderWithBerth(<ModelRanksSection />, { transport });
    const row = (await screen.findByRole('table')).querySelector('tr[data-model="ollama:llama3.1:8b"]') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: /リセット/ }));
    expect((await within(row).findByRole('alert')).textContent).toBe(
      'サンプリングのモデル一覧にモデル「ollama:llama3.1:8b」はありません。',
    );
    await act(() => activateLocale('zh-CN'));
    expect(within(row).getByRole('alert').textContent).toBe('采样的模型列表中没有模型“ollama:llama3.1:8b”。');
  });
});
