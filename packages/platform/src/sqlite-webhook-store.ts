/**
 * The default webhook store: one SQLite file (Node's built-in node:sqlite, WAL), durable on
 * commit, so a delivery answered with 200 survives a crash or power loss. node:sqlite needs no
 * native compile at install (better-sqlite3 compiled SQLite from source for minutes where no
 * prebuilt binary matched); it is unflagged from Node 22.13 and 23.4 (package.json's engines).
 */
import { createRequire } from 'node:module';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { PlatformError } from './errors.js';
import type { WebhookDelivery } from './webhook-delivery.js';
import type { PendingDelivery, RecordOutcome, WebhookStore } from './webhook-store.js';

export type DeliveryStatus = 'pending' | 'processed' | 'failed';

export interface StoredDelivery extends PendingDelivery {
  status: DeliveryStatus;
  lastError: string | undefined;
  /** Epoch ms when the delivery was recorded. */
  receivedAt: number;
}

export interface SqliteWebhookStore extends WebhookStore {
  /** Deliveries with the given status, oldest first, e.g. `list('failed')` for an operator. */
  list(status: DeliveryStatus): Promise<StoredDelivery[]>;
  /** Puts a failed delivery back to pending with a fresh attempt count; call `handler.recover()` next. */
  requeue(eventId: string): Promise<boolean>;
  close(): void;
}

