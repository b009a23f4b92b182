import { useCallback, useEffect, useState } from 'react';
import type { ResourceInfo, ResourceTemplateInfo } from '../../../shared/contract/resources';
import type { ServerState } from '../../../shared/domain';
import type { Failure } from '../../../shared/result';
import { resourceKey, useBerth } from '../../store';
import { formatBytes } from '../../i18n/format';
import { failureText } from '../../i18n/host-message';
import { useT } from '../../i18n/use-t';
import { Button, Chip, EmptyState } from '../../ui/controls';
import { ChevronDownIcon, ChevronRightIcon, LinkIcon } from '../../ui/icons';
import { declaresCapability } from './resource-model';
import { ResourceTemplateForm } from './resource-template-form';
import { ResourceViewer, type OpenResource } from './resource-viewer';
import { ChoiceRow, List } from '../../ui/list';

interface Paged<T> {
  items: T[];
  nextCursor: string | undefined;
  loading: boolean;
  /** Worded where shown, so a language switch re-words it. */
  error: Failure | undefined;
}

const EMPTY_PAGE = { items: [], nextCursor: undefined, loading: true, error: undefined };

/** One server's resources and templates, page by page, as the host lists them. */
function usePagedList<T>(
  load: (cursor: string | undefined) => Promise<{ ok: true; value: { items: T[]; nextCursor?: string } } | Failure>,
  reloadKey: string,
) {
  const [page, setPage] = useState<Paged<T>>(EMPTY_PAGE);
  const fetchPage = useCallback(
    async (cursor: string | undefined) => {
      setPage((previous) => ({ ...(cursor === undefined ? EMPTY_PAGE : previous), loading: true, error: undefined }));
      const result = await load(cursor);
      setPage((previous) =>
        result.ok
          ? {
              items: cursor === undefined ? result.value.items : [...previous.items, ...result.value.items],
              nextCursor: result.value.nextCursor,
              loading: false,
              error: undefined,
            }
          : { ...previous, loading: false, error: result },
      );
    },
    [load],
  );
  useEffect(() => {
    void fetchPage(undefined);
  }, [fetchPage, reloadKey]);
  return { page, loadMore: () => void fetchPage(page.nextCursor) };
}

/** The Resources tab of a server: lists on the left, the open resource on the right. */
export function ResourceBrowser({ server }: { server: ServerState }) {
  const ready = server.status === 'ready';
  const t = useT();
  if (!ready || !declaresCapability(server, 'resources')) {
    return (
      <EmptyState
        icon={<LinkIcon />}
        title={ready ? t('resources.browser.noneOffered') : t('resources.browser.notYet')}
      >
        {ready ? t('resources.browser.noCapability') : t('resources.browser.waitReady')}
      </EmptyState>
    );
  }
  // Keyed by session, so a restart starts from a fresh first page.
  return <ReadyResourceBrowser key={`${server.name}:${server.readySince}`} server={server} />;
}

