import type { Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { ServerState } from '../../shared/domain/server';
import type { SkillCatalog, SkillInfo } from '../../shared/domain/skills';
import { errorMessage } from '../../shared/error-message';
import type { ServerLifecycleListener } from '../servers/server-lifecycle';
import type { ServerRequest } from '../servers/supervised-server';
import { declaresSkillsExtension } from '../../shared/domain/skills-extension';
import { checkEntry, skillPath, type RefusedEntry, type SkillEntry } from './skill-entry';
import { nameCollisions, qualifiedNames, type NamedSkill } from './skill-names';

/** The supervisor as skills use it (ServerSupervisor fits). */
export interface SkillServers {
  get(name: string): ServerState | undefined;
  list(): ServerState[];
  request<T>(name: string, request: ServerRequest, send: (client: Client, timeoutMs: number) => Promise<T>): Promise<T>;
}

/** Any JSON object: the entry checks are ours (skill-entry.ts), so junk gets Berth's words. */
const AnyObject = z.looseObject({});
/** skills/list pages followed; a server that keeps sending cursors is cut off. */
const MAX_PAGES = 50;

/** One skill of one server, as the catalog holds it. */
export interface HeldSkill extends NamedSkill {
  /** The checked entry; undefined when refused. */
  entry?: SkillEntry;
  refused?: RefusedEntry;
}

interface ServerSkills {
  readySince: number | undefined;
  skills: HeldSkill[];
  problem?: string;
  /** Bumped on each listing so an older, slower answer cannot overwrite a newer one. */
  generation: number;
}

/** Whether a server's capabilities declare the skills extension. */
export function declaresSkills(state: ServerState): boolean {
  return state.status === 'ready' && declaresSkillsExtension(state.capabilities);
}

/** Sends one raw request of the extension through the supervisor (reconnects and timeouts as for any request). */
export async function sendSkillRequest(
  servers: SkillServers,
  server: string,
  request: ServerRequest,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  return servers.request(server, request, (client, timeoutMs) =>
    client.request({ method: request.method, params } as Parameters<Client['request']>[0], AnyObject, {
      timeout: timeoutMs,
    }),
  );
}

/**
 * Every ready server's skills, from `skills/list` (all pages) when the
 * server becomes ready and again when its resources change (skills are
 * resources; the extension has no list_changed of its own). Only the
 * entries are read: no skill file is fetched ahead of need (the spec's lazy
 * retrieval).
 */
export class SkillCatalogService implements ServerLifecycleListener {
  private readonly byServer = new Map<string, ServerSkills>();
  /** The listing under way per server, the newest. */
  private readonly listing = new Map<string, Promise<void>>();
  readonly listChanged = { resources: (server: string): void => void this.refresh(server) };

  constructor(
    private readonly servers: SkillServers,
    private readonly onChange: () => void,
  ) {}

  serverChanged(state: ServerState): void {
    const known = this.byServer.get(state.name);
    if (state.status !== 'ready' || !declaresSkills(state)) {
      if (known !== undefined) {
        this.byServer.delete(state.name);
        this.onChange();
      }
      return;
    }
    if (known?.readySince === state.readySince) return;
    void this.refresh(state.name);
  }

  serverRemoved(server: string): void {
    if (this.byServer.delete(server)) this.onChange();
  }

  /** Lists the server's skills again (also after a file failed verification: the entry may be stale). */
  async refresh(server: string): Promise<void> {
    const run = this.relist(server);
    this.listing.set(server, run);
    try {
      await run;
    } finally {
      if (this.listing.get(server) === run) this.listing.delete(server);
    }
  }

  /**
   * Resolves once the listing of this server under way (if any) has ended. A load waits for it: the
   * server said its skills changed, and the entry held until the new list is in is the one replaced
   * (loading by it found the old approval and then a file that no longer matched, instead of asking).
   */
  async listed(server: string): Promise<void> {
    for (let run = this.listing.get(server); run !== undefined; run = this.listing.get(server))
      await run.catch(() => undefined);
  }

  private async relist(server: string): Promise<void> {
    const state = this.servers.get(server);
    if (state === undefined || state.status !== 'ready' || !declaresSkills(state)) return;
    const generation = (this.byServer.get(server)?.generation ?? 0) + 1;
    const record: ServerSkills = {
      readySince: state.readySince,
      skills: this.byServer.get(server)?.skills ?? [],
      generation,
    };
    this.byServer.set(server, record);
    try {
      const skills = await this.listAll(server);
      if (this.byServer.get(server)?.generation !== generation) return;
      this.byServer.set(server, { readySince: state.readySince, skills, generation });
    } catch (error) {
      if (this.byServer.get(server)?.generation !== generation) return;
      this.byServer.set(server, {
        readySince: state.readySince,
        skills: [],
        generation,
        problem: `its skills could not be listed: ${errorMessage(error)}`,
      });
    }
    this.onChange();
  }

  /** The held skill of this server and SKILL.md URI. */
  find(server: string, uri: string): HeldSkill | undefined {
    return this.byServer.get(server)?.skills.find((skill) => skill.uri === uri);
  }

  /** Every held skill, in server then name order. */
  all(): HeldSkill[] {
    return [...this.byServer.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .flatMap(([, record]) =>
        [...record.skills].sort((a, b) => a.name.localeCompare(b.name) || a.uri.localeCompare(b.uri)),
      );
  }

  /** The catalog as the renderer and the model see it; `state` says what the person's approval covers. */
  catalog(state: (skill: HeldSkill) => Pick<SkillInfo, 'state' | 'problem'>): SkillCatalog {
    const skills = this.all();
    const names = qualifiedNames(skills);
    const collisions = nameCollisions(skills);
    const problems = [...this.byServer.entries()].flatMap(([server, record]) =>
      record.problem === undefined ? [] : [{ server, problem: record.problem }],
    );
    return {
      skills: skills.map((skill) => {
        const files = skill.entry?.files ?? [];
        const root = skill.uri.slice(0, -'SKILL.md'.length);
        return {
          server: skill.server,
          uri: skill.uri,
          name: skill.name,
          qualifiedName: names.get(skill) ?? `${skill.server}/${skill.name}`,
          description: skill.entry?.frontmatter.description ?? '',
          files: files.map((file) => ({
            uri: file.uri,
            path: file.uri.startsWith(root) ? file.uri.slice(root.length) : file.uri,
            size: file.size,
          })),
          totalBytes: files.reduce((sum, file) => sum + file.size, 0),
          sameNameOn: collisions.get(skill) ?? [],
          ...state(skill),
        };
      }),
      problems,
    };
  }

  private async listAll(server: string): Promise<HeldSkill[]> {
    const held: HeldSkill[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const result = await sendSkillRequest(
        this.servers,
        server,
        { method: 'skills/list', what: '', action: 'list its skills' },
        cursor === undefined ? {} : { cursor },
      );
      if (!Array.isArray(result.skills)) throw new Error('its skills/list answer has no skills array');
      for (const raw of result.skills as unknown[]) {
        const checked = checkEntry(raw);
        const uri = checked.ok ? checked.entry.uri : checked.refused.uri;
        // The same URI twice in one listing: the first entry counts.
        if (seen.has(uri)) continue;
        seen.add(uri);
        const name = checked.ok
          ? checked.entry.frontmatter.name
          : (checked.refused.name ?? skillPath(uri).split('/').at(-1) ?? uri);
        held.push(
          checked.ok ? { server, uri, name, entry: checked.entry } : { server, uri, name, refused: checked.refused },
        );
      }
      cursor = typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
      if (cursor === undefined) break;
    }
    return held;
  }
}