const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id            INTEGER PRIMARY KEY,           -- recording order
  event_id      TEXT    NOT NULL UNIQUE,       -- domain event id: duplicate detection
  instance_id   TEXT    NOT NULL,
  event_type    TEXT    NOT NULL,
  entity_fqdn   TEXT    NOT NULL,
  entity_id     TEXT    NOT NULL,
  sequence      INTEGER NOT NULL,
  delivery_json TEXT    NOT NULL,              -- the verified, decoded delivery
  status        TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processed', 'failed')),
  attempts      INTEGER NOT NULL DEFAULT 0,
  last_error    TEXT,
  received_at   INTEGER NOT NULL,              -- epoch ms
  updated_at    INTEGER NOT NULL               -- epoch ms
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_by_status ON webhook_deliveries (status, id);
CREATE TABLE IF NOT EXISTS webhook_entity_sequences (
  instance_id   TEXT    NOT NULL,
  entity_fqdn   TEXT    NOT NULL,
  entity_id     TEXT    NOT NULL,
  last_sequence INTEGER NOT NULL,
  PRIMARY KEY (instance_id, entity_fqdn, entity_id)
);
`;

interface DeliveryRow {
  delivery_json: string;
  attempts: number;
  status: DeliveryStatus;
  last_error: string | null;
  received_at: number;
}

/**
 * Opens (creating if needed) the store at `filename`. The decoded delivery is
 * stored rather than the JWT, because a JWT's `exp` may pass before a
 * recovered delivery is processed.
 */
export function openSqliteWebhookStore(filename: string): SqliteWebhookStore {
  const db = openDatabase(filename);
  const sql = prepareStatements(db);

  const record = (delivery: WebhookDelivery): RecordOutcome => {
    const { event, instanceId } = delivery;
    if (sql.findEvent.get(event.id) !== undefined) return 'duplicate';
    const last = sql.lastSequence.get(instanceId, event.entityFqdn, event.entityId) as
      | { last_sequence: number }
      | undefined;
    if (last !== undefined && event.entityEventSequence <= last.last_sequence) return 'stale';
    sql.insertDelivery.run({
      eventId: event.id,
      instanceId,
      eventType: delivery.eventType,
      entityFqdn: event.entityFqdn,
      entityId: event.entityId,
      sequence: event.entityEventSequence,
      json: JSON.stringify(delivery),
      now: Date.now(),
    });
    sql.raiseSequence.run(instanceId, event.entityFqdn, event.entityId, event.entityEventSequence);
    return 'stored';
  };

  /** A pending delivery's attempt ended: `pending` again (to be retried), `processed` or `failed`. */
  const finish =
    (status: DeliveryStatus) =>
    async (eventId: string, error: string | null = null) => {
      sql.finishAttempt.run(status, error, Date.now(), eventId);
    };
  // node:sqlite is synchronous; the async wrappers only fit the WebhookStore interface.
  return {
    // IMMEDIATE takes the write lock up front, so two processes cannot both pass the duplicate check.
    record: async (delivery) => immediate(db, () => record(delivery)),
    pending: async () => rows(sql.byStatus, 'pending').map(({ delivery, attempts }) => ({ delivery, attempts })),
    startAttempt: async (eventId) =>
      (sql.startAttempt.get(Date.now(), eventId) as { attempts: number } | undefined)?.attempts,
    markAttemptFailed: finish('pending'),
    markProcessed: finish('processed'),
    markFailed: finish('failed'),
    list: async (status) => rows(sql.byStatus, status),
    requeue: async (eventId) => Number(sql.requeueFailed.run(Date.now(), eventId).changes) > 0,
    close: () => db.close(),
  };
}

/** Runs `work` in a BEGIN IMMEDIATE transaction: committed when it returns, rolled back when it throws. */
function immediate<T>(db: DatabaseSync, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/** The deliveries with a status, oldest first (node:sqlite returns plain records of SQL values). */
function rows(statement: StatementSync, status: DeliveryStatus): StoredDelivery[] {
  return (statement.all(status) as unknown as DeliveryRow[]).map((row) => ({
    delivery: JSON.parse(row.delivery_json) as WebhookDelivery,
    attempts: row.attempts,
    status: row.status,
    lastError: row.last_error ?? undefined,
    receivedAt: row.received_at,
  }));
}

/** Opens the file with durable settings and the current schema, or a PlatformError saying why it cannot. */
function openDatabase(filename: string): DatabaseSync {
  const { DatabaseSync: Driver } = loadDriver();
  let db: DatabaseSync | undefined;
  try {
    db = new Driver(filename);
    db.exec('PRAGMA journal_mode = WAL');
    // FULL: a commit is on disk before record() returns, which the 200 promises.
    db.exec('PRAGMA synchronous = FULL');
    db.exec('PRAGMA busy_timeout = 5000');
    const version = (db.prepare('PRAGMA user_version').get() as { user_version: number } | undefined)?.user_version;
    if (typeof version === 'number' && version > SCHEMA_VERSION) {
      throw new Error(
        `it has schema version ${version}, newer than this package's ${SCHEMA_VERSION}; upgrade @svc-docs/platform`,
      );
    }
    db.exec(SCHEMA);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  } catch (error) {
    if (db?.isOpen) db.close();
    throw new PlatformError(
      'invalid_argument',
      `cannot open the webhook store ${JSON.stringify(filename)}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return db;
}

/** The store's SQL, prepared once per open database. */
function prepareStatements(db: DatabaseSync) {
  return {
    findEvent: db.prepare('SELECT 1 AS found FROM webhook_deliveries WHERE event_id = ?'),
    lastSequence: db.prepare(
      'SELECT last_sequence FROM webhook_entity_sequences WHERE instance_id = ? AND entity_fqdn = ? AND entity_id = ?',
    ),
    insertDelivery: db.prepare(
      `INSERT INTO webhook_deliveries (event_id, instance_id, event_type, entity_fqdn, entity_id, sequence, delivery_json, received_at, updated_at)
     VALUES (@eventId, @instanceId, @eventType, @entityFqdn, @entityId, @sequence, @json, @now, @now)`,
    ),
    raiseSequence: db.prepare(
      `INSERT INTO webhook_entity_sequences (instance_id, entity_fqdn, entity_id, last_sequence) VALUES (?, ?, ?, ?)
     ON CONFLICT (instance_id, entity_fqdn, entity_id) DO UPDATE SET last_sequence = excluded.last_sequence`,
    ),
    byStatus: db.prepare(
      'SELECT delivery_json, attempts, status, last_error, received_at FROM webhook_deliveries WHERE status = ? ORDER BY id',
    ),
    startAttempt: db.prepare(
      "UPDATE webhook_deliveries SET attempts = attempts + 1, updated_at = ? WHERE event_id = ? AND status = 'pending' RETURNING attempts",
    ),
    finishAttempt: db.prepare(
      "UPDATE webhook_deliveries SET status = ?, last_error = ?, updated_at = ? WHERE event_id = ? AND status = 'pending'",
    ),
    requeueFailed: db.prepare(
      "UPDATE webhook_deliveries SET status = 'pending', attempts = 0, updated_at = ? WHERE event_id = ? AND status = 'failed'",
    ),
  };
}

/**
 * node:sqlite is loaded on first use rather than imported, so the package imports (tokens,
 * triggers, webhook verification) on a Node without it: 22.5 to 22.12 and 23.0 to 23.3 have it
 * only behind --experimental-sqlite, older ones not at all.
 */
function loadDriver(): typeof import('node:sqlite') {
  try {
    return createRequire(import.meta.url)('node:sqlite') as typeof import('node:sqlite');
  } catch (error) {
    throw new PlatformError(
      'dependency_missing',
      `the SQLite webhook store needs Node's node:sqlite (Node 22.13 or newer; ${process.version} has it only behind --experimental-sqlite, or not at all): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}; upgrade Node, or pass another WebhookStore`,
    );
  }
}
