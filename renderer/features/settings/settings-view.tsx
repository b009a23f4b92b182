import { useEffect, useId } from 'react';
import type { AuditEntry } from '../../../shared/domain/consent';
import { AUDIT_LIMIT, useBerth } from '../../store';
import { Button, Chip } from '../../ui/controls';
import { ChatIcon, LogsIcon, RestartIcon } from '../../ui/icons';
import { groupByProvider } from '../../../shared/domain/model-groups';
import { ApiKeySection } from './api-key-section';
import { LanguageSection } from './language-section';
import { ModelRanksSection } from './model-ranks-section';
import { ConsentPoliciesSection, SamplingPoliciesSection } from './policies-section';
import { ProvidersSection } from './providers-section';

/** API key, model providers, default model, tool permissions, sampling policies, the models sampling chooses among, and the audit log. */
export function SettingsView() {
  const settings = useBerth((s) => s.settings);
  if (!settings) return <p className="view-loading">Loading…</p>;
  return (
    <div className="settings-view">
      <div className="settings-page">
        <LanguageSection />
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
          <ChatIcon /> Default model
        </h2>
      </header>
      <div className="inline-row">
        <label className="field-label" htmlFor={id}>
          New conversations use
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
      <p className="field-hint">Each conversation can switch models from its message box.</p>
    </section>
  );
}

const DECISION: Record<AuditEntry['decision'], { label: string; tone: 'success' | 'danger' | 'accent' }> = {
  'allow-once': { label: 'allowed once', tone: 'success' },
  'allow-app-card': { label: 'allowed while the app was open', tone: 'success' },
  'allow-conversation': { label: 'allowed for conversation', tone: 'success' },
  'always-tool': { label: 'always: tool', tone: 'accent' },
  'always-server': { label: 'always: server', tone: 'accent' },
  'allow-rule': { label: 'allowed by your rule', tone: 'accent' },
  deny: { label: 'denied', tone: 'danger' },
};

function decidedBy(entry: AuditEntry, policyIds: Set<string>): string {
  if (entry.decidedBy === 'person') return 'you';
  if (entry.decidedBy === 'host') return entry.note ? `Berth (${entry.note})` : 'Berth';
  const id = entry.decidedBy.slice('policy:'.length);
  return policyIds.has(id) ? 'stored permission' : 'stored permission (since revoked)';
}

/** `sha256:ab12…`: enough to match two entries, short enough to read. */
function shortDigest(digest: string): string {
  const [algo, hex] = digest.includes(':') ? digest.split(':', 2) : ['', digest];
  return `${algo ? `${algo}:` : ''}${(hex ?? '').slice(0, 12)}`;
}

function AuditSection() {
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
          <LogsIcon /> Audit log
        </h2>
        <span className="muted small">newest first, up to {AUDIT_LIMIT}</span>
        <div className="spacer" />
        <Button size="sm" variant="ghost" icon={<RestartIcon />} onClick={() => void loadAudit()}>
          Refresh
        </Button>
      </header>
      <p className="settings-text">
        Every tool-call decision, by you or a stored permission. Arguments are kept only as a digest.
      </p>
      {audit && audit.unreadableLines > 0 ? (
        <p className="field-error">
          {audit.unreadableLines} line(s) of the audit file could not be read and are not shown.
        </p>
      ) : null}
      {!audit ? (
        <p className="settings-empty">Loading…</p>
      ) : audit.entries.length === 0 ? (
        <p className="settings-empty">No tool calls decided yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table" aria-label="Audit log">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Server</th>
                <th scope="col">Tool</th>
                <th scope="col">Decision</th>
                <th scope="col">Decided by</th>
                <th scope="col">Arguments</th>
              </tr>
            </thead>
            <tbody>
              {audit.entries.map((entry, index) => (
                <tr key={`${entry.time}-${index}`}>
                  <td className="nowrap">{new Date(entry.time).toLocaleString()}</td>
                  <td>
                    <code>{entry.server}</code>
                  </td>
                  <td>
                    <code>{entry.tool}</code>
                  </td>
                  <td>
                    <Chip tone={DECISION[entry.decision].tone}>{DECISION[entry.decision].label}</Chip>
                  </td>
                  <td>{decidedBy(entry, policyIds)}</td>
                  <td>
                    <code className="digest" title={entry.argumentsDigest}>
                      {shortDigest(entry.argumentsDigest)}
                    </code>
                    {entry.edited ? <Chip tone="warning">edited</Chip> : null}
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
