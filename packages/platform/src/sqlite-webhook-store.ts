/**
 * The default webhook store: one SQLite file (better-sqlite3, WAL), durable
 * on commit, so a delivery answered with 200 survives a crash or power loss.
 */
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
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
  const {
    findEvent,
    lastSequence,
    insertDelivery,
    raiseSequence,
    byStatus,
    startAttempt,
    finishAttempt,
    requeueFailed,
  } = prepareStatements(db);

  const record = db.transaction((delivery: WebhookDelivery): RecordOutcome => {
    const { event, instanceId } = delivery;
    if (findEvent.get(event.id) !== undefined) return 'duplicate';
    const last = lastSequence.get(instanceId, event.entityFqdn, event.entityId);
    if (last !== undefined && event.entityEventSequence <= last.last_sequence) return 'stale';
    insertDelivery.run({
      eventId: event.id,
      instanceId,
      eventType: delivery.eventType,
      entityFqdn: event.entityFqdn,
      entityId: event.entityId,
      sequence: event.entityEventSequence,
      json: JSON.stringify(delivery),
      now: Date.now(),
    });
    raiseSequence.run(instanceId, event.entityFqdn, event.entityId, event.entityEventSequence);
    return 'stored';
  });

  // better-sqlite3 is synchronous; the async wrappers only fit the WebhookStore interface.
  return {
    // IMMEDIATE takes the write lock up front, so two processes cannot both pass the duplicate check.
    record: async (delivery) => record.immediate(delivery),
    pending: async () =>
      byStatus
        .all('pending')
        .map(({ delivery_json, attempts }) => ({ delivery: JSON.parse(delivery_json) as WebhookDelivery, attempts })),
    startAttempt: async (eventId) => startAttempt.get(Date.now(), eventId)?.attempts,
    markAttemptFailed: async (eventId, error) => {
      finishAttempt.run('pending', error, Date.now(), eventId);
    },
    markProcessed: async (eventId) => {
      finishAttempt.run('processed', null, Date.now(), eventId);
    },
    markFailed: async (eventId, error) => {
      finishAttempt.run('failed', error, Date.now(), eventId);
    },
    list: async (status) => byStatus.all(status).map(toStored),
    requeue: async (eventId) => requeueFailed.run(Date.now(), eventId).changes > 0,
    close: () => db.close(),
  };
}

function toStored(row: DeliveryRow): StoredDelivery {
  return {
    delivery: JSON.parse(row.delivery_json) as WebhookDelivery,
    attempts: row.attempts,
    status: row.status,
    lastError: row.last_error ?? undefined,
    receivedAt: row.received_at,
  };
}

/** Opens the file with durable settings and the current schema, or a PlatformError saying why it cannot. */
function openDatabase(filename: string): Database.Database {
  const Driver = loadDriver();
  let db: Database.Database;
  try {
    db = new Driver(filename);
    db.pragma('journal_mode = WAL');
    // FULL: a commit is on disk before record() returns, which the 200 promises.
    db.pragma('synchronous = FULL');
    db.pragma('busy_timeout = 5000');
    const version = db.pragma('user_version', { simple: true });
    if (typeof version === 'number' && version > SCHEMA_VERSION) {
      throw new Error(
        `it has schema version ${version}, newer than this package's ${SCHEMA_VERSION}; upgrade @svc-docs/platform`,
      );
    }
    db.exec(SCHEMA);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  } catch (error) {
    throw new PlatformError(
      'invalid_argument',
      `cannot open the webhook store ${JSON.stringify(filename)}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return db;
}

/** The store's SQL, prepared once per open database. */
function prepareStatements(db: Database.Database) {
  const findEvent = db.prepare<[string], { found: number }>(
    'SELECT 1 AS found FROM webhook_deliveries WHERE event_id = ?',
  );
  const lastSequence = db.prepare<[string, string, string], { last_sequence: number }>(
    'SELECT last_sequence FROM webhook_entity_sequences WHERE instance_id = ? AND entity_fqdn = ? AND entity_id = ?',
  );
  const insertDelivery = db.prepare(
    `INSERT INTO webhook_deliveries (event_id, instance_id, event_type, entity_fqdn, entity_id, sequence, delivery_json, received_at, updated_at)
     VALUES (@eventId, @instanceId, @eventType, @entityFqdn, @entityId, @sequence, @json, @now, @now)`,
  );
  const raiseSequence = db.prepare(
    `INSERT INTO webhook_entity_sequences (instance_id, entity_fqdn, entity_id, last_sequence) VALUES (?, ?, ?, ?)
     ON CONFLICT (instance_id, entity_fqdn, entity_id) DO UPDATE SET last_sequence = excluded.last_sequence`,
  );
  const byStatus = db.prepare<[DeliveryStatus], DeliveryRow>(
    'SELECT delivery_json, attempts, status, last_error, received_at FROM webhook_deliveries WHERE status = ? ORDER BY id',
  );
  const startAttempt = db.prepare<[number, string], { attempts: number }>(
    "UPDATE webhook_deliveries SET attempts = attempts + 1, updated_at = ? WHERE event_id = ? AND status = 'pending' RETURNING attempts",
  );
  const finishAttempt = db.prepare<[DeliveryStatus, string | null, number, string]>(
    "UPDATE webhook_deliveries SET status = ?, last_error = ?, updated_at = ? WHERE event_id = ? AND status = 'pending'",
  );
  const requeueFailed = db.prepare<[number, string]>(
    "UPDATE webhook_deliveries SET status = 'pending', attempts = 0, updated_at = ? WHERE event_id = ? AND status = 'failed'",
  );
  return {
    findEvent,
    lastSequence,
    insertDelivery,
    raiseSequence,
    byStatus,
    startAttempt,
    finishAttempt,
    requeueFailed,
  };
}

/**
 * better-sqlite3 is loaded on first use rather than imported, so the package imports (tokens,
 * triggers, webhook verification) where its native build is absent, e.g. an `--ignore-scripts` install.
 */
function loadDriver(): typeof Database {
  try {
    const Driver = createRequire(import.meta.url)('better-sqlite3') as typeof Database;
    // The native addon loads on the first open: an install without its build fails here, not later.
    new Driver(':memory:').close();
    return Driver;
  } catch (error) {
    throw new PlatformError(
      'dependency_missing',
      `the SQLite webhook store needs better-sqlite3, which did not load (${error instanceof Error ? error.message.split('\n')[0] : String(error)}): install it with its native build (npm install better-sqlite3), or pass another WebhookStore`,
    );
  }
}
