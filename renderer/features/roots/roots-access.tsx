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
import { useT } from '../../i18n/use-t';

/** Which server sees which root, and what the person answered, as one matrix (servers × roots). */
export function RootsAccess() {
  const rootsView = useBerth((s) => s.rootsView);
  const servers = useBerth(useShallow((s) => sortServers(s.servers).map((server) => server.name)));
  const t = useT();
  if (!rootsView || rootsView.roots.length === 0) return null;
  return (
    <section className="settings-section" aria-labelledby="roots-access-title">
      <header className="settings-section-head">
        <h2 id="roots-access-title">
          <ServerIcon /> {t('roots.access.title')}
        </h2>
      </header>
      <p className="settings-text">{t('roots.access.intro')}</p>
      {servers.length === 0 ? (
        <p className="settings-empty">{t('roots.access.noServers')}</p>
      ) : (
        <div className="roots-matrix-wrap">
          <table className="roots-matrix" aria-label={t('roots.access.matrix')}>
            <thead>
              <tr>
                <th scope="col">{t('roots.access.server')}</th>
                <th scope="col">{t('roots.access.allRoots')}</th>
                {rootsView.roots.map((root) => (
                  <th scope="col" key={root.id} title={root.path}>
                    {root.name}
                    {root.missing ? <span className="matrix-missing"> {t('roots.access.missing')}</span> : null}
                  </th>
                ))}
                <th scope="col">
                  <span className="sr-only">{t('roots.access.answers')}</span>
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
      {servers.length > 0 ? <p className="field-hint">{t('roots.access.hint')}</p> : null}
    </section>
  );
}

function AccessRow({ view, server }: { view: RootsView; server: string }) {
  const setRootExposure = useBerth((s) => s.setRootExposure);
  const resetRootConsent = useBerth((s) => s.resetRootConsent);
  const exposure = exposureOf(view, server);
  const allIds = view.roots.map((r) => r.id);
  const t = useT();
  return (
    <tr data-server={server}>
      <th scope="row">{server}</th>
      <td>
        <Switch
          label={t('roots.access.seesAll', { server })}
          checked={exposure === 'all'}
          onCheckedChange={(on) => void setRootExposure(server, on ? 'all' : allIds)}
        />
      </td>
      {view.roots.map((root) => {
        const consent = CONSENT_LABELS[consentState(view, server, root.id)];
        return (
          <td key={root.id}>
            <label className="matrix-cell" title={t(consent.hint)}>
              <input
                type="checkbox"
                checked={seesRoot(exposure, root.id)}
                aria-label={t('roots.access.sees', { server, name: root.name })}
                onChange={(event) =>
                  void setRootExposure(server, toggleExposure(exposure, allIds, root.id, event.target.checked))
                }
              />
              <Chip tone={consent.tone === 'neutral' ? undefined : consent.tone}>{t(consent.label)}</Chip>
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
            aria-label={t('roots.access.askServerAgain', { server })}
          >
            {t('roots.access.askAgain')}
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
  const t = useT();
  if (!rootsView) return <p className="view-loading">{t('roots.view.loading')}</p>;
  if (rootsView.roots.length === 0) {
    return (
      <EmptyState
        icon={<FolderIcon />}
        title={t('roots.view.empty.title')}
        actions={
          <Button variant="primary" onClick={() => showView('roots')}>
            {t('roots.panel.open')}
          </Button>
        }
      >
        {t('roots.panel.empty')}
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
            label={t('roots.panel.seeAll')}
            checked={exposure === 'all'}
            onCheckedChange={(on) => void setRootExposure(server, on ? 'all' : allIds)}
          />
          <span>{t('roots.panel.allRoots')}</span>
        </label>
        <span className="muted small">{exposureSummary(exposure, allIds.length)}</span>
        <div className="spacer" />
        {hasAnswers(rootsView, server) ? (
          <Button size="sm" icon={<RestartIcon />} onClick={() => void resetRootConsent(server)}>
            {t('roots.panel.askAgainAll')}
          </Button>
        ) : null}
      </div>
      <List aria-label={t('roots.panel.list', { server })}>
        {rootsView.roots.map((root) => {
          const state = consentState(rootsView, server, root.id);
          const consent = CONSENT_LABELS[state];
          return (
            <Row key={root.id} dense aria-label={root.name} data-root={root.name}>
              <input
                type="checkbox"
                checked={seesRoot(exposure, root.id)}
                aria-label={t('roots.access.sees', { server, name: root.name })}
                onChange={(event) =>
                  void setRootExposure(server, toggleExposure(exposure, allIds, root.id, event.target.checked))
                }
              />
              <div className="root-main">
                <div className="root-title">
                  <span className="root-name">{root.name}</span>
                  {root.missing ? <Chip tone="danger">{t('roots.row.missingChip')}</Chip> : null}
                  <Chip tone={consent.tone === 'neutral' ? undefined : consent.tone} title={t(consent.hint)}>
                    {t(consent.label)}
                  </Chip>
                </div>
                <span className="root-path">{root.path}</span>
              </div>
              {state === 'not-asked' ? null : (
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => void resetRootConsent(server, [root.id])}
                  aria-label={t('roots.panel.askAgainAbout', { name: root.name })}
                >
                  {t('roots.access.askAgain')}
                </Button>
              )}
            </Row>
          );
        })}
      </List>
    </div>
  );
}
