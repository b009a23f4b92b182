import { useShallow } from 'zustand/react/shallow';
import type { RootsView } from '../../../shared/contract/roots';
import { sortServers, useBerth } from '../../store';
import { Button, Chip, EmptyState } from '../../ui/controls';
import { Switch } from '../../ui/switch';
import { FolderIcon, RestartIcon, ServerIcon } from '../../ui/icons';
import {
  CONSENT_LABELS,
  consentState,
  exposureOf,
  exposureSummary,
  hasAnswers,
  seesRoot,
  toggleExposure,
} from './roots-model';
import { List, Row } from '../../ui/list';

/** Which server sees which root, and what the person answered, as one matrix (servers × roots). */
export function RootsAccess() {
  const rootsView = useBerth((s) => s.rootsView);
  const servers = useBerth(useShallow((s) => sortServers(s.servers).map((server) => server.name)));
  if (!rootsView || rootsView.roots.length === 0) return null;
  return (
    <section className="settings-section" aria-labelledby="roots-access-title">
      <header className="settings-section-head">
        <h2 id="roots-access-title">
          <ServerIcon /> Which server sees what
        </h2>
      </header>
      <p className="settings-text">
        Every server sees every root unless you narrow it here. A server also asks you before it first sees a folder;
        “Ask again” forgets your answers.
      </p>
      {servers.length === 0 ? (
        <p className="settings-empty">No servers yet. Add one, then choose the roots it may see.</p>
      ) : (
        <div className="roots-matrix-wrap">
          <table className="roots-matrix" aria-label="Which server sees which root">
            <thead>
              <tr>
                <th scope="col">Server</th>
                <th scope="col">All roots</th>
                {rootsView.roots.map((root) => (
                  <th scope="col" key={root.id} title={root.path}>
                    {root.name}
                    {root.missing ? <span className="matrix-missing"> (missing)</span> : null}
                  </th>
                ))}
                <th scope="col">
                  <span className="sr-only">Answers</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {servers.map((server) => (
                <AccessRow key={server} view={rootsView} server={server} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {servers.length > 0 ? (
        <p className="field-hint">
          A checked box means the server may be offered that folder; it gets it only once you allowed it. Unchecked
          folders are never offered, so it is not asked about them.
        </p>
      ) : null}
    </section>
  );
}

function AccessRow({ view, server }: { view: RootsView; server: string }) {
  const setRootExposure = useBerth((s) => s.setRootExposure);
  const resetRootConsent = useBerth((s) => s.resetRootConsent);
  const exposure = exposureOf(view, server);
  const allIds = view.roots.map((r) => r.id);
  return (
    <tr data-server={server}>
      <th scope="row">{server}</th>
      <td>
        <Switch
          label={`${server} sees all roots, including ones added later`}
          checked={exposure === 'all'}
          onCheckedChange={(on) => void setRootExposure(server, on ? 'all' : allIds)}
        />
      </td>
      {view.roots.map((root) => {
        const consent = CONSENT_LABELS[consentState(view, server, root.id)];
        return (
          <td key={root.id}>
            <label className="matrix-cell" title={consent.hint}>
              <input
                type="checkbox"
                checked={seesRoot(exposure, root.id)}
                aria-label={`${server} sees ${root.name}`}
                onChange={(event) =>
                  void setRootExposure(server, toggleExposure(exposure, allIds, root.id, event.target.checked))
                }
              />
              <Chip tone={consent.tone === 'neutral' ? undefined : consent.tone}>{consent.label}</Chip>
            </label>
          </td>
        );
      })}
      <td>
        {hasAnswers(view, server) ? (
          <Button
            size="sm"
            variant="ghost"
            icon={<RestartIcon />}
            onClick={() => void resetRootConsent(server)}
            aria-label={`Ask ${server} again`}
          >
            Ask again
          </Button>
        ) : null}
      </td>
    </tr>
  );
}

/** One server's roots, for its Roots tab: which it sees, what the person answered, and "Ask again". */
export function ServerRootsPanel({ server }: { server: string }) {
  const rootsView = useBerth((s) => s.rootsView);
  const setRootExposure = useBerth((s) => s.setRootExposure);
  const resetRootConsent = useBerth((s) => s.resetRootConsent);
  const showView = useBerth((s) => s.showView);
  if (!rootsView) return <p className="view-loading">Loading…</p>;
  if (rootsView.roots.length === 0) {
    return (
      <EmptyState
        icon={<FolderIcon />}
        title="No workspace roots yet"
        actions={
          <Button variant="primary" onClick={() => showView('roots')}>
            Open Workspace roots
          </Button>
        }
      >
        Roots are the folders your servers may see. Add some, then choose here which ones this server gets.
      </EmptyState>
    );
  }
  const exposure = exposureOf(rootsView, server);
  const allIds = rootsView.roots.map((r) => r.id);
  return (
    <div className="server-roots" data-testid="server-roots">
      <div className="server-roots-head">
        <label className="switch-wrap">
          <Switch
            label="See all roots, including ones added later"
            checked={exposure === 'all'}
            onCheckedChange={(on) => void setRootExposure(server, on ? 'all' : allIds)}
          />
          <span>All roots, including ones added later</span>
        </label>
        <span className="muted small">{exposureSummary(exposure, allIds.length)}</span>
        <div className="spacer" />
        {hasAnswers(rootsView, server) ? (
          <Button size="sm" icon={<RestartIcon />} onClick={() => void resetRootConsent(server)}>
            Ask again for all
          </Button>
        ) : null}
      </div>
      <List aria-label={`Roots ${server} may see`}>
        {rootsView.roots.map((root) => {
          const state = consentState(rootsView, server, root.id);
          const consent = CONSENT_LABELS[state];
          return (
            <Row key={root.id} dense aria-label={root.name} data-root={root.name}>
              <input
                type="checkbox"
                checked={seesRoot(exposure, root.id)}
                aria-label={`${server} sees ${root.name}`}
                onChange={(event) =>
                  void setRootExposure(server, toggleExposure(exposure, allIds, root.id, event.target.checked))
                }
              />
              <div className="root-main">
                <div className="root-title">
                  <span className="root-name">{root.name}</span>
                  {root.missing ? <Chip tone="danger">missing</Chip> : null}
                  <Chip tone={consent.tone === 'neutral' ? undefined : consent.tone} title={consent.hint}>
                    {consent.label}
                  </Chip>
                </div>
                <span className="root-path">{root.path}</span>
              </div>
              {state === 'not-asked' ? null : (
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => void resetRootConsent(server, [root.id])}
                  aria-label={`Ask again about ${root.name}`}
                >
                  Ask again
                </Button>
              )}
            </Row>
          );
        })}
      </List>
    </div>
  );
}
