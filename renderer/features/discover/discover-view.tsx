import { useEffect, useId, useState } from 'react';
import type { RegistryEntry, RegistryUpdate } from '../../../shared/contract/registry';
import { useBerth } from '../../store';
import { Button, Chip, EmptyState, InlineAlert } from '../../ui/controls';
import { InfoIcon, SearchIcon, WarningIcon } from '../../ui/icons';
import { EntryDetails } from './entry-details';
import { RegistriesEditor } from './registries-editor';
import { ageText, useRegistrySearch } from './use-registry-search';
import { ChoiceRow, List } from '../../ui/list';

/** Discover: find servers in an MCP registry, read their details, install and update them. */
export function DiscoverView() {
  const transport = useBerth((s) => s.appsTransport);
  const [registries, setRegistries] = useState<string[]>();
  const [registry, setRegistry] = useState<string>();
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<RegistryEntry>();
  const [editing, setEditing] = useState(false);
  const [sourcesError, setSourcesError] = useState<string>();
  const { state, loadMore, retry } = useRegistrySearch(registry, query);
  const updates = useUpdates();
  const searchId = useId();

  useEffect(() => {
    void transport.call('registry.sources', {}).then((result) => {
      if (!result.ok) return setSourcesError(result.message);
      setRegistries(result.value.registries);
      setRegistry((current) => current ?? result.value.registries[0]);
    });
  }, [transport]);

  return (
    <div className="discover">
      <div className="discover-toolbar">
        <label className="discover-search" htmlFor={searchId}>
          <SearchIcon />
          <span className="sr-only">Search servers</span>
          <input
            id={searchId}
            type="search"
            className="input"
            placeholder="Search servers by name…"
            value={query}
            autoFocus
            spellCheck={false}
            onChange={(event) => setQuery(event.target.value)}
          />
        </label>
        {registries !== undefined && registries.length > 1 ? (
          <select
            className="input select-input discover-registry"
            aria-label="Registry"
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
          Registries…
        </Button>
      </div>
      {sourcesError !== undefined ? <InlineAlert>Cannot read the registry settings: {sourcesError}</InlineAlert> : null}
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
        <section className="discover-results" aria-label="Search results" aria-busy={state.status === 'loading'}>
          {state.notice !== undefined ? (
            <div className="inline-alert warn" role="status">
              <WarningIcon />
              <span>
                {state.notice}
                {state.fetchedAt !== undefined ? ` These results are from ${ageText(state.fetchedAt)}.` : ''}
              </span>
            </div>
          ) : null}
          {state.status === 'error' ? (
            <EmptyState
              icon={<WarningIcon />}
              title="The registry cannot be reached"
              actions={<Button onClick={retry}>Try again</Button>}
            >
              <p>{state.error}</p>
              <p>Check your connection, or choose another registry under Registries….</p>
            </EmptyState>
          ) : state.status === 'done' && state.servers.length === 0 ? (
            <EmptyState
              icon={<SearchIcon />}
              title={query.trim() === '' ? 'This registry lists no servers' : `No servers match “${query.trim()}”`}
            >
              <p>
                The registry searches server names (such as io.github.owner/server). Try a shorter or different word.
              </p>
            </EmptyState>
          ) : (
            <List look="choices" aria-label="Servers">
              {state.servers.map((entry) => (
                <ChoiceRow key={entry.name} selected={selected?.name === entry.name} onClick={() => setSelected(entry)}>
                  <span className="discover-item-head">
                    <span className="discover-item-title">{entry.title ?? entry.name}</span>
                    <span className="version-chip">{entry.version}</span>
                    {entry.status !== 'active' ? (
                      <Chip tone="warning">{entry.status === 'deprecated' ? 'Deprecated' : 'Deleted'}</Chip>
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
            <p className="muted discover-loading">Searching…</p>
          ) : null}
          {state.skipped > 0 ? (
            <p className="muted discover-skipped">
              <InfoIcon /> {state.skipped === 1 ? '1 entry was' : `${state.skipped} entries were`} left out: they do not
              fit the server.json schema.
            </p>
          ) : null}
          {state.nextCursor !== undefined && state.status === 'done' ? (
            <Button className="discover-more" onClick={loadMore} disabled={state.loadingMore}>
              {state.loadingMore ? 'Loading…' : 'Show more'}
            </Button>
          ) : null}
        </section>
        <section className="discover-details" aria-label="Server details">
          {selected !== undefined && registry !== undefined ? (
            <EntryDetails
              key={`${registry}|${selected.name}`}
              registry={registry}
              name={selected.name}
              onInstalled={updates.refresh}
            />
          ) : (
            <EmptyState title="Choose a server">
              <p>
                Its details show here: what it does, where its code lives, how it runs and what it needs from you.
                Nothing is installed or started until you review it and confirm.
              </p>
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
  if (updates.length === 0) return null;
  async function update(item: RegistryUpdate) {
    setBusy(item.server);
    const result = await transport.call('registry.update', { server: item.server });
    setBusy(undefined);
    if (result.ok)
      pushToast({
        tone: 'success',
        title: `Updated “${item.server}” to ${result.value.version}`,
        message: 'Its settings and secrets were kept.',
      });
    else pushToast({ tone: 'error', title: `Could not update “${item.server}”`, message: result.message });
    onUpdated();
  }
  return (
    <section className="discover-updates" aria-label="Updates available">
      {updates.map((item) => (
        <div key={item.server} className="discover-update">
          <Chip tone="accent">Update available</Chip>
          <span>
            <strong>{item.server}</strong> {item.installed} → {item.latest}
          </span>
          <Button
            size="sm"
            disabled={busy !== undefined}
            onClick={() => void update(item)}
            aria-label={`Update ${item.server} to ${item.latest}`}
          >
            {busy === item.server ? 'Updating…' : 'Update'}
          </Button>
        </div>
      ))}
    </section>
  );
}
