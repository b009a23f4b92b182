import { useEffect, useId, useState } from 'react';
import type { RegistryEntry, RegistryUpdate } from '../../../shared/contract/registry';
import type { Failure } from '../../../shared/result';
import { useBerth } from '../../store';
import { Button, Chip, EmptyState, InlineAlert } from '../../ui/controls';
import { InfoIcon, SearchIcon, WarningIcon } from '../../ui/icons';
import { EntryDetails } from './entry-details';
import { RegistriesEditor } from './registries-editor';
import { ageText, useRegistrySearch } from './use-registry-search';
import { ChoiceRow, List } from '../../ui/list';
import { useT } from '../../i18n/use-t';
import { failureText } from '../../i18n/host-message';
import { failureWords, words } from '../../i18n/words';

/** Discover: find servers in an MCP registry, read their details, install and update them. */
export function DiscoverView() {
  const transport = useBerth((s) => s.appsTransport);
  const [registries, setRegistries] = useState<string[]>();
  const [registry, setRegistry] = useState<string>();
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<RegistryEntry>();
  const [editing, setEditing] = useState(false);
  const [sourcesError, setSourcesError] = useState<Failure>();
  const { state, loadMore, retry } = useRegistrySearch(registry, query);
  const updates = useUpdates();
  const searchId = useId();
  const t = useT();

  useEffect(() => {
    void transport.call('registry.sources', {}).then((result) => {
      if (!result.ok) return setSourcesError(result);
      setRegistries(result.value.registries);
      setRegistry((current) => current ?? result.value.registries[0]);
    });
  }, [transport]);

  return (
    <div className="discover">
      <div className="discover-toolbar">
        <label className="discover-search" htmlFor={searchId}>
          <SearchIcon />
          <span className="sr-only">{t('discover.view.search')}</span>
          <input
            id={searchId}
            type="search"
            className="input"
            placeholder={t('discover.view.searchPlaceholder')}
            value={query}
            autoFocus
            spellCheck={false}
            onChange={(event) => setQuery(event.target.value)}
          />
        </label>
        {registries !== undefined && registries.length > 1 ? (
          <select
            className="input select-input discover-registry"
            aria-label={t('discover.view.registry')}
            value={registry}
            onChange={(event) => {
              setRegistry(event.target.value);
              setSelected(undefined);
            }}
          >
            {registries.map((url) => (
              <option key={url} value={url}>
                {new URL(url).host}
              </option>
            ))}
          </select>
        ) : (
          <span className="muted discover-registry-name" title={registry}>
            {registry === undefined ? '' : new URL(registry).host}
          </span>
        )}
        <Button size="sm" variant="ghost" aria-expanded={editing} onClick={() => setEditing((open) => !open)}>
          {t('discover.view.registries')}
        </Button>
      </div>
      {sourcesError !== undefined ? (
        <InlineAlert>{t('discover.view.sourcesFailed', { error: failureText(sourcesError) })}</InlineAlert>
      ) : null}
      {editing && registries !== undefined ? (
        <RegistriesEditor
          registries={registries}
          onSaved={(next) => {
            setRegistries(next);
            setRegistry(next[0]);
            setSelected(undefined);
            setEditing(false);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : null}
      <UpdatesBanner updates={updates.list} onUpdated={updates.refresh} />
      <div className="discover-body">
        <section
          className="discover-results"
          aria-label={t('discover.view.results')}
          aria-busy={state.status === 'loading'}
        >
          {state.notice !== undefined ? (
            <div className="inline-alert warn" role="status">
              <WarningIcon />
              <span>
                {state.notice}
                {state.fetchedAt !== undefined
                  ? ` ${t('discover.view.cachedFrom', { age: ageText(state.fetchedAt) })}`
                  : ''}
              </span>
            </div>
          ) : null}
          {state.status === 'error' ? (
            <EmptyState
              icon={<WarningIcon />}
              title={t('discover.view.unreachable')}
              actions={<Button onClick={retry}>{t('discover.view.retry')}</Button>}
            >
              <p>{state.error !== undefined ? failureText(state.error) : null}</p>
              <p>{t('discover.view.unreachableHint')}</p>
            </EmptyState>
          ) : state.status === 'done' && state.servers.length === 0 ? (
            <EmptyState
              icon={<SearchIcon />}
              title={
                query.trim() === ''
                  ? t('discover.view.emptyRegistry')
                  : t('discover.view.noMatch', { query: query.trim() })
              }
            >
              <p>{t('discover.view.noMatchHint')}</p>
            </EmptyState>
          ) : (
            <List look="choices" aria-label={t('discover.view.servers')}>
              {state.servers.map((entry) => (
                <ChoiceRow key={entry.name} selected={selected?.name === entry.name} onClick={() => setSelected(entry)}>
                  <span className="discover-item-head">
                    <span className="discover-item-title">{entry.title ?? entry.name}</span>
                    <span className="version-chip">{entry.version}</span>
                    {entry.status !== 'active' ? (
                      <Chip tone="warning">
                        {entry.status === 'deprecated' ? t('discover.view.deprecated') : t('discover.view.deleted')}
                      </Chip>
                    ) : null}
                  </span>
                  <span className="discover-item-name mono">{entry.name}</span>
                  <span className="discover-item-description">{entry.description}</span>
                  <span className="discover-item-kinds">
                    {entry.kinds.map((kind) => (
                      <Chip key={kind}>{kind}</Chip>
                    ))}
                  </span>
                </ChoiceRow>
              ))}
            </List>
          )}
          {state.status === 'loading' && state.servers.length === 0 ? (
            <p className="muted discover-loading">{t('discover.view.searching')}</p>
          ) : null}
          {state.skipped > 0 ? (
            <p className="muted discover-skipped">
              <InfoIcon /> {t('discover.view.skipped', { count: state.skipped })}
            </p>
          ) : null}
          {state.nextCursor !== undefined && state.status === 'done' ? (
            <Button className="discover-more" onClick={loadMore} disabled={state.loadingMore}>
              {state.loadingMore ? t('discover.view.loading') : t('discover.view.more')}
            </Button>
          ) : null}
        </section>
        <section className="discover-details" aria-label={t('discover.view.details')}>
          {selected !== undefined && registry !== undefined ? (
            <EntryDetails
              key={`${registry}|${selected.name}`}
              registry={registry}
              name={selected.name}
              onInstalled={updates.refresh}
            />
          ) : (
            <EmptyState title={t('discover.view.choose')}>
              <p>{t('discover.view.chooseHint')}</p>
            </EmptyState>
          )}
        </section>
      </div>
    </div>
  );
}

function useUpdates() {
  const transport = useBerth((s) => s.appsTransport);
  const [list, setList] = useState<RegistryUpdate[]>([]);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let current = true;
    void transport.call('registry.updates', {}).then((result) => {
      if (current && result.ok) setList(result.value.updates);
    });
    return () => {
      current = false;
    };
  }, [transport, tick]);
  return { list, refresh: () => setTick((count) => count + 1) };
}

function UpdatesBanner({ updates, onUpdated }: { updates: RegistryUpdate[]; onUpdated: () => void }) {
  const transport = useBerth((s) => s.appsTransport);
  const pushToast = useBerth((s) => s.pushToast);
  const [busy, setBusy] = useState<string>();
  const t = useT();
  if (updates.length === 0) return null;
  async function update(item: RegistryUpdate) {
    setBusy(item.server);
    const result = await transport.call('registry.update', { server: item.server });
    setBusy(undefined);
    if (result.ok)
      pushToast({
        tone: 'success',
        title: words('discover.updates.done', { server: item.server, version: result.value.version }),
        message: words('discover.updates.kept'),
      });
    else
      pushToast({
        tone: 'error',
        title: words('discover.updates.failed', { server: item.server }),
        message: failureWords(result),
      });
    onUpdated();
  }
  return (
    <section className="discover-updates" aria-label={t('discover.updates.label')}>
      {updates.map((item) => (
        <div key={item.server} className="discover-update">
          <Chip tone="accent">{t('discover.updates.available')}</Chip>
          <span>
            <strong>{item.server}</strong> {item.installed} → {item.latest}
          </span>
          <Button
            size="sm"
            disabled={busy !== undefined}
            onClick={() => void update(item)}
            aria-label={t('discover.updates.updateTo', { server: item.server, version: item.latest })}
          >
            {busy === item.server ? t('discover.updates.updating') : t('discover.updates.update')}
          </Button>
        </div>
      ))}
    </section>
  );
}
