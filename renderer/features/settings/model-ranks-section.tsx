import { useEffect, useId, useState } from 'react';
import type { SamplingModelRow } from '../../../shared/contract/sampling';
import { MODEL_TIERS, ModelRanksSchema } from '../../../shared/domain/model-ranks';
import type { ModelRanks, ModelTier } from '../../../shared/domain/model-ranks';
import { useBerth } from '../../store';
import { Button, Chip } from '../../ui/controls';
import { SparkleIcon } from '../../ui/icons';
import type { MessageId } from '../../i18n/message-ids';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';
import { failureText } from '../../i18n/host-message';
import type { Failure } from '../../../shared/result';

/** Each rank's column head and its input's name (“Cost rank of …”). */
const AXES = [
  { name: 'costRank', head: 'settings.ranks.col.cost', of: 'settings.ranks.of.cost' },
  { name: 'speedRank', head: 'settings.ranks.col.speed', of: 'settings.ranks.of.speed' },
  { name: 'intelligenceRank', head: 'settings.ranks.col.intelligence', of: 'settings.ranks.of.intelligence' },
] as const;

const TIER_LABEL: Record<ModelTier, MessageId> = {
  fast: 'settings.ranks.tier.fast',
  balanced: 'settings.ranks.tier.balanced',
  smart: 'settings.ranks.tier.smart',
};
type RankField = (typeof AXES)[number]['name'];

/** The row's values as the form edits them (ranks as typed). */
interface Draft {
  tier: ModelTier;
  ranks: Record<RankField, string>;
}

function draftOf(row: SamplingModelRow): Draft {
  return {
    tier: row.tier,
    ranks: {
      costRank: String(row.costRank),
      speedRank: String(row.speedRank),
      intelligenceRank: String(row.intelligenceRank),
    },
  };
}

/** The ranks to save, or that the draft has a rank out of range (worded by the row). */
function parseDraft(draft: Draft): { ranks: ModelRanks } | { error: 'invalid' } {
  const parsed = ModelRanksSchema.safeParse({
    tier: draft.tier,
    costRank: Number(draft.ranks.costRank.trim() === '' ? NaN : draft.ranks.costRank),
    speedRank: Number(draft.ranks.speedRank.trim() === '' ? NaN : draft.ranks.speedRank),
    intelligenceRank: Number(draft.ranks.intelligenceRank.trim() === '' ? NaN : draft.ranks.intelligenceRank),
  });
  return parsed.success ? { ranks: parsed.data } : { error: 'invalid' };
}

/**
 * The per-model table sampling maps a server's model preferences through:
 * each model's tier (what hint words like "flash" or "opus" reach) and its
 * cost, speed and intelligence ranks against the other models.
 */
export function ModelRanksSection() {
  const t = useT();
  const table = useBerth((s) => s.samplingModels);
  const load = useBerth((s) => s.loadSamplingModels);
  const id = useId();
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <section className="settings-section" aria-labelledby={`${id}-title`}>
      <header className="settings-section-head">
        <h2 id={`${id}-title`}>
          <SparkleIcon /> {t('settings.ranks.title')}
        </h2>
      </header>
      <p className="settings-text">{t('settings.ranks.about')}</p>
      {table === undefined ? (
        <p className="settings-empty">{t('settings.loading')}</p>
      ) : table.models.length === 0 ? (
        <p className="settings-empty">{t('settings.ranks.empty')}</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table" aria-label={t('settings.ranks.title')}>
            <thead>
              <tr>
                <th scope="col">{t('settings.ranks.col.model')}</th>
                <th scope="col">{t('settings.ranks.col.tier')}</th>
                {AXES.map((axis) => (
                  <th key={axis.name} scope="col">
                    {t(axis.head)}
                  </th>
                ))}
                <th scope="col">
                  <span className="sr-only">{t('settings.ranks.col.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {table.models.map((row) => (
                <ModelRankRow
                  key={`${row.key}:${row.tier}:${row.costRank}:${row.speedRank}:${row.intelligenceRank}`}
                  row={row}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function ModelRankRow({ row }: { row: SamplingModelRow }) {
  const t = useT();
  const setModelRanks = useBerth((s) => s.setModelRanks);
  const [draft, setDraft] = useState(() => draftOf(row));
  const [busy, setBusy] = useState(false);
  // The refusal itself, worded as it renders: a language switch re-words it.
  const [failure, setFailure] = useState<Failure>();
  const errorId = useId();
  const parsed = parseDraft(draft);
  const dirty = JSON.stringify(draft) !== JSON.stringify(draftOf(row));
  const name = `${row.label} (${row.provider})`;

  const save = async (ranks: ModelRanks | null) => {
    setBusy(true);
    const result = await setModelRanks(row.key, ranks);
    setBusy(false);
    setFailure(result.ok ? undefined : result);
  };
  const problem = 'error' in parsed ? t('settings.ranks.invalid') : failure && failureText(failure);

  return (
    <tr data-model={row.key}>
      <th scope="row">
        {row.label} <span className="muted small rank-provider">{row.provider}</span>
        {row.custom ? (
          <>
            {' '}
            <Chip tone="accent">{t('settings.ranks.yours')}</Chip>
          </>
        ) : null}
        {problem !== undefined ? (
          <p className="field-error" id={errorId} role="alert">
            {problem}
          </p>
        ) : null}
      </th>
      <td>
        <select
          className="input select-input tier-select"
          aria-label={t('settings.ranks.of.tier', { model: name })}
          value={draft.tier}
          onChange={(e) => setDraft({ ...draft, tier: e.target.value as ModelTier })}
        >
          {MODEL_TIERS.map((tier) => (
            <option key={tier} value={tier}>
              {t(TIER_LABEL[tier])}
            </option>
          ))}
        </select>
      </td>
      {AXES.map((axis) => (
        <td key={axis.name}>
          <input
            className="input rank-input"
            type="number"
            min={1}
            max={100}
            step={1}
            aria-label={t(axis.of, { model: name })}
            aria-invalid={'error' in parsed}
            aria-describedby={problem !== undefined ? errorId : undefined}
            value={draft.ranks[axis.name]}
            onChange={(e) => setDraft({ ...draft, ranks: { ...draft.ranks, [axis.name]: e.target.value } })}
          />
        </td>
      ))}
      <td className="nowrap">
        <Button
          size="sm"
          variant="primary"
          disabled={!dirty || busy || 'error' in parsed}
          onClick={() => 'ranks' in parsed && void save(parsed.ranks)}
        >
          <T id="settings.ranks.save" values={{ model: name }} components={{ model: <span className="sr-only" /> }} />
        </Button>{' '}
        {row.custom ? (
          <Button size="sm" variant="ghost" disabled={busy} onClick={() => void save(null)}>
            <T
              id="settings.ranks.reset"
              values={{ model: name }}
              components={{ model: <span className="sr-only" /> }}
            />
          </Button>
        ) : null}
      </td>
    </tr>
  );
}
