import type { Client } from '@modelcontextprotocol/client';
import type { ServerState } from '../../shared/domain/server';
import type { ServerRequest } from '../servers/supervised-server';

/** The supervisor as events use it (ServerSupervisor fits). */
export interface EventServers {
  get(name: string): ServerState | undefined;
  isCurrentClient(name: string, client: Client): boolean;
  request<T>(name: string, request: ServerRequest, send: (client: Client, timeoutMs: number) => Promise<T>): Promise<T>;
}
