import { useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useBerth } from '../../store';
import { declaresCapability } from '../resources/resource-model';
import type { MentionResource } from './mention-model';
import type { HostMessage } from '../../../shared/domain/host-message';

/** Pages read per server for the `@` menu: enough for any hand-made list, bounded for a server that lists thousands. */
const MAX_PAGES_PER_SERVER = 20;

export interface MentionCatalog {
  /** Undefined while the first read runs. */
  resources: MentionResource[] | undefined;
  /** Ready servers that offer resources, in the order of the server list. */
  servers: string[];
  /** Servers whose list could not be read, with why. */
  problems: { server: string; message: string; hostMessage?: HostMessage | undefined }[];
}

/**
 * The resources of every ready server that declares them, read when the `@`
 * menu opens and again when a server restarts or says its list changed.
 */
export function useMentionResources(active: boolean): MentionCatalog {
  const listResources = useBerth((s) => s.listResources);
  const listResourceTemplates = useBerth((s) => s.listResourceTemplates);
  // "name@session@listVersion" per server: any change re-reads the lists.
  const sources = useBerth(
    useShallow((s) =>
      Object.values(s.servers)
        .filter((server) => server.status === 'ready' && declaresCapability(server, 'resources'))
        .map(
          (server) =>
            `${server.name}\u0000${declaresCapability(server, 'completions') ? 'c' : ''}\u0000${server.status === 'ready' ? server.readySince : 0}\u0000${s.resourceListVersions[server.name] ?? 0}`,
        ),
    ),
  );
  const sourcesKey = sources.join('\n');
  const entries = useMemo(
    () =>
      sources.map((source) => ({
        name: source.split('\u0000')[0] ?? '',
        completions: source.split('\u0000')[1] === 'c',
      })),
    [sources],
  );
  const servers = useMemo(() => entries.map((entry) => entry.name), [entries]);
  const [catalog, setCatalog] = useState<{
    key: string;
    resources: MentionResource[];
    problems: MentionCatalog['problems'];
  }>();

  useEffect(() => {
    if (!active || catalog?.key === sourcesKey) return;
    let cancelled = false;
    void (async () => {
      const lists = await Promise.all(
        entries.map(async ({ name: server, completions }) => {
          const resources: MentionResource[] = [];
          let cursor: string | undefined;
          for (let page = 0; page < MAX_PAGES_PER_SERVER; page += 1) {
            const result = await listResources(cursor === undefined ? { server } : { server, cursor });
            if (!result.ok) return { server, resources, problem: result };
            resources.push(...result.value.resources.map((resource) => ({ ...resource, server })));
            cursor = result.value.nextCursor;
            if (cursor === undefined) break;
          }
          // Templates after the resources (one page: servers keep few); a server without any may answer an error.
          const templates = await listResourceTemplates({ server });
          if (templates.ok) {
            for (const { uriTemplate, ...template } of templates.value.resourceTemplates)
              resources.push({ ...template, uri: uriTemplate, server, template: { completions } });
          }
          return { server, resources, problem: undefined };
        }),
      );
      if (cancelled) return;
      setCatalog({
        key: sourcesKey,
        resources: lists.flatMap((list) => list.resources),
        problems: lists.flatMap((list) =>
          list.problem === undefined
            ? []
            : [{ server: list.server, message: list.problem.message, hostMessage: list.problem.hostMessage }],
        ),
      });
    })();
    return () => {
      cancelled = true;
    };
  }, [active, catalog?.key, sourcesKey, entries, listResources, listResourceTemplates]);

  // A stale list is still shown while the fresh one is read: better than an empty menu.
  return { resources: catalog?.resources, servers, problems: catalog?.problems ?? [] };
}
