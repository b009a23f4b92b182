import { useEffect, useState } from 'react';
import type { MethodOutput } from '../../../shared/contract';
import type { InstallOption, RegistryVersion } from '../../../shared/contract/registry';
import { useBerth } from '../../store';
import { Button, Chip, InlineAlert } from '../../ui/controls';
import { ExternalIcon, KeyIcon, WarningIcon } from '../../ui/icons';
import { InstallDialog } from './install-dialog';
import { ageText } from './use-registry-search';
import { useT, type Translate } from '../../i18n/use-t';
import { failureText } from '../../i18n/host-message';
import { formatDate } from '../../i18n/format';
import { T } from '../../i18n/t';
import type { Failure } from '../../../shared/result';

type Details = MethodOutput<'registry.details'>;

/** One entry in full: what it is, where its code lives, its status, and each way to install it. */
export function EntryDetails({
  registry,
  name,
  onInstalled,
}: {
  registry: string;
  name: string;
  onInstalled: () => void;
}) {
  const transport = useBerth((s) => s.appsTransport);
  const [details, setDetails] = useState<Details>();
  const [error, setError] = useState<Failure>();
  const [installing, setInstalling] = useState<InstallOption>();
  const [reload, setReload] = useState(0);
  // The version shown and installed: the latest until the person picks another from the registry's list.
  const [version, setVersion] = useState('latest');
  const [versions, setVersions] = useState<RegistryVersion[]>([]);
  const t = useT();

  useEffect(() => {
    let current = true;
    void transport.call('registry.details', { registry, name, version }).then((result) => {
      if (!current) return;
      if (result.ok) {
        setDetails(result.value);
        setError(undefined);
      } else setError(result);
    });
    return () => {
      current = false;
    };
  }, [transport, registry, name, version, reload]);

  useEffect(() => {
    let current = true;
    // Without the list (an older registry), the latest is simply what is shown.
    void transport.call('registry.versions', { registry, name }).then((result) => {
      if (current && result.ok) setVersions(result.value.versions);
    });
    return () => {
      current = false;
    };
  }, [transport, registry, name]);

  if (error !== undefined)
    return <InlineAlert>{t('discover.entry.loadFailed', { name, error: failureText(error) })}</InlineAlert>;
  if (details === undefined) return <p className="muted">{t('discover.entry.loading', { name })}</p>;
  const { entry } = details;
  // "Update available" compares with the latest, not with an older version the person is looking at.
  const latest = versions.find((item) => item.isLatest)?.version ?? (version === 'latest' ? entry.version : undefined);
  return (
    <article className="entry-details" aria-label={t('discover.entry.label', { name: entry.title ?? entry.name })}>
      <header className="entry-head">
        <h2>{entry.title ?? entry.name}</h2>
        {versions.length > 1 ? (
          <label className="entry-version-pick">
            <span className="muted">{t('discover.entry.version')}</span>
            <select
              className="input select-input"
              value={entry.version}
              onChange={(event) => setVersion(event.target.value)}
            >
              {newestFirst(versions).map((item) => (
                <option key={item.version} value={item.version}>
                  {t('discover.entry.versionOption', {
                    version: item.version,
                    latest: item.isLatest ? 'yes' : 'no',
                    status: item.status,
                  })}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span className="version-chip">{entry.version}</span>
        )}
        {entry.status !== 'active' ? (
          <Chip tone="warning">
            {entry.status === 'deprecated' ? t('discover.view.deprecated') : t('discover.view.deleted')}
          </Chip>
        ) : null}
      </header>
      <p className="mono muted entry-name">{entry.name}</p>
      {details.notice !== undefined ? (
        <p className="inline-alert warn" role="status">
          <WarningIcon />
          <span>
            {details.notice} {t('discover.entry.cachedFrom', { age: ageText(details.fetchedAt) })}
          </span>
        </p>
      ) : null}
      {entry.status !== 'active' ? (
        <div className="inline-alert warn" role="note">
          <WarningIcon />
          <span>
            {entry.statusMessage !== undefined
              ? t('discover.entry.markedBecause', { status: entry.status, reason: entry.statusMessage })
              : t('discover.entry.marked', { status: entry.status })}
          </span>
        </div>
      ) : null}
      <p className="entry-description">{entry.description}</p>
      <dl className="entry-facts">
        {entry.repository !== undefined ? (
          <>
            <dt>{t('discover.entry.source')}</dt>
            <dd>
              <a href={entry.repository.url} target="_blank" rel="noopener noreferrer">
                {entry.repository.url}
                {entry.repository.subfolder !== undefined ? ` (${entry.repository.subfolder})` : ''} <ExternalIcon />
              </a>
            </dd>
          </>
        ) : null}
        {entry.websiteUrl !== undefined ? (
          <>
            <dt>{t('discover.entry.website')}</dt>
            <dd>
              <a href={entry.websiteUrl} target="_blank" rel="noopener noreferrer">
                {entry.websiteUrl} <ExternalIcon />
              </a>
            </dd>
          </>
        ) : null}
        {entry.publishedAt !== undefined ? (
          <>
            <dt>{t('discover.entry.published')}</dt>
            <dd>{formatDate(entry.publishedAt)}</dd>
          </>
        ) : null}
        {details.installedAs.length > 0 ? (
          <>
            <dt>{t('discover.entry.installed')}</dt>
            <dd>
              {details.installedAs.map((item) => (
                <span key={item.server} className="entry-installed">
                  <T
                    id="discover.entry.installedAs"
                    values={{ server: item.server, version: item.version }}
                    components={{ strong: <strong /> }}
                  />
                  {latest !== undefined && item.version !== latest ? (
                    <Chip tone="accent">{t('discover.updates.available')}</Chip>
                  ) : null}
                </span>
              ))}
            </dd>
          </>
        ) : null}
      </dl>
      <h3 className="entry-section-title">{t('discover.entry.howItRuns')}</h3>
      {entry.options.length === 0 ? <p className="muted">{t('discover.entry.noOptions')}</p> : null}
      <ul className="entry-options">
        {entry.options.map((option) => (
          <li key={option.index} className="entry-option">
            <div className="entry-option-head">
              <Chip>{option.kind === 'remote' ? option.transport : option.registryType}</Chip>
              <span className="mono entry-option-label">{option.label}</span>
            </div>
            {option.fields.length > 0 ? (
              <ul className="entry-fields" aria-label={t('discover.entry.needs', { option: option.label })}>
                {option.fields.map((field) => (
                  <li key={field.id}>
                    <span className="mono">{field.label}</span>{' '}
                    <span className="muted">{fieldKind(t, field.kind)}</span>
                    {field.required ? <Chip tone="warning">{t('discover.entry.required')}</Chip> : null}
                    {field.secret ? (
                      <Chip>
                        <KeyIcon /> {t('discover.entry.secret')}
                      </Chip>
                    ) : null}
                    {field.description !== undefined ? (
                      <span className="entry-field-description"> — {field.description}</span>
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">{t('discover.entry.needsNothing')}</p>
            )}
            {option.unsupported !== undefined ? (
              <p className="entry-unsupported">
                <WarningIcon /> {option.unsupported}
              </p>
            ) : (
              <Button
                variant="primary"
                size="sm"
                onClick={() => setInstalling(option)}
                aria-label={t('discover.entry.install', {
                  name: entry.title ?? entry.name,
                  kind: option.kind === 'remote' ? option.transport : (option.registryType ?? ''),
                })}
              >
                {t('discover.entry.installButton')}
              </Button>
            )}
          </li>
        ))}
      </ul>
      {installing !== undefined ? (
        <InstallDialog
          registry={registry}
          entry={entry}
          option={installing}
          onClose={() => setInstalling(undefined)}
          onInstalled={() => {
            setInstalling(undefined);
            setReload((count) => count + 1);
            onInstalled();
          }}
        />
      ) : null}
    </article>
  );
}

/** Newest first by publication date; the registry's own order where it gives no dates. */
function newestFirst(versions: readonly RegistryVersion[]): RegistryVersion[] {
  return [...versions].sort((a, b) => (b.publishedAt ?? '').localeCompare(a.publishedAt ?? ''));
}

function fieldKind(t: Translate, kind: string): string {
  return t('discover.entry.fieldKind', { kind });
}
