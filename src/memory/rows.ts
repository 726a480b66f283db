// Row ↔ shape mapping for memory_items. Scope columns store '' for "none"; shapes show null.
import type { MemoryItem, MemoryKind } from './model.js';

export interface ItemRow {
  rowid: number;
  id: string;
  kind: MemoryKind;
  tenant_id: string;
  team_id: string;
  agent_id: string;
  vault: string;
  parent_id: string | null;
  name: string | null;
  version: number;
  title: string;
  content: string;
  tags: string;
  content_hash: string;
  meta: string;
  lifecycle: string;
  pinned: number;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

const orNull = (v: string): string | null => (v === '' ? null : v);
const iso = (ms: number): string => new Date(ms).toISOString();

export function parseTags(raw: string): string[] {
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

export function toItem(row: ItemRow): MemoryItem {
  const item: MemoryItem = {
    id: row.id,
    kind: row.kind,
    title: row.title,
    content: row.content,
    tags: parseTags(row.tags),
    tenantId: orNull(row.tenant_id),
    teamId: orNull(row.team_id),
    agentId: orNull(row.agent_id),
    contentHash: row.content_hash,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
  if (row.kind === 'procedure' && row.name !== null) {
    item.procedureName = row.name;
    item.version = row.version;
  }
  return item;
}
