import { useEffect, useId } from 'react';
import type { AuditEntry } from '../../../shared/domain/consent';
import { AUDIT_LIMIT, useBerth } from '../../store';
import { Button, Chip } from '../../ui/controls';
import { ChatIcon, LogsIcon, RestartIcon } from '../../ui/icons';
import { groupByProvider } from '../../../shared/domain/model-groups';
import { ApiKeySection } from './api-key-section';
import { AppearanceSection } from './appearance-section';
import { LanguageSection } from './language-section';
import { ModelRanksSection } from './model-ranks-section';
import { ConsentPoliciesSection, SamplingPoliciesSection } from './policies-section';
import { ProvidersSection } from './providers-section';
import { formatDateTime } from '../../i18n/format';
import type { MessageId } from '../../i18n/message-ids';
import { useT, type Translate } from '../../i18n/use-t';

/** API key, model providers, default model, tool permissions, sampling policies, the models sampling chooses among, and the audit log. */
export function SettingsView() {
  const t = useT();
  const settings = useBerth((s) => s.settings);
  if (!settings) return <p className="view-loading">{t('settings.loading')}</p>;
  return (
    <div className="settings-view">
      <div className="settings-page">
        <LanguageSection />
        <AppearanceSection />
        <ApiKeySection settings={settings} />
        <ProvidersSection />
        <DefaultModelSection />
        <ConsentPoliciesSection />
        <SamplingPoliciesSection />
        <ModelRanksSection />
        <AuditSection />
      </div>
    </div>
  );
}

function DefaultModelSection() {
  const t = useT();
  const settings = useBerth((s) => s.settings);
  const setDefaultModel = useBerth((s) => s.setDefaultModel);
  const id = useId();
  if (!settings) return null;
  const known = settings.models.some((m) => m.id === settings.defaultModel);
  const groups = groupByProvider(settings.models);
  return (
    <section className="settings-section" aria-labelledby={`${id}-title`}>
      <header className="settings-section-head">
        <h2 id={`${id}-title`}>
          <ChatIcon /> {t('settings.defaultModel.title')}
        </h2>
      </header>
      <div className="inline-row">
        <label className="field-label" htmlFor={id}>
          {t('settings.defaultModel.label')}
        </label>
        <select
          id={id}
          className="input select-input narrow"
          value={settings.defaultModel}
          onChange={(e) => void setDefaultModel(e.target.value)}
        >
          {known ? null : <option value={settings.defaultModel}>{settings.defaultModel}</option>}
          {groups.length > 1
            ? groups.map((group) => (
                <optgroup key={group.provider} label={group.label}>
                  {group.models.map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.label}
                    </option>
                  ))}
                </optgroup>
              ))
            : settings.models.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.label}
                </option>
              ))}
        </select>
      </div>
      <p className="field-hint">{t('settings.defaultModel.hint')}</p>
    </section>
  );
}

const DECISION: Record<AuditEntry['decision'], { label: MessageId; tone: 'success' | 'danger' | 'accent' }> = {
  'allow-once': { label: 'settings.audit.decision.allow-once', tone: 'success' },
  'allow-app-card': { label: 'settings.audit.decision.allow-app-card', tone: 'success' },
  'allow-conversation': { label: 'settings.audit.decision.allow-conversation', tone: 'success' },
  'always-tool': { label: 'settings.audit.decision.always-tool', tone: 'accent' },
  'always-server': { label: 'settings.audit.decision.always-server', tone: 'accent' },
  'allow-rule': { label: 'settings.audit.decision.allow-rule', tone: 'accent' },
  deny: { label: 'settings.audit.decision.deny', tone: 'danger' },
};

function decidedBy(t: Translate, entry: AuditEntry, policyIds: Set<string>): string {
  if (entry.decidedBy === 'person') return t('settings.audit.by.you');
  if (entry.decidedBy === 'host')
    return entry.note ? t('settings.audit.by.berthNote', { note: entry.note }) : t('settings.audit.by.berth');
  const id = entry.decidedBy.slice('policy:'.length);
  return t(policyIds.has(id) ? 'settings.audit.by.policy' : 'settings.audit.by.revokedPolicy');
}

/** `sha256:ab12…`: enough to match two entries, short enough to read. */
function shortDigest(digest: string): string {
  const [algo, hex] = digest.includes(':') ? digest.split(':', 2) : ['', digest];
  return `${algo ? `${algo}:` : ''}${(hex ?? '').slice(0, 12)}`;
}

function AuditSection() {
  const t = useT();
  const audit = useBerth((s) => s.audit);
  const loadAudit = useBerth((s) => s.loadAudit);
  const policies = useBerth((s) => s.consentPolicies);
  const answeredCount = useBerth((s) => s.pendingCounts['tool-call']);
  const policyIds = new Set(policies.map((p) => p.id));

  // Reloaded when tool-call prompts come and go, so a decision shows up without a manual refresh.
  useEffect(() => {
    void loadAudit();
  }, [loadAudit, answeredCount, policies]);

  return (
    <section className="settings-section" aria-labelledby="audit-title">
      <header className="settings-section-head">
        <h2 id="audit-title">
          <LogsIcon /> {t('settings.audit.title')}
        </h2>
        <span className="muted small">{t('settings.audit.limit', { limit: AUDIT_LIMIT })}</span>
        <div className="spacer" />
        <Button size="sm" variant="ghost" icon={<RestartIcon />} onClick={() => void loadAudit()}>
          {t('settings.audit.refresh')}
        </Button>
      </header>
      <p className="settings-text">{t('settings.audit.about')}</p>
      {audit && audit.unreadableLines > 0 ? (
        <p className="field-error">{t('settings.audit.unreadable', { count: audit.unreadableLines })}</p>
      ) : null}
      {!audit ? (
        <p className="settings-empty">{t('settings.loading')}</p>
      ) : audit.entries.length === 0 ? (
        <p className="settings-empty">{t('settings.audit.empty')}</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table" aria-label={t('settings.audit.title')}>
            <thead>
              <tr>
                <th scope="col">{t('settings.audit.col.time')}</th>
                <th scope="col">{t('settings.audit.col.server')}</th>
                <th scope="col">{t('settings.audit.col.tool')}</th>
                <th scope="col">{t('settings.audit.col.decision')}</th>
                <th scope="col">{t('settings.audit.col.decidedBy')}</th>
                <th scope="col">{t('settings.audit.col.arguments')}</th>
              </tr>
            </thead>
            <tbody>
              {audit.entries.map((entry, index) => (
                <tr key={`${entry.time}-${index}`}>
                  <td className="nowrap">{formatDateTime(entry.time)}</td>
                  <td>
                    <code>{entry.server}</code>
                  </td>
                  <td>
                    <code>{entry.tool}</code>
                  </td>
                  <td>
                    <Chip tone={DECISION[entry.decision].tone}>{t(DECISION[entry.decision].label)}</Chip>
                  </td>
                  <td>{decidedBy(t, entry, policyIds)}</td>
                  <td>
                    <code className="digest" title={entry.argumentsDigest}>
                      {shortDigest(entry.argumentsDigest)}
                    </code>
                    {entry.edited ? <Chip tone="warning">{t('settings.audit.edited')}</Chip> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
