// Small durable state in the kv table (cursors, coverage): JSON values by key.
import { inChunks } from './bulk';
import type { Sql } from './db';

/** The value stored under `key` if it is a JSON object (else undefined: not ours to read, start over). */
export async function readKv<T>(db: Sql, key: string): Promise<Partial<T> | undefined> {
  const row = await db.get<{ value: string }>('SELECT value FROM kv WHERE key = ?', [key]);
  try {
    const value: unknown = row ? JSON.parse(row.value) : undefined;
    return typeof value === 'object' && value !== null ? (value as Partial<T>) : undefined;
  } catch {
    return undefined;
  }
}

export async function writeKv(db: Sql, key: string, value: unknown): Promise<void> {
  await db.run('INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, JSON.stringify(value)]);
}

/** Deletes `keys` (any not there are no matter). */
export async function deleteKv(db: Sql, keys: string[]): Promise<void> {
  for (const [placeholders, chunk] of inChunks(keys, 500)) await db.run(`DELETE FROM kv WHERE key IN (${placeholders})`, chunk);
}
