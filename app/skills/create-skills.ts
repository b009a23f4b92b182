import type { EventHub } from '../events/event-hub';
import type { RootsService } from '../roots/roots-service';
import type { PendingRequests } from '../pending/pending-requests';
import type { ServerLifecycle } from '../servers/server-lifecycle';
import type { SkillServers } from './skill-catalog';
import { SkillsService } from './skills-service';

export interface CreateSkillsOptions {
  lifecycle: Pick<ServerLifecycle, 'register'>;
  servers: SkillServers;
  pending: PendingRequests;
  stateDir: string;
  events: Pick<EventHub, 'emit'>;
  warn(text: string): void;
  /** The roots, once open (they open after the services): which folders each server sees. */
  roots: () => Pick<RootsService, 'view'> | undefined;
}

/** The folders a server is given: every root unless the person limited it to some (by id). */
function rootsOf(roots: Pick<RootsService, 'view'> | undefined, server: string): string[] {
  if (roots === undefined) return [];
  const view = roots.view();
  const exposure = view.exposure[server] ?? 'all';
  return view.roots
    .filter((root) => !root.missing && (exposure === 'all' || exposure.includes(root.id)))
    .map((root) => root.path);
}

/** MCP skills for one host (host.ts calls this once). */
export function createSkills(options: CreateSkillsOptions): SkillsService {
  return new SkillsService({
    lifecycle: options.lifecycle,
    servers: options.servers,
    pending: options.pending,
    stateDir: options.stateDir,
    onChange: (catalog) => options.events.emit('skills.changed', catalog),
    warn: options.warn,
    rootsOf: (server) => rootsOf(options.roots(), server),
  });
}
