import { useEffect, useState } from 'react';
import type { MethodOutput } from '../../../shared/contract';
import type { InstallOption, RegistryVersion } from '../../../shared/contract/registry';
import { useBerth } from '../../store';
import { Button, Chip, InlineAlert } from '../../ui/controls';
import { ExternalIcon, KeyIcon, WarningIcon } from '../../ui/icons';
import { InstallDialog } from './install-dialog';
import { ageText } from './use-registry-search';

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
  const [error, setError] = useState<string>();
  const [installing, setInstalling] = useState<InstallOption>();
  const [reload, setReload] = useState(0);
  // The version shown and installed: the latest until the person picks another from the registry's list.
  const [version, setVersion] = useState('latest');
  const [versions, setVersions] = useState<RegistryVersion[]>([]);

  useEffect(() => {
    let current = true;
    void transport.call('registry.details', { registry, name, version }).then((result) => {
      if (!current) return;
      if (result.ok) {
        setDetails(result.value);
        setError(undefined);
      } else setError(result.message);
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
    return (
      <InlineAlert>
        Cannot load {name}: {error}
      </InlineAlert>
    );
  if (details === undefined) return <p className="muted">Loading {name}…</p>;
  const { entry } = details;
  // "Update available" compares with the latest, not with an older version the person is looking at.
  const latest = versions.find((item) => item.isLatest)?.version ?? (version === 'latest' ? entry.version : undefined);
  return (
    <article className="entry-details" aria-label={`Details of ${entry.title ?? entry.name}`}>
      <header className="entry-head">
        <h2>{entry.title ?? entry.name}</h2>
        {versions.length > 1 ? (
          <label className="entry-version-pick">
            <span className="muted">Version</span>
            <select
              className="input select-input"
              value={entry.version}
              onChange={(event) => setVersion(event.target.value)}
            >
              {newestFirst(versions).map((item) => (
                <option key={item.version} value={item.version}>
                  {item.version}
                  {item.isLatest ? ' (latest)' : ''}
                  {item.status !== 'active' ? ` (${item.status})` : ''}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span className="version-chip">{entry.version}</span>
        )}
        {entry.status !== 'active' ? (
          <Chip tone="warning">{entry.status === 'deprecated' ? 'Deprecated' : 'Deleted'}</Chip>
        ) : null}
      </header>
      <p className="mono muted entry-name">{entry.name}</p>
      {details.notice !== undefined ? (
        <p className="inline-alert warn" role="status">
          <WarningIcon />
          <span>
            {details.notice} From {ageText(details.fetchedAt)}.
          </span>
        </p>
      ) : null}
      {entry.status !== 'active' ? (
        <div className="inline-alert warn" role="note">
          <WarningIcon />
          <span>
            Its publisher marked this version {entry.status}
            {entry.statusMessage !== undefined ? `: ${entry.statusMessage}` : '.'}
          </span>
        </div>
      ) : null}
      <p className="entry-description">{entry.description}</p>
      <dl className="entry-facts">
        {entry.repository !== undefined ? (
          <>
            <dt>Source code</dt>
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
            <dt>Website</dt>
            <dd>
              <a href={entry.websiteUrl} target="_blank" rel="noopener noreferrer">
                {entry.websiteUrl} <ExternalIcon />
              </a>
            </dd>
          </>
        ) : null}
        {entry.publishedAt !== undefined ? (
          <>
            <dt>Published</dt>
            <dd>{new Date(entry.publishedAt).toLocaleDateString()}</dd>
          </>
        ) : null}
        {details.installedAs.length > 0 ? (
          <>
            <dt>Installed</dt>
            <dd>
              {details.installedAs.map((item) => (
                <span key={item.server} className="entry-installed">
                  as <strong>{item.server}</strong> ({item.version})
                  {latest !== undefined && item.version !== latest ? <Chip tone="accent">Update available</Chip> : null}
                </span>
              ))}
            </dd>
          </>
        ) : null}
      </dl>
      <h3 className="entry-section-title">How it runs</h3>
      {entry.options.length === 0 ? (
        <p className="muted">This entry names no package or remote: see its website for how to run it.</p>
      ) : null}
      <ul className="entry-options">
        {entry.options.map((option) => (
          <li key={option.index} className="entry-option">
            <div className="entry-option-head">
              <Chip>{option.kind === 'remote' ? option.transport : option.registryType}</Chip>
              <span className="mono entry-option-label">{option.label}</span>
            </div>
            {option.fields.length > 0 ? (
              <ul className="entry-fields" aria-label={`What ${option.label} needs`}>
                {option.fields.map((field) => (
                  <li key={field.id}>
                    <span className="mono">{field.label}</span> <span className="muted">{fieldKind(field.kind)}</span>
                    {field.required ? <Chip tone="warning">required</Chip> : null}
                    {field.secret ? (
                      <Chip>
                        <KeyIcon /> secret
                      </Chip>
                    ) : null}
                    {field.description !== undefined ? (
                      <span className="entry-field-description"> — {field.description}</span>
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">Needs nothing from you.</p>
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
                aria-label={`Install ${entry.title ?? entry.name} (${option.kind === 'remote' ? option.transport : option.registryType})`}
              >
                Install…
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

function fieldKind(kind: string): string {
  return kind === 'env'
    ? 'environment variable'
    : kind === 'header'
      ? 'header'
      : kind === 'variable'
        ? 'address part'
        : 'argument';
}
