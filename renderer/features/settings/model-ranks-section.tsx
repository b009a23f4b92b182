import { useEffect, useId, useState } from 'react';
import type { SamplingModelRow } from '../../../shared/contract/sampling';
import { MODEL_TIERS, ModelRanksSchema } from '../../../shared/domain/model-ranks';
import type { ModelRanks, ModelTier } from '../../../shared/domain/model-ranks';
import { useBerth } from '../../store';
import { Button, Chip } from '../../ui/controls';
import { SparkleIcon } from '../../ui/icons';

const AXES = [
  { field: 'costRank', label: 'Cost' },
  { field: 'speedRank', label: 'Speed' },
  { field: 'intelligenceRank', label: 'Intelligence' },
] as const;
type RankField = (typeof AXES)[number]['field'];

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

/** The ranks to save, or what is wrong with the draft. */
export function parseDraft(draft: Draft): { ranks: ModelRanks } | { error: string } {
  const parsed = ModelRanksSchema.safeParse({
    tier: draft.tier,
    costRank: Number(draft.ranks.costRank.trim() === '' ? NaN : draft.ranks.costRank),
    speedRank: Number(draft.ranks.speedRank.trim() === '' ? NaN : draft.ranks.speedRank),
    intelligenceRank: Number(draft.ranks.intelligenceRank.trim() === '' ? NaN : draft.ranks.intelligenceRank),
  });
  return parsed.success
    ? { ranks: parsed.data }
    : { error: 'Ranks are whole numbers from 1 (cheapest, fastest, most capable) to 100.' };
}

/**
 * The per-model table sampling maps a server's model preferences through:
 * each model's tier (what hint words like "flash" or "opus" reach) and its
 * cost, speed and intelligence ranks against the other models.
 */
export function ModelRanksSection() {
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
          <SparkleIcon /> Models for sampling
        </h2>
      </header>
      <p className="settings-text">
        When a server asks Berth’s model for a completion it may name models and weigh cost, speed and intelligence.
        Berth matches the names against every model below and the weights against these ranks: 1 is the cheapest,
        fastest or most capable; equal ranks are ties.
      </p>
      {table === undefined ? (
        <p className="settings-empty">Loading…</p>
      ) : table.models.length === 0 ? (
        <p className="settings-empty">No models are set up yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table" aria-label="Models for sampling">
            <thead>
              <tr>
                <th scope="col">Model</th>
                <th scope="col">Tier</th>
                {AXES.map((axis) => (
                  <th key={axis.field} scope="col">
                    {axis.label} rank
                  </th>
                ))}
                <th scope="col">
                  <span className="sr-only">Actions</span>
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
  const setModelRanks = useBerth((s) => s.setModelRanks);
  const [draft, setDraft] = useState(() => draftOf(row));
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const errorId = useId();
  const parsed = parseDraft(draft);
  const dirty = JSON.stringify(draft) !== JSON.stringify(draftOf(row));
  const name = `${row.label} (${row.provider})`;

  const save = async (ranks: ModelRanks | null) => {
    setBusy(true);
    const result = await setModelRanks(row.key, ranks);
    setBusy(false);
    setFailure(result.ok ? undefined : result.message);
  };
  const problem = 'error' in parsed ? parsed.error : failure;

  return (
    <tr data-model={row.key}>
      <th scope="row">
        {row.label} <span className="muted small rank-provider">{row.provider}</span>
        {row.custom ? (
          <>
            {' '}
            <Chip tone="accent">yours</Chip>
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
          aria-label={`Tier of ${name}`}
          value={draft.tier}
          onChange={(e) => setDraft({ ...draft, tier: e.target.value as ModelTier })}
        >
          {MODEL_TIERS.map((tier) => (
            <option key={tier} value={tier}>
              {tier}
            </option>
          ))}
        </select>
      </td>
      {AXES.map((axis) => (
        <td key={axis.field}>
          <input
            className="input rank-input"
            type="number"
            min={1}
            max={100}
            step={1}
            aria-label={`${axis.label} rank of ${name}`}
            aria-invalid={'error' in parsed}
            aria-describedby={problem !== undefined ? errorId : undefined}
            value={draft.ranks[axis.field]}
            onChange={(e) => setDraft({ ...draft, ranks: { ...draft.ranks, [axis.field]: e.target.value } })}
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
          Save <span className="sr-only">{name}</span>
        </Button>{' '}
        {row.custom ? (
          <Button size="sm" variant="ghost" disabled={busy} onClick={() => void save(null)}>
            Reset <span className="sr-only">{name}</span>
          </Button>
        ) : null}
      </td>
    </tr>
  );
}