function ReadyResourceBrowser({ server }: { server: ServerState }) {
  const name = server.name;
  const t = useT();
  const listResources = useBerth((s) => s.listResources);
  const listResourceTemplates = useBerth((s) => s.listResourceTemplates);
  const loadResourceSubscriptions = useBerth((s) => s.loadResourceSubscriptions);
  const listVersion = useBerth((s) => s.resourceListVersions[name] ?? 0);
  const focus = useBerth((s) => s.resourceFocus);
  const clearResourceFocus = useBerth((s) => s.clearResourceFocus);
  const updates = useBerth((s) => s.resourceUpdates);
  const [open, setOpen] = useState<OpenResource | undefined>(undefined);
  const [openTemplate, setOpenTemplate] = useState<string | undefined>(undefined);

  const loadResources = useCallback(
    async (cursor: string | undefined) => {
      const result = await listResources({ server: name, ...(cursor !== undefined ? { cursor } : {}) });
      return result.ok
        ? {
            ok: true as const,
            value: {
              items: result.value.resources,
              ...(result.value.nextCursor !== undefined ? { nextCursor: result.value.nextCursor } : {}),
            },
          }
        : result;
    },
    [listResources, name],
  );
  const loadTemplates = useCallback(
    async (cursor: string | undefined) => {
      const result = await listResourceTemplates({ server: name, ...(cursor !== undefined ? { cursor } : {}) });
      return result.ok
        ? {
            ok: true as const,
            value: {
              items: result.value.resourceTemplates,
              ...(result.value.nextCursor !== undefined ? { nextCursor: result.value.nextCursor } : {}),
            },
          }
        : result;
    },
    [listResourceTemplates, name],
  );
  const resources = usePagedList<ResourceInfo>(loadResources, String(listVersion));
  const templates = usePagedList<ResourceTemplateInfo>(loadTemplates, String(listVersion));

  useEffect(() => {
    void loadResourceSubscriptions(name);
  }, [loadResourceSubscriptions, name]);

  // "Open in resource browser" from a chat tool result.
  useEffect(() => {
    if (focus === undefined || focus.server !== name) return;
    setOpen({ uri: focus.uri, label: resources.page.items.find((item) => item.uri === focus.uri)?.name ?? focus.uri });
    clearResourceFocus();
  }, [focus, name, clearResourceFocus, resources.page.items]);

  return (
    <div className="resource-browser">
      <div className="resource-lists">
        <section aria-labelledby={`${name}-resources`}>
          <h3 id={`${name}-resources`} className="resource-section-title">
            {t('resources.browser.resources')}
          </h3>
          {resources.page.error !== undefined ? (
            <p className="resource-error" role="alert">
              {failureText(resources.page.error)}
            </p>
          ) : null}
          {!resources.page.loading && resources.page.items.length === 0 && resources.page.error === undefined ? (
            <p className="muted small">
              {templates.page.items.length > 0 ? t('resources.browser.noneTryTemplate') : t('resources.browser.none')}
            </p>
          ) : null}
          <List look="choices" className="resource-list" aria-label={t('resources.browser.resources')}>
            {resources.page.items.map((item) => (
              <ChoiceRow
                key={item.uri}
                selected={open?.uri === item.uri}
                onClick={() => setOpen({ uri: item.uri, label: item.title ?? item.name })}
              >
                <span className="resource-item-name">
                  {item.title ?? item.name}
                  {(updates[resourceKey(name, item.uri)] ?? 0) > 0 ? (
                    <span className="resource-dot" aria-label={t('resources.browser.updated')} />
                  ) : null}
                </span>
                <span className="resource-item-meta">
                  {item.mimeType ?? t('resources.browser.unknownType')}
                  {item.size !== undefined ? ` · ${formatBytes(item.size)}` : ''}
                </span>
              </ChoiceRow>
            ))}
          </List>
          {resources.page.loading ? <p className="muted small">{t('resources.browser.loading')}</p> : null}
          {resources.page.nextCursor !== undefined && !resources.page.loading ? (
            <Button size="sm" onClick={resources.loadMore}>
              {t('resources.browser.loadMore')}
            </Button>
          ) : null}
        </section>

        <section aria-labelledby={`${name}-templates`}>
          <h3 id={`${name}-templates`} className="resource-section-title">
            {t('resources.browser.templates')}
          </h3>
          {templates.page.error !== undefined ? (
            <p className="resource-error" role="alert">
              {failureText(templates.page.error)}
            </p>
          ) : null}
          {!templates.page.loading && templates.page.items.length === 0 && templates.page.error === undefined ? (
            <p className="muted small">{t('resources.browser.noTemplates')}</p>
          ) : null}
          <List look="choices" className="resource-list" aria-label={t('resources.browser.templates')}>
            {templates.page.items.map((template) => {
              const expanded = openTemplate === template.uriTemplate;
              return (
                <ChoiceRow
                  key={template.uriTemplate}
                  rowClassName="resource-template"
                  aria-expanded={expanded}
                  onClick={() => setOpenTemplate(expanded ? undefined : template.uriTemplate)}
                  after={
                    expanded ? (
                      <ResourceTemplateForm
                        server={name}
                        template={template}
                        completions={declaresCapability(server, 'completions')}
                        onOpen={(uri) => setOpen({ uri, label: uri })}
                      />
                    ) : null
                  }
                >
                  <span className="resource-item-name">
                    {expanded ? <ChevronDownIcon /> : <ChevronRightIcon />} {template.title ?? template.name}
                  </span>
                  <code className="resource-item-meta">{template.uriTemplate}</code>
                </ChoiceRow>
              );
            })}
          </List>
          {templates.page.nextCursor !== undefined && !templates.page.loading ? (
            <Button size="sm" onClick={templates.loadMore}>
              {t('resources.browser.loadMore')}
            </Button>
          ) : null}
        </section>
        {declaresCapability(server, 'resources', 'subscribe') ? null : (
          <Chip title={t('resources.browser.noSubscribeHint')}>{t('resources.browser.noSubscribe')}</Chip>
        )}
      </div>
      <ResourceViewer server={name} open={open} canSubscribe={declaresCapability(server, 'resources', 'subscribe')} />
    </div>
  );
}
