import type { Client } from '@modelcontextprotocol/client';
import type { ChatAttachment } from '../../shared/domain/chat';
import type { SkillCatalog, SkillInfo } from '../../shared/domain/skills';
import { HostError } from '../../shared/result';
import type { ServerEdit } from '../consent/consent-broker';
import type { PendingRequests } from '../pending/pending-requests';
import type { ServerLifecycle, ServerLifecycleListener } from '../servers/server-lifecycle';
import { SkillApprovals } from './skill-approvals';
import { SkillCatalogService, type HeldSkill, type SkillServers } from './skill-catalog';
import { SKILLS_EXTENSION_ID } from './skill-entry';
import { SkillLoader, type LoadOptions, type SkillOutcome } from './skill-loader';
import { manifestDigest } from './skill-manifest';

export interface SkillsServiceOptions {
  servers: SkillServers;
  pending: PendingRequests;
  lifecycle: Pick<ServerLifecycle, 'register'>;
  /** The host's state folder (skill-approvals.json); none: approvals last for this run only. */
  stateDir?: string;
  /** The whole catalog after every change (the `skills.changed` topic). */
  onChange(catalog: SkillCatalog): void;
  warn(text: string): void;
  rootsOf?(server: string): readonly string[];
}

/**
 * Declares the skills extension on every client before it connects. The
 * spec defines no client settings, so the value is `{}`; in the initialize
 * era it goes out in `initialize`, in the 2026-07-28 era in every request's
 * `_meta` capabilities (the SDK puts registered capabilities in both).
 */
export function declareSkillsExtension(client: Client): void {
  client.registerCapabilities({ extensions: { [SKILLS_EXTENSION_ID]: {} } });
}

/**
 * MCP skills (SEP-2640) for one host, behind one seam: the catalog of ready
 * servers' skills, the person's manifest-bound approvals, and the loading
 * path that checks every fetched file. The model reaches it through host
 * tools (skill-tools.ts), the person through the composer (skills.attach).
 */
export class SkillsService {
  private readonly catalogService: SkillCatalogService;
  private readonly approvals: SkillApprovals;
  private readonly loader: SkillLoader;

  constructor(private readonly options: SkillsServiceOptions) {
    this.approvals = new SkillApprovals({
      ...(options.stateDir === undefined ? {} : { stateDir: options.stateDir }),
      warn: options.warn,
    });
    this.catalogService = new SkillCatalogService(options.servers, () => this.announce());
    this.loader = new SkillLoader({
      servers: options.servers,
      catalog: this.catalogService,
      approvals: this.approvals,
      pending: options.pending,
      info: (server, uri) => this.catalog().skills.find((skill) => skill.server === server && skill.uri === uri),
      ...(options.rootsOf === undefined ? {} : { rootsOf: options.rootsOf }),
      onChange: () => this.announce(),
    });
    const declaration: ServerLifecycleListener = { clientSetup: (_server, client) => declareSkillsExtension(client) };
    options.lifecycle.register(declaration);
    options.lifecycle.register(this.catalogService);
    options.lifecycle.register({ serverRemoved: (server) => this.forgetServer(server) });
    // Stored approvals change the states shown.
    void this.approvals.ready().then(() => this.announce());
  }

  catalog(): SkillCatalog {
    return this.catalogService.catalog((skill) => this.stateOf(skill));
  }

  /** Lists a server's skills again (what becoming ready or a resources list change does). */
  refresh(server: string): Promise<void> {
    return this.catalogService.refresh(server);
  }

  /** The skill a model or the composer names by its qualified name (`server/name`). */
  byQualifiedName(name: string): SkillInfo | undefined {
    return this.catalog().skills.find((skill) => skill.qualifiedName === name);
  }

  load(server: string, uri: string, options: LoadOptions): Promise<SkillOutcome> {
    return this.loader.load(server, uri, options);
  }

  readFile(server: string, uri: string, path: string, options: LoadOptions): Promise<SkillOutcome> {
    return this.loader.readFile(server, uri, path, options);
  }

  /** The person picked a skill in the composer: the loaded, tagged text as a chat attachment. */
  async attach(server: string, uri: string, conversationId: string | undefined): Promise<ChatAttachment> {
    const outcome = await this.load(server, uri, {
      requestedBy: 'person',
      ...(conversationId === undefined ? {} : { conversationId }),
    });
    // The outcome's own code (skills-errors.*, problemMessage) travels on: this only makes it a failure.
    if (!outcome.ok) throw new HostError('SERVER_ERROR', outcome.problem, undefined, outcome.problemMessage);
    return {
      server,
      label: `Skill ${outcome.skill.qualifiedName}`,
      content: { type: 'resource', resource: { uri, mimeType: 'text/markdown', text: outcome.text } },
    };
  }

  /**
   * The person edited a server in Berth (before the sync moves it): a rename carries its skills' approvals and
   * loads over; a new command or address keeps them only if the person said so (as tool permissions do).
   */
  async serverEdited(edit: ServerEdit): Promise<void> {
    const sameServer = edit.fromIdentity === edit.toIdentity;
    if (!sameServer && !edit.keep) this.forgetServer(edit.from);
    else if (edit.from !== edit.to) {
      this.approvals.renameServer(edit.from, edit.to);
      this.loader.renameServer(edit.from, edit.to);
    }
    await this.approvals.flush();
  }

  /** A conversation was deleted: the skills loaded in it are no longer held. */
  forgetConversation(conversationId: string): void {
    this.loader.forgetConversation(conversationId);
  }

  /** Approvals written. */
  flush(): Promise<void> {
    return this.approvals.flush();
  }

  private forgetServer(server: string): void {
    this.approvals.forgetServer(server);
    this.loader.forgetServer(server);
  }

  private stateOf(skill: HeldSkill): Pick<SkillInfo, 'state' | 'problem'> {
    if (skill.entry === undefined)
      return { state: 'refused', problem: skill.refused?.problem ?? 'its entry is invalid' };
    const manifest = manifestDigest(skill.entry);
    if (this.approvals.covering(skill.server, skill.uri, manifest) !== undefined) return { state: 'approved' };
    return { state: this.approvals.approvedBefore(skill.server, skill.uri, manifest) ? 'changed' : 'available' };
  }

  private announce(): void {
    this.options.onChange(this.catalog());
  }
}
